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


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                    foreach=None):
    grads = _grads(parameters)
    if len(grads) == 0:
        return _creation.tensor(0.0)
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    with no_grad():
        norms = [fn.norm(g, norm_type) for g in grads]
        total = fn.norm(fn.stack(norms), norm_type)
        if error_if_nonfinite and bool(total.isnan() | total.isinf()):
            raise RuntimeError(f"The total norm of order {norm_type} for gradients from "
                               "`parameters` is non-finite, so it cannot be clipped. To "
                               "disable this error and scale the gradients by the non-finite "
                               "norm anyway, set `error_if_nonfinite=False`")
        coef = fn.clamp(max_norm / (total + 1e-6), None, 1.0)
        for g in grads:
            g.mul_(coef.to(g.dtype))
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
