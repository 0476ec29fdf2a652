"""Rprop: sign-based steps with per-element adaptive sizes (Note [Optimizer updates])."""
from .._backend import np
from .._ops.raw import sign as sign_
from .optimizer import Optimizer, _as_real, _bump, _next_step, _scalar_state, _zeros_like

__all__ = ["Rprop"]


class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            for p, g in self._params_with_grad(group):
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar_state(0.0)
                    state["prev"] = _zeros_like(p)
                    lr = group["lr"]  # (complex: both parts step, as PyTorch's)
                    state["step_size"] = _zeros_like(
                        p, complex(lr, lr) if p._data.dtype.kind == "c" else lr)
                if group["maximize"]:
                    g = -g
                _next_step(state)
                # (complex: through the real views, as PyTorch's view_as_real)
                prev, step_size = _as_real(state["prev"]._data), _as_real(state["step_size"]._data)
                g, param = _as_real(g), _as_real(p._data)
                s = g.dtype.type
                sign = sign_(g * prev)   # (aten's sign: 0 at NaN, as the masks below)
                sign = np.where(sign > 0, s(etaplus), np.where(sign < 0, s(etaminus), s(1)))
                step_size *= sign
                np.clip(step_size, step_size_min, step_size_max, out=step_size)
                g = np.where(sign == s(etaminus), s(0), g)
                param -= sign_(g) * step_size   # param.addcmul_(grad.sign(), step_size,
                _bump(p, 1, state, prev=1, step_size=2)  # value=-1): the product is exact
                prev[...] = g
        return loss
