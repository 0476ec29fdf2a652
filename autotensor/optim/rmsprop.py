"""RMSprop, centered and with momentum (Note [Optimizer updates])."""
from .._backend import np
from .optimizer import (Optimizer, _bump, _sqrt, _tmp, _scalar_state, _zeros_like, add_, addcdiv_,
                        addcmul_, lerp_)

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay,
                    "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
            wd, momentum, centered = group["weight_decay"], group["momentum"], group["centered"]
            for p, g in self._params_with_grad(group):
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["square_avg"] = _zeros_like(p)
                    if momentum > 0:
                        state["momentum_buffer"] = _zeros_like(p)
                    if centered:
                        state["grad_avg"] = _zeros_like(p)
                if group["maximize"]:
                    g = -g
                state["step"]._data += 1
                if wd != 0:
                    g = g + wd * p._data
                square_avg = state["square_avg"]._data
                square_avg *= alpha
                addcmul_(square_avg, g, g, 1 - alpha)
                if centered:
                    grad_avg = state["grad_avg"]._data
                    lerp_(grad_avg, g, 1 - alpha)
                    avg = _tmp(square_avg, 1)
                    np.copyto(avg, square_avg)
                    addcmul_(avg, grad_avg, grad_avg, -1)
                    np.sqrt(avg, out=avg)
                else:
                    avg = _sqrt(square_avg)
                avg += eps
                if momentum > 0:
                    buf = state["momentum_buffer"]._data
                    buf *= momentum
                    addcdiv_(buf, g, avg)
                    add_(p._data, buf, -lr)
                else:
                    addcdiv_(p._data, g, avg, -lr)
                _bump(p)
        return loss
