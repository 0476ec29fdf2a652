"""``nn.utils.parametrizations``: orthogonal, weight_norm and spectral_norm as
parametrizations (``parametrize.register_parametrization``), PyTorch's formulas and RNG
draws."""
from enum import Enum, auto

from ... import _creation, linalg
from ..._ops.linalg import geqrf
from ... import _ops as fn
from ..._dtypes import finfo
from ...autograd import no_grad
from .. import functional as F
from ..modules.module import Module
from . import parametrize

__all__ = ["orthogonal", "weight_norm", "spectral_norm"]


def norm_except_dim(v, pow=2, dim=0):
    """The norm over every dim but ``dim`` (kept as size-1 dims); dim=-1: the whole norm."""
    if dim == -1:
        return fn.norm(v, pow)
    dims = tuple(i for i in range(v.dim()) if i != dim)
    return fn.norm(v, pow, dims, keepdim=True)


def _weight_norm(v, g, dim=0):
    return fn.mul(v, fn.div(g, norm_except_dim(v, 2, dim)))


# ---- orthogonal ----------------------------------------------------------------------------
def _is_orthogonal(Q, eps=None):
    n, k = Q.size(-2), Q.size(-1)
    Id = _creation.eye(k, dtype=Q.dtype)
    eps = 10.0 * n * finfo(Q.dtype).eps
    return fn.allclose(fn.matmul(Q.mT, Q), Id, atol=eps)


def _make_orthogonal(A):
    """The Q of A = QR (A tall) with diag(R) >= 0: geqrf, householder_product, and the
    signs of the diagonal geqrf leaves (diag(R)), as PyTorch."""
    X, tau = geqrf(A)
    Q = linalg.householder_product(X, tau)
    return fn.mul(Q, X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2))


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """Q = map(X) (matrix_exp or Cayley of the skew part of X's lower triangle, or the
    product of the Householder reflectors in it), left-multiplied by ``base`` under the
    dynamic trivialization; ``right_inverse`` stores an orthogonalised value in ``base``
    and returns -I, so that the map starts at the identity (PyTorch's scheme)."""

    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()
            if n != k:
                X = fn.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = fn.sub(X, X.mT)
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = linalg.matrix_exp(A)
            else:
                Id = _creation.eye(n, dtype=A.dtype)
                Q = linalg.solve(fn.add(Id, A, alpha=-0.5), fn.add(Id, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            tau = fn.div(2.0, fn.add(1.0, fn.mul(A, A).sum(dim=-2)))
            Q = linalg.householder_product(A, tau)
            Q = fn.mul(Q, X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2))
        if hasattr(self, "base"):
            Q = fn.matmul(self.base, Q)
        if transposed:
            Q = Q.mT
        return Q

    def right_inverse(self, Q):
        with no_grad():
            return self._right_inverse(Q)

    def _right_inverse(self, Q):
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError(
                    "It is not possible to assign to the matrix exponential "
                    "or the Cayley parametrizations when use_trivialization=False.")
            # geqrf's X: the reflectors below the diagonal, diag(R) on it; PyTorch keeps the
            # signs of diag(R) (flipped where LAPACK skipped the reflection, tau == 0).
            A, tau = geqrf(Q)
            d = A.diagonal(dim1=-2, dim2=-1)
            d.copy_(fn.where(fn.eq(tau, 0.0), fn.neg(d.sign()), d.sign()))
            return A.mT if transpose else A
        if n == k:
            Q = _make_orthogonal(Q) if not _is_orthogonal(Q) else Q.clone()
        else:
            N = _creation.randn(tuple(Q.size()[:-2]) + (n, n - k), dtype=Q.dtype)
            Q = _make_orthogonal(fn.cat([Q, N], dim=-1))
        self.base = Q
        neg_Id = _creation.zeros_like(Q_init)
        neg_Id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_Id


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Q with orthonormal columns (rows when wide): ``"matrix_exp"``, ``"cayley"`` or
    ``"householder"`` (default: matrix_exp for square, householder otherwise)."""
    weight = getattr(module, name, None)
    from ..._tensor import Tensor
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. "
                         f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.size(-2) == weight.size(-1) \
            else "householder"
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


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
