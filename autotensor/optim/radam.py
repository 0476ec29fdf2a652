"""RAdam: Adam with a rectified adaptive learning rate (Note [Optimizer updates])."""
from .._backend import np
from .adam import _check_betas
from .optimizer import (Optimizer, _adam_moments, _blocks, _bump, _exact, _grad_block,
                        _next_step, _scalar_state, _zeros_like, sqrt_)

__all__ = ["RAdam"]


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False):
        _check_betas(lr, betas, eps, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, wd, eps = group["lr"], group["weight_decay"], group["eps"]
            decoupled = wd != 0 and group["decoupled_weight_decay"]
            for p, g in self._params_with_grad(group):
                exact = _exact(p)
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["exp_avg"] = _zeros_like(p)
                    state["exp_avg_sq"] = _zeros_like(p)
                step = _next_step(state)
                s = p._data.real.dtype.type
                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                        / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5 if rho_t > 5.0 else 0
                for pb, mb, vb, gb, t, u in _blocks(
                        (p._data, state["exp_avg"]._data, state["exp_avg_sq"]._data), (g,), 2):
                    if decoupled:
                        pb *= s(1 - lr * wd)
                    gb = _grad_block(pb, gb, group["maximize"], 0 if decoupled else wd, u,
                                     exact)
                    _adam_moments(mb, vb, gb, beta1, beta2, t, exact)
                    np.divide(mb, s(bias_correction1), out=t)   # bias_corrected_exp_avg * lr
                    t *= s(lr)
                    if rho_t > 5.0:   # * (bias_correction2 ** 0.5 / (sqrt + eps)) * rect
                        sqrt_(vb, u)
                        u += s(eps)
                        np.reciprocal(u, out=u)   # (a number / a tensor: its reciprocal
                        u *= s(bias_correction2 ** 0.5)  # times the number, as PyTorch's)
                        t *= u
                        t *= s(rect)
                    pb -= t   # param.add_(update, alpha=-1.0)
                _bump(p, 2 if decoupled else 1, state, exp_avg=1, exp_avg_sq=2)
        return loss
