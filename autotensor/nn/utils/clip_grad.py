"""Gradient clipping as ``torch.nn.utils.clip_grad``: the total norm is the norm of the
per-gradient norms, the scale ``max_norm / (total + 1e-6)`` clamped at 1 multiplies every
gradient in place (whole arrays, no per-element Python)."""
import warnings

from ... import _creation
from ... import _ops as fn
from ..._tensor import Tensor
from ...autograd import no_grad


def _grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of the per-tensor norms (PyTorch's two-step total norm)."""
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    tensors = list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return _creation.tensor(0.0)
    with no_grad():
        total = fn.norm(fn.stack([fn.norm(g, norm_type) for g in tensors]), norm_type)
    if error_if_nonfinite and bool(total.isnan() | total.isinf()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from "
                           "`parameters` is non-finite, so it cannot be clipped. To "
                           "disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale the gradients by ``max_norm / (total_norm + 1e-6)`` clamped at 1."""
    grads = _grads(parameters)
    if len(grads) == 0:
        return
    with no_grad():
        coef = fn.clamp(float(max_norm) / (total_norm + 1e-6), None, 1.0)
        for g in grads:
            g.mul_(coef.to(g.dtype))


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                    foreach=None):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    parameters = list(parameters)
    grads = _grads(parameters)
    if len(grads) == 0:
        return _creation.tensor(0.0)
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                   foreach=None):
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    clip_value = float(clip_value)
    with no_grad():
        for g in _grads(parameters):
            g.clamp_(min=-clip_value, max=clip_value)
