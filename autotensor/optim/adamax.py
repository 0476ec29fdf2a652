"""Adamax: Adam with the infinity norm (Note [Optimizer updates])."""
from .._backend import np
from .adam import _check_betas
from .optimizer import (Optimizer, _bump, _next_step, _scalar_state, _tmp, _weight_decay,
                        _zeros_like, addcdiv_, lerp_)

__all__ = ["Adamax"]


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        _check_betas(lr, betas, eps, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
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
                    state["exp_inf"] = _zeros_like(p)
                if group["maximize"]:
                    g = -g
                step = _next_step(state)
                g = _weight_decay(p, g, lr, wd)
                exp_avg, exp_inf = state["exp_avg"]._data, state["exp_inf"]._data
                lerp_(exp_avg, g, 1 - beta1)
                exp_inf *= beta2
                a = np.abs(g, out=_tmp(exp_inf, 1))
                a += eps
                np.maximum(exp_inf, a, out=exp_inf)
                clr = lr / (1 - beta1 ** step)
                addcdiv_(p._data, exp_avg, exp_inf, -clr)
                _bump(p)
        return loss
