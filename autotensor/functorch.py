"""functorch's API (``import functorch as ft``, the package PyTorch's tutorials import):
the transforms of ``autotensor.func`` and functorch's own ``make_functional`` and
``make_functional_with_buffers``.

PyTorch ships ``functorch`` as a separate top-level package over ``torch.func``; a program
written for it runs on autotensor when its ``import functorch`` resolves here (the seed
examples' runner does that, as it resolves ``import torch``).
"""
import copy

from .func import (  # noqa: F401  (re-exported: functorch.jvp is torch.func.jvp)
    functional_call, grad, grad_and_value, hessian, jacfwd, jacrev, jvp, linearize, vjp, vmap)
from .nn.modules.module import Module

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian",
           "linearize", "vmap", "functional_call", "make_functional",
           "make_functional_with_buffers", "FunctionalModule", "FunctionalModuleWithBuffers"]


def _state(model, kind):
    return [(name, t) for name, t in getattr(model, "named_" + kind)()]


class FunctionalModuleWithBuffers(Module):
    """``func(params, buffers, *args)``: the copied model called with the given tensors in
    place of its parameters and buffers (in ``named_parameters()`` / ``named_buffers()``
    order)."""

    def __init__(self, stateless_model, param_names, buffer_names):
        super().__init__()
        self.stateless_model = stateless_model
        self.param_names = tuple(param_names)
        self.buffer_names = tuple(buffer_names)

    def forward(self, params, buffers, *args, **kwargs):
        values = dict(zip(self.param_names, params))
        values.update(zip(self.buffer_names, buffers))
        return functional_call(self.stateless_model, values, args, kwargs)


class FunctionalModule(Module):
    """``func(params, *args)``: as FunctionalModuleWithBuffers, buffers kept in the copy."""

    def __init__(self, stateless_model, param_names):
        super().__init__()
        self.stateless_model = stateless_model
        self.param_names = tuple(param_names)

    def forward(self, params, *args, **kwargs):
        return functional_call(self.stateless_model, dict(zip(self.param_names, params)),
                               args, kwargs)


def _copy_and_params(model, disable_autograd_tracking):
    model_copy = copy.deepcopy(model)
    named = _state(model_copy, "parameters")
    params = tuple(p for _, p in named)
    if disable_autograd_tracking:
        for p in params:
            p.requires_grad_(False)
    return model_copy, [n for n, _ in named], params


def make_functional_with_buffers(model, disable_autograd_tracking=False):
    """``(func, params, buffers)`` of a deep copy of ``model``, as functorch's: ``params``
    are the copy's parameters (requiring grad unless ``disable_autograd_tracking``)."""
    model_copy, names, params = _copy_and_params(model, disable_autograd_tracking)
    buffers = _state(model_copy, "buffers")
    func = FunctionalModuleWithBuffers(model_copy, names, [n for n, _ in buffers])
    return func, params, tuple(b for _, b in buffers)


def make_functional(model, disable_autograd_tracking=False):
    """``(func, params)``: as make_functional_with_buffers; functorch refuses a model
    with buffers here."""
    if len(list(model.buffers())) > 0:
        raise RuntimeError("make_functional(model): `model` has buffers. Please use "
                           "make_functional_with_buffers(model) instead.")
    model_copy, names, params = _copy_and_params(model, disable_autograd_tracking)
    return FunctionalModule(model_copy, names), params
