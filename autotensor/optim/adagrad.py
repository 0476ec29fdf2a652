"""Adagrad (Note [Optimizer updates]). Its state is created up front, as PyTorch's."""
from .optimizer import (Optimizer, _blocks, _bump, _exact, _grad_block, _next_step,
                        _scalar_state, _zeros_like, addcdiv_, addcmul_, sqrt_)

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0,
                 initial_accumulator_value=0, eps=1e-10, foreach=None, *, maximize=False,
                 differentiable=False, fused=None):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(
                f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = _scalar_state(0.0)
                state["sum"] = _zeros_like(p, initial_accumulator_value)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, wd, eps, lr_decay = (group["lr"], group["weight_decay"], group["eps"],
                                     group["lr_decay"])
            for p, g in self._params_with_grad(group):
                exact = _exact(p)
                state = self.state[p]
                step = _next_step(state)
                s = p._data.real.dtype.type
                clr = lr / (1 + (step - 1) * lr_decay)
                for pb, sb, gb, t, u in _blocks((p._data, state["sum"]._data), (g,), 2):
                    gb = _grad_block(pb, gb, group["maximize"], wd, u, exact,
                                     p._data.dtype.kind == "c")
                    addcmul_(sb, gb, gb, 1, t, exact)
                    sqrt_(sb, t)   # std = state_sum.sqrt().add_(eps)
                    t += s(eps)
                    addcdiv_(pb, gb, t, -clr, u)
                _bump(p, 1, state, sum=1)
        return loss
