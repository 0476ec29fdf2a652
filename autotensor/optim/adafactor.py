"""Adafactor: factored second moments (row and column variances) for matrices
(Note [Optimizer updates]; written with tensor ops, as PyTorch's ``_single_tensor_adafactor``
line by line, because its reductions — norms, means, a matmul — are the update)."""
from .. import _creation, _dtypes
from .._tensor import Tensor
from ..autograd import grad_mode
from .optimizer import Optimizer, _scalar_dtype

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                 weight_decay=0.0, *, foreach=None, maximize=False):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d,
                    "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize}
        super().__init__(params, defaults)

    def _init_state(self, p):
        if p.is_complex():
            raise RuntimeError("Adafactor does not support complex parameters")
        state = self.state[p]
        if len(state) == 0:
            state["step"] = _creation.tensor(0.0, dtype=_scalar_dtype())
            g = p.grad
            if g.dim() > 1:
                row_shape = list(g.shape)
                row_shape[-1] = 1
                state["row_var"] = g.new_zeros(row_shape)  # (reduced along the last dim)
                col_shape = list(g.shape)
                col_shape[-2] = 1
                state["col_var"] = g.new_zeros(col_shape)
            else:
                state["variance"] = _creation.zeros_like(g)
        return state

    def step(self, closure=None):
        loss = None
        if closure is not None:
            with grad_mode.enable_grad():
                loss = closure()
        with grad_mode.no_grad():
            for group in self.param_groups:
                params = [p for p in group["params"] if p.grad is not None]
                states = [self._init_state(p) for p in params]
                for p, state in zip(params, states):
                    _adafactor_step(p, state, group)
        return loss


def _adafactor_step(param, state, group):
    lr = group["lr"]
    lr = lr.item() if isinstance(lr, Tensor) else lr
    eps1, eps2 = group["eps"]
    d, weight_decay = group["d"], group["weight_decay"]
    grad = param.grad if not group["maximize"] else -param.grad
    if eps1 is None:
        eps1 = _dtypes.finfo(param.dtype).eps
    step_t = state["step"]
    step_t += 1
    step_float = step_t.item()
    one_minus_beta2_t = step_float ** group["beta2_decay"]
    rho_t = min(lr, 1 / (step_float ** 0.5))
    alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t
    if weight_decay != 0:
        param.mul_(1 - lr * weight_decay)
    if grad.dim() > 1:
        row_var, col_var = state["row_var"], state["col_var"]
        row_mean = grad.norm(dim=-1, keepdim=True).square_().div_(grad.size(-1))
        row_var.lerp_(row_mean, one_minus_beta2_t)
        col_mean = grad.norm(dim=-2, keepdim=True).square_().div_(grad.size(-2))
        col_var.lerp_(col_mean, one_minus_beta2_t)
        var_estimate = row_var @ col_var
        var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
    else:
        variance = state["variance"]
        variance.lerp_(grad * grad, one_minus_beta2_t)
        var_estimate = variance.clone()
    update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
    update.mul_(grad)
    denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
    param.add_(update, alpha=-alpha / denom)
