"""Helpers shared by the distributions, as ``torch.distributions.utils``."""
from numbers import Number

import autotensor as torch
from autotensor.nn import functional as F

__all__ = ["broadcast_all", "clamp_probs", "lazy_property", "logits_to_probs",
           "probs_to_logits", "tril_matrix_to_vec", "vec_to_tril_matrix"]

euler_constant = 0.57721566490153286060  # Euler-Mascheroni


def broadcast_all(*values):
    """Tensors broadcast together; numbers become tensors of the first tensor's dtype (the
    default dtype when all are numbers)."""
    if not all(isinstance(v, (torch.Tensor, Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or "
                         "objects implementing __torch_function__.")
    if not all(isinstance(v, torch.Tensor) for v in values):
        dtype = next((v.dtype for v in values if isinstance(v, torch.Tensor)),
                     torch.get_default_dtype())
        values = [v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=dtype)
                  for v in values]
    return torch.broadcast_tensors(*values)


def _standard_normal(shape, dtype, device=None):
    return torch.empty(shape, dtype=dtype).normal_()


def _sum_rightmost(value, dim):
    """Sum out the last ``dim`` dims."""
    if dim == 0:
        return value
    return value.reshape(value.shape[:-dim] + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary=False):
    return torch.sigmoid(logits) if is_binary else F.softmax(logits, dim=-1)


def clamp_probs(probs):
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(ps_clamped) - torch.log1p(-ps_clamped)
    return torch.log(ps_clamped)


class lazy_property:
    """A parameter computed from another on first use (probs <-> logits), then kept; built
    with grad enabled, as PyTorch's, so a later gradient reaches the parameter given."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__, self.__name__ = wrapped.__doc__, wrapped.__name__

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def _tril_mask(n, diag):
    arange = torch.arange(n)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag=0):
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag)]


def vec_to_tril_matrix(vec, diag=0):
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1]
                            + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > torch.finfo(vec.dtype).eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be "
                         "expressed as the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(vec.shape[:-1] + torch.Size((n, n)))
    mat[..., _tril_mask(n, diag)] = vec
    return mat
