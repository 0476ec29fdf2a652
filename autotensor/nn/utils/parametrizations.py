"""``nn.utils.parametrizations``: weight_norm and spectral_norm as parametrizations
(``parametrize.register_parametrization``), PyTorch's formulas and RNG draws."""
from ... import _ops as fn
from ...autograd import no_grad
from .. import functional as F
from ..modules.module import Module
from . import parametrize

__all__ = ["weight_norm", "spectral_norm"]


def norm_except_dim(v, pow=2, dim=0):
    """The norm over every dim but ``dim`` (kept as size-1 dims); dim=-1: the whole norm."""
    if dim == -1:
        return fn.norm(v, pow)
    dims = tuple(i for i in range(v.dim()) if i != dim)
    return fn.norm(v, pow, dims, keepdim=True)


def _weight_norm(v, g, dim=0):
    return fn.mul(v, fn.div(g, norm_except_dim(v, 2, dim)))


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        weight_g = norm_except_dim(weight, 2, self.dim)
        weight_v = weight
        return weight_g, weight_v


def weight_norm(module, name="weight", dim=0):
    """w = g * v / ||v|| (norm over every dim but ``dim``): originals g (original0) and v
    (original1)."""
    _weight_norm_module = _WeightNorm(dim)
    parametrize.register_parametrization(module, name, _weight_norm_module, unsafe=True)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.shape
            from ... import _creation
            u = _creation.empty(h, dtype=weight.dtype).normal_(0, 1)
            v = _creation.empty(w, dtype=weight.dtype).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        assert weight.ndim > 1
        if self.dim != 0:
            weight = fn.movedim(weight, self.dim, 0)
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        with no_grad():
            for _ in range(n_power_iterations):
                u = F.normalize(fn.mv(weight_mat, self._v), dim=0, eps=self.eps)
                self._u.copy_(u)
                v = F.normalize(fn.mv(weight_mat.t(), self._u), dim=0, eps=self.eps)
                self._v.copy_(v)

    def forward(self, weight):
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone()
        v = self._v.clone()
        sigma = fn.dot(u, fn.mv(weight_mat, v))
        return fn.div(weight, sigma)

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """w / sigma(w), sigma estimated by power iteration (buffers _u, _v; one iteration per
    training-mode access)."""
    weight = getattr(module, name, None)
    from ..._tensor import Tensor
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        from ..modules.conv import ConvTranspose1d, ConvTranspose2d
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d)) else 0
    parametrize.register_parametrization(module, name,
                                         _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
