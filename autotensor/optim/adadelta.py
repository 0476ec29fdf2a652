"""Adadelta (Note [Optimizer updates])."""
from .._backend import np
from .optimizer import (Optimizer, _blocks, _bump, _exact, _grad_block, _next_step, _scalar_state,
                        _zeros_like, addcmul_, axpy_, sqrt_)

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "capturable": capturable, "foreach": foreach,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, rho, eps, wd = group["lr"], group["rho"], group["eps"], group["weight_decay"]
            for p, g in self._params_with_grad(group):
                exact = _exact(p)
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["square_avg"] = _zeros_like(p)
                    state["acc_delta"] = _zeros_like(p)
                _next_step(state)
                s = p._data.real.dtype.type
                for pb, vb, ab, gb, t, u, d in _blocks(
                        (p._data, state["square_avg"]._data, state["acc_delta"]._data),
                        (g,), 3):
                    gb = _grad_block(pb, gb, group["maximize"], wd, u, exact,
                                     p._data.dtype.kind == "c")
                    vb *= s(rho)
                    addcmul_(vb, gb, gb, 1 - rho, t, exact)
                    np.add(vb, s(eps), out=t)    # std = square_avg.add(eps).sqrt_()
                    sqrt_(t, t)
                    np.add(ab, s(eps), out=d)    # delta = acc_delta.add(eps).sqrt_()
                    sqrt_(d, d)
                    d /= t                       # delta.div_(std).mul_(grad)
                    d *= gb
                    ab *= s(rho)
                    addcmul_(ab, d, d, 1 - rho, t, exact)
                    axpy_(pb, d, -lr, exact, t)
                _bump(p, 1, state, square_avg=2, acc_delta=2)
        return loss
