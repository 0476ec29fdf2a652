"""Adam and its AdamW form (decoupled weight decay), amsgrad, maximize
(Note [Optimizer updates], Note [Adam's update]).

Note [Adam's update]
~~~~~~~~~~~~~~~~~~~~
PyTorch's single-tensor Adam updates, per parameter:
    exp_avg.lerp_(grad, 1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    param.addcdiv_(exp_avg, denom, value=-lr / bias_correction1)
Ours is the same algebra in fewer, cheaper NumPy passes, run block by block (Note [Blocked
updates]): the lerp as ``beta1 * exp_avg + (1 - beta1) * grad``, maximize's ``-grad`` as a
negative weight there, and ``bias_correction2_sqrt`` moved out of the denominator:
``param += (-lr / bias_correction1 * bias_correction2_sqrt) * exp_avg /
(sqrt(exp_avg_sq) + eps * bias_correction2_sqrt)``: twelve NumPy calls a block, each in
place or into one block-sized work array. The results differ from PyTorch's by float
rounding only (a few ulps a step, as PyTorch's own fused and foreach kernels do).
"""
from .._backend import np
from .optimizer import Optimizer, _blocks, _bump, _next_step, _scalar_state, _zeros_like

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
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["exp_avg"] = _zeros_like(p)
                    state["exp_avg_sq"] = _zeros_like(p)
                    if amsgrad:
                        state["max_exp_avg_sq"] = _zeros_like(p)
                step = _next_step(state)
                # Note [Adam's update]: the coefficients, in the parameter's dtype (the
                # same for the group's parameters at the same step: computed once)
                key = (p._data.dtype, step)
                c = coefs.get(key)
                if c is None:
                    s = key[0].type
                    bias_correction1 = 1 - beta1 ** step
                    bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
                    c = coefs[key] = (
                        s(1 - lr * wd), s(wd), s(beta1),
                        s(-(1 - beta1) if maximize and not l2 else 1 - beta1),
                        s(beta2), s(1 - beta2), s(eps * bias_correction2_sqrt),
                        s(-lr / bias_correction1 * bias_correction2_sqrt))
                shrink, wd_, b1, w1, b2, w2, eps_, step_size = c
                mx = state["max_exp_avg_sq"]._data if amsgrad else None
                for pb, mb, vb, xb, gb, t, u in _blocks(
                        (p._data, state["exp_avg"]._data, state["exp_avg_sq"]._data, mx),
                        (g,), 2):
                    if decoupled:
                        pb *= shrink
                    elif l2:   # grad = (-grad if maximize else grad) + weight_decay * param
                        np.multiply(pb, wd_, out=u)
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
                    np.sqrt(vb, out=t)
                    t += eps_
                    np.divide(mb, t, out=t)
                    t *= step_size
                    pb += t
                _bump(p, 2 if decoupled else 1)
        return loss
