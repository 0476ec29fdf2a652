"""SGD with momentum, dampening, Nesterov, weight decay and maximize (Note [Optimizer updates]),
block by block (Note [Blocked updates]) with aten's fused adds (Note [Fused optimizer updates])."""
from .._backend import np
from .._tensor import _make
from .optimizer import Optimizer, _blocks, _bump, _exact, _grad_block, axpy_, fma_, required

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
            maximize = group["maximize"]
            for p, g in self._params_with_grad(group):
                exact = _exact(p) and p._data.dtype.kind != "c"  # (aten's complex add
                # with alpha is not fused; PyTorch's SGD takes no view_as_real)
                s = p._data.real.dtype.type
                buf, first = None, False
                if momentum != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    first = buf is None
                    if first:   # buf = grad.clone()
                        buf = state["momentum_buffer"] = _make(np.empty_like(p._data))
                    else:       # buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                        buf._vc[0] += 2
                for pb, bb, gb, t in _blocks((p._data, None if buf is None else buf._data),
                                             (g,), 1):
                    gb = _grad_block(pb, gb, maximize, wd, t, exact)
                    if bb is not None:
                        if first:
                            np.copyto(bb, gb)
                        else:
                            bb *= s(momentum)
                            axpy_(bb, gb, 1 - damp, exact, t)  # (nesterov: alpha 1,
                            # so t, which may hold grad, is not used as work)
                        if nesterov:  # grad = grad.add(buf, alpha=momentum)
                            fma_(t, bb, s(momentum), gb, exact)
                            gb = t
                        else:
                            gb = bb
                    axpy_(pb, gb, -lr, exact, t)
                _bump(p)
        return loss
