"""Lazy modules: parameters whose shape is inferred from the first input
(``UninitializedParameter``; ``LazyLinear`` becomes a ``Linear`` after its first call, as
PyTorch's LazyModuleMixin makes it)."""
from ... import _creation
from ..parameter import Parameter
from .linear import Linear
from .module import Module

__all__ = ["LazyLinear", "UninitializedParameter", "UninitializedBuffer"]


class UninitializedParameter(Parameter):
    """A parameter without data yet; ``materialize(shape)`` gives it an (empty) array and
    makes it a plain Parameter."""

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        p = Parameter.__new__(cls, _creation.empty(0, dtype=dtype), requires_grad)
        return p

    def materialize(self, shape, device=None, dtype=None):
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        self._data = _creation.empty(*shape, dtype=dtype or self.dtype)._data
        self.__class__ = self.cls_to_become

    def __repr__(self):
        return "<UninitializedParameter>"

    __str__ = __repr__


class UninitializedBuffer(UninitializedParameter):
    __slots__ = ()

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        return UninitializedParameter.__new__(cls, requires_grad, device, dtype)

    def __repr__(self):
        return "<UninitializedBuffer>"

    __str__ = __repr__


class LazyLinear(Linear):
    """``Linear`` with ``in_features`` inferred from the first input's last dim."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = UninitializedParameter(dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self._lazy_hook = self.register_forward_pre_hook(LazyLinear._infer_parameters)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def has_uninitialized_params(self):
        return any(isinstance(p, UninitializedParameter) for p in self.parameters())

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            from ...autograd import no_grad
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()

    @staticmethod
    def _infer_parameters(module, args):
        module.initialize_parameters(*args)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
        module._lazy_hook.remove()
        del module._lazy_hook
        module.__class__ = module.cls_to_become
