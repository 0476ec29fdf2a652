"""Adamax: Adam with the infinity norm (Note [Optimizer updates])."""
from .._backend import np
from .adam import _check_betas
from .optimizer import (Optimizer, _blocks, _bump, _exact, _grad_block, _next_step,
                        _scalar_state, _zeros_like, addcdiv_, lerp_)

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
                exact = _exact(p)
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["exp_avg"] = _zeros_like(p)
                    state["exp_inf"] = _zeros_like(p)
                step = _next_step(state)
                s = p._data.real.dtype.type
                clr = lr / (1 - beta1 ** step)
                for pb, mb, eb, gb, t, u in _blocks(
                        (p._data, state["exp_avg"]._data, state["exp_inf"]._data), (g,), 2):
                    gb = _grad_block(pb, gb, group["maximize"], wd, u, exact,
                                     p._data.dtype.kind == "c")
                    lerp_(mb, gb, 1 - beta1, t, exact)
                    eb *= s(beta2)   # torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps))
                    np.abs(gb, out=t)
                    t += s(eps)
                    np.maximum(eb, t, out=eb)
                    addcdiv_(pb, mb, eb, -clr, t)
                _bump(p, 1, state, exp_avg=1, exp_inf=2)
        return loss
