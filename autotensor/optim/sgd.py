"""SGD with momentum, dampening, Nesterov, weight decay and maximize (Note [Optimizer updates])."""
from .._backend import np
from .._tensor import _make
from .optimizer import Optimizer, _bump, add_, required

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False,
                 fused=None):
        if lr is not required and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, momentum = group["lr"], group["momentum"]
            wd, damp, nesterov = group["weight_decay"], group["dampening"], group["nesterov"]
            for p, g in self._params_with_grad(group):
                if group["maximize"]:
                    g = -g
                if wd != 0:
                    g = g + wd * p._data
                if momentum != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = state["momentum_buffer"] = _make(np.array(g))
                    else:
                        b = buf._data
                        b *= momentum
                        add_(b, g, 1 - damp)
                        buf._vc[0] += 2
                    g = g + momentum * buf._data if nesterov else buf._data
                add_(p._data, g, -lr)
                _bump(p)
        return loss
