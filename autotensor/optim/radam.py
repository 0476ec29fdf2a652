"""RAdam: Adam with a rectified adaptive learning rate (Note [Optimizer updates])."""
from .._backend import np
from .adam import _check_betas
from .optimizer import (Optimizer, _adam_moments, _bump, _next_step, _scalar_state,
                        _weight_decay, _zeros_like)

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
            for p, g in self._params_with_grad(group):
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["exp_avg"] = _zeros_like(p)
                    state["exp_avg_sq"] = _zeros_like(p)
                if group["maximize"]:
                    g = -g
                step = _next_step(state)
                g = _weight_decay(p, g, lr, wd, group["decoupled_weight_decay"])
                exp_avg, exp_avg_sq = _adam_moments(state, g, beta1, beta2)
                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                update = exp_avg / bias_correction1
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                update *= lr
                if rho_t > 5.0:
                    sq = np.sqrt(exp_avg_sq)
                    sq += eps
                    update *= (bias_correction2 ** 0.5) / sq
                    update *= ((rho_t - 4) * (rho_t - 2) * rho_inf
                               / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                p._data -= update
                _bump(p)
        return loss
