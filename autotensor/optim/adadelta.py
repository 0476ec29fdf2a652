"""Adadelta (Note [Optimizer updates])."""
from .._backend import np
from .optimizer import Optimizer, _bump, _tmp, _scalar_state, _zeros_like, add_, addcmul_

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
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["square_avg"] = _zeros_like(p)
                    state["acc_delta"] = _zeros_like(p)
                state["step"]._data += 1
                if group["maximize"]:
                    g = -g
                if wd != 0:
                    g = g + wd * p._data
                square_avg, acc_delta = state["square_avg"]._data, state["acc_delta"]._data
                square_avg *= rho
                addcmul_(square_avg, g, g, 1 - rho)
                std = np.add(square_avg, eps, out=_tmp(square_avg, 1))
                np.sqrt(std, out=std)
                delta = np.add(acc_delta, eps, out=_tmp(acc_delta, 2))
                np.sqrt(delta, out=delta)
                delta /= std
                delta *= g
                acc_delta *= rho
                addcmul_(acc_delta, delta, delta, 1 - rho)
                add_(p._data, delta, -lr)
                _bump(p)
        return loss
