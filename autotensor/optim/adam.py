"""Adam and its AdamW form (decoupled weight decay), amsgrad, maximize
(Note [Optimizer updates], Note [Adam's update]).

Note [Adam's update]
~~~~~~~~~~~~~~~~~~~~
PyTorch's single-tensor Adam updates, per parameter:
    param.mul_(1 - lr * weight_decay)            (decoupled; else grad.add(param, alpha=wd))
    exp_avg.lerp_(grad, 1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    param.addcdiv_(exp_avg, denom, value=-lr / bias_correction1)
Ours runs the same ops in that order, block by block (Note [Blocked updates]), the lerp and
addcmul as aten's fused multiply-adds (Note [Fused optimizer updates]): PyTorch's values bit
for bit. (An algebraically equal form in twelve cheaper NumPy passes, kept until stop 37,
drifted a few ulps a step.)
"""
from .._backend import np
from .optimizer import (Optimizer, _adam_moments, _blocks, _bump, _exact, _grad_block,
                        _next_step, _scalar_state, _zeros_like, addcdiv_, sqrt_)

__all__ = ["Adam"]


def _check_betas(lr, betas, eps, weight_decay):
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        _check_betas(lr, betas, eps, weight_decay)
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable,
                    "fused": fused, "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for k, v in (("amsgrad", False), ("maximize", False), ("foreach", None),
                         ("capturable", False), ("differentiable", False),
                         ("decoupled_weight_decay", False), ("fused", None)):
                group.setdefault(k, v)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, wd, eps = group["lr"], group["weight_decay"], group["eps"]
            amsgrad, maximize = group["amsgrad"], group["maximize"]
            decoupled = wd != 0 and group["decoupled_weight_decay"]
            l2 = wd != 0 and not decoupled
            coefs = {}
            for p, g in self._params_with_grad(group):
                exact = _exact(p)
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["exp_avg"] = _zeros_like(p)
                    state["exp_avg_sq"] = _zeros_like(p)
                    if amsgrad:
                        state["max_exp_avg_sq"] = _zeros_like(p)
                step = _next_step(state)
                # the group's coefficients at a step, in the parameter's dtype (computed
                # once for the group's parameters of that dtype and step)
                key = (p._data.real.dtype, step)
                c = coefs.get(key)
                if c is None:
                    s = key[0].type
                    bias_correction1 = 1 - beta1 ** step
                    bias_correction2 = 1 - beta2 ** step
                    step_size = lr / bias_correction1
                    c = coefs[key] = (s(1 - lr * wd), s(bias_correction2 ** 0.5), s(eps),
                                      -step_size)
                shrink, bc2_sqrt, eps_, value = c
                mx = state["max_exp_avg_sq"]._data if amsgrad else None
                for pb, mb, vb, xb, gb, t, u in _blocks(
                        (p._data, state["exp_avg"]._data, state["exp_avg_sq"]._data, mx),
                        (g,), 2):
                    if decoupled:
                        pb *= shrink
                    gb = _grad_block(pb, gb, maximize, wd if l2 else 0, u, exact,
                                     p._data.dtype.kind == "c")
                    _adam_moments(mb, vb, gb, beta1, beta2, t, exact)
                    if xb is not None:
                        np.maximum(xb, vb, out=xb)
                        vb = xb
                    sqrt_(vb, t)   # denom = (sqrt / bias_correction2_sqrt).add_(eps)
                    t /= bc2_sqrt
                    t += eps_
                    addcdiv_(pb, mb, t, value, u)
                _bump(p, 2 if decoupled else 1, state, exp_avg=1, exp_avg_sq=2,
                      max_exp_avg_sq=1)
        return loss
