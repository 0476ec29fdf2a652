"""ASGD: averaged SGD (Note [Optimizer updates])."""
from .. import _dtypes
from .._backend import np
from .optimizer import (Optimizer, _blocks, _bump, _exact, _grad_block, _next_step,
                        _scalar_state, _zeros_like, axpy_)

__all__ = ["ASGD"]


class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                    "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
            wd = group["weight_decay"]
            for p, g in self._params_with_grad(group):
                exact = _exact(p)
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["eta"] = _scalar_state(lr)
                    state["mu"] = _scalar_state(1.0)
                    state["ax"] = _zeros_like(p)
                step = _next_step(state)
                s = p._data.real.dtype.type
                eta, mu = state["eta"]._data, state["mu"]._data
                eta_value, mu_value = float(eta), float(mu)
                for pb, xb, gb, t in _blocks((p._data, state["ax"]._data), (g,), 1):
                    gb = _grad_block(pb, gb, group["maximize"], wd, t, exact)
                    pb *= s(1 - lambd * eta_value)   # decay term
                    axpy_(pb, gb, -eta_value, exact, t)
                    if mu_value != 1:   # ax.add_(param.sub(ax).mul_(mu))
                        np.subtract(pb, xb, out=t)
                        t *= s(mu_value)
                        xb += t
                    else:
                        np.copyto(xb, pb)
                _bump(p, 2, state, ax=1, eta=1, mu=1)
                # PyTorch copies `as_tensor(python float)`: rounded to the default dtype
                as_tensor = _dtypes.get_default_dtype().np.type
                eta[...] = as_tensor(lr / ((1 + lambd * lr * step) ** alpha))
                mu[...] = as_tensor(1 / max(1, step - t0))
        return loss
