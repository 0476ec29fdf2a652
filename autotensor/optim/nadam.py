"""NAdam: Adam with Nesterov momentum and momentum decay (Note [Optimizer updates])."""
from .._backend import np
from .adam import _check_betas
from .optimizer import (Optimizer, _adam_moments, _blocks, _bump, _exact, _grad_block,
                        _next_step, _scalar_state, _zeros_like, addcdiv_, sqrt_)

__all__ = ["NAdam"]


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
        _check_betas(lr, betas, eps, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay,
                    "decoupled_weight_decay": decoupled_weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, wd, eps = group["lr"], group["weight_decay"], group["eps"]
            momentum_decay = group["momentum_decay"]
            decoupled = wd != 0 and group["decoupled_weight_decay"]
            for p, g in self._params_with_grad(group):
                exact = _exact(p)
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["mu_product"] = _scalar_state(1.0)
                    state["exp_avg"] = _zeros_like(p)
                    state["exp_avg_sq"] = _zeros_like(p)
                step = _next_step(state)
                s = p._data.real.dtype.type
                bias_correction2 = 1 - beta2 ** step
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
                mp = state["mu_product"]._data
                mp *= mu
                mu_product = float(mp)
                mu_product_next = mu_product * mu_next
                value1 = -lr * (1.0 - mu) / (1.0 - mu_product)
                value2 = (-lr * mu_next) / (1.0 - mu_product_next)
                for pb, mb, vb, gb, t, u, d in _blocks(
                        (p._data, state["exp_avg"]._data, state["exp_avg_sq"]._data), (g,), 3):
                    if decoupled:
                        pb *= s(1 - lr * wd)
                    gb = _grad_block(pb, gb, group["maximize"], 0 if decoupled else wd, u,
                                     exact)
                    _adam_moments(mb, vb, gb, beta1, beta2, t, exact)
                    np.divide(vb, s(bias_correction2), out=d)   # denom
                    sqrt_(d, d)
                    d += s(eps)
                    addcdiv_(pb, gb, d, value1, t)
                    addcdiv_(pb, mb, d, value2, t)
                _bump(p, 3 if decoupled else 2, state, mu_product=1, exp_avg=1,
                      exp_avg_sq=2)
        return loss
