"""RMSprop, centered and with momentum (Note [Optimizer updates])."""
from .._backend import np
from .optimizer import (Optimizer, _blocks, _bump, _exact, _grad_block, _next_step, _scalar_state,
                        _zeros_like, addcdiv_, addcmul_, axpy_, fma_, lerp_, sqrt_)

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
                exact = _exact(p)
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["square_avg"] = _zeros_like(p)
                    if momentum > 0:
                        state["momentum_buffer"] = _zeros_like(p)
                    if centered:
                        state["grad_avg"] = _zeros_like(p)
                _next_step(state)
                s = p._data.real.dtype.type
                buf = state["momentum_buffer"]._data if momentum > 0 else None
                grad_avg = state["grad_avg"]._data if centered else None
                for pb, vb, bb, ab, gb, t, u, d in _blocks(
                        (p._data, state["square_avg"]._data, buf, grad_avg), (g,), 3):
                    gb = _grad_block(pb, gb, group["maximize"], wd, u, exact,
                                     p._data.dtype.kind == "c")
                    vb *= s(alpha)
                    addcmul_(vb, gb, gb, 1 - alpha, t, exact)
                    if centered:   # avg = square_avg.addcmul(grad_avg, grad_avg, value=-1)
                        lerp_(ab, gb, 1 - alpha, t, exact)
                        np.negative(ab, out=t)
                        fma_(d, t, ab, vb, exact, t)
                        sqrt_(d, d)
                    else:
                        sqrt_(vb, d)
                    d += s(eps)
                    if bb is not None:   # buf.mul_(momentum).addcdiv_(grad, avg)
                        bb *= s(momentum)
                        np.divide(gb, d, out=t)
                        bb += t
                        axpy_(pb, bb, -lr, exact, t)
                    else:
                        addcdiv_(pb, gb, d, -lr, t)
                _bump(p, 1, state, square_avg=2, momentum_buffer=2, grad_avg=1)
        return loss
