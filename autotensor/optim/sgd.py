"""Stochastic gradient descent with momentum, dampening, Nesterov and weight decay."""
from ..autograd import no_grad
from .optimizer import Optimizer


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize))

    @no_grad()
    def step(self, closure=None):
        loss = closure() if closure is not None else None
        for group in self.param_groups:
            lr, momentum = group["lr"], group["momentum"]
            wd, damp, nesterov = group["weight_decay"], group["dampening"], group["nesterov"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                g = p._grad._data
                if group["maximize"]:
                    g = -g
                if wd:
                    g = g + wd * p._data
                if momentum:
                    buf = self.state.setdefault(id(p), {}).get("momentum_buffer")
                    if buf is None:
                        buf = g.copy()
                        self.state[id(p)]["momentum_buffer"] = buf
                    else:
                        buf *= momentum
                        buf += (1 - damp) * g
                    g = g + momentum * buf if nesterov else buf
                p._data -= lr * g
                p._vc[0] += 1
        return loss
