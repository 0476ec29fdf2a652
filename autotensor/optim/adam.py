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
for bit, for parameters of up to PORTED_MAX elements. Larger ones (where training spends its
time, and where the fused ops would round twice anyway) take the same algebra in fewer,
cheaper NumPy passes (``_fast_update``): the lerp as ``beta1 * exp_avg + (1 - beta1) *
grad``, maximize's ``-grad`` as a negative weight there, and ``bias_correction2_sqrt``
moved out of the denominator: ``param += (-lr / bias_correction1 * bias_correction2_sqrt)
* exp_avg / (sqrt(exp_avg_sq) + eps * bias_correction2_sqrt)``, twelve NumPy calls a block
(PyTorch's order took 13 with a second division: 1.23 x the step at 1M parameters), a few
ulps a step from PyTorch's.
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
                    bc2_sqrt = bias_correction2 ** 0.5
                    c = coefs[key] = (s(1 - lr * wd), s(bc2_sqrt), s(eps), -step_size, (
                        s(wd), s(beta1), s(-(1 - beta1) if maximize and not l2 else 1 - beta1),
                        s(beta2), s(1 - beta2), s(eps * bc2_sqrt), s(-step_size * bc2_sqrt)))
                shrink, bc2_sqrt, eps_, value, fast = c
                mx = state["max_exp_avg_sq"]._data if amsgrad else None
                blocks = _blocks(
                    (p._data, state["exp_avg"]._data, state["exp_avg_sq"]._data, mx), (g,), 2)
                if not exact:
                    _fast_update(blocks, shrink if decoupled else None, l2, maximize, fast)
                    blocks = ()
                for pb, mb, vb, xb, gb, t, u in blocks:
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


def _fast_update(blocks, shrink, l2, maximize, c):
    """Adam's update past PORTED_MAX elements (Note [Adam's update]): twelve NumPy calls a
    block, each in place or into one work block."""
    wd, b1, w1, b2, w2, eps, step_size = c
    for pb, mb, vb, xb, gb, t, u in blocks:
        if shrink is not None:
            pb *= shrink
        elif l2:   # grad = (-grad if maximize else grad) + weight_decay * param
            np.multiply(pb, wd, out=u)
            (np.subtract if maximize else np.add)(u, gb, out=u)
            gb = u
        mb *= b1              # exp_avg = beta1 * exp_avg + (1 - beta1) * grad
        np.multiply(gb, w1, out=t)
        mb += t
        vb *= b2              # exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * grad**2
        np.square(gb, out=t)
        t *= w2
        vb += t
        if xb is not None:
            np.maximum(xb, vb, out=xb)
            vb = xb
        np.sqrt(vb, out=t)    # param += step_size * bias_correction2_sqrt * exp_avg /
        t += eps              # (sqrt(exp_avg_sq) + eps * bias_correction2_sqrt)
        np.divide(mb, t, out=t)
        t *= step_size
        pb += t
