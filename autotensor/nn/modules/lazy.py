"""Lazy modules: parameters whose shape is inferred from the first input
(``UninitializedParameter``; ``LazyLinear`` becomes a ``Linear`` after its first call, as
PyTorch's LazyModuleMixin makes it)."""
from ... import _creation
from ..._tensor import Tensor
from ..parameter import Parameter
from ... import int64
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d, _NormBase
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Linear
from .module import Module

__all__ = ["LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
           "LazyConvTranspose2d", "LazyConvTranspose3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
           "LazyBatchNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d",
           "LazyInstanceNorm3d", "LazyModuleMixin", "UninitializedParameter",
           "UninitializedBuffer"]


class _UninitializedMixin:
    """A tensor without data yet; ``materialize(shape)`` gives it an (empty) array and
    turns it into ``cls_to_become``."""

    __slots__ = ()

    def materialize(self, shape, device=None, dtype=None):
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        self._data = _creation.empty(tuple(shape), dtype=dtype or self.dtype)._data
        self.__class__ = self.cls_to_become

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __str__ = __repr__


class UninitializedParameter(_UninitializedMixin, Parameter):
    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        p = Parameter.__new__(cls, _creation.empty(0, dtype=dtype), requires_grad)
        return p


class UninitializedBuffer(_UninitializedMixin, Tensor):
    __slots__ = ()
    cls_to_become = Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        t = _creation.empty(0, dtype=dtype)
        t.__class__ = cls
        if requires_grad:
            t.requires_grad_(True)
        return t


class LazyModuleMixin:
    """Parameters inferred from the first input: a forward pre-hook calls
    ``initialize_parameters(input)``, removes itself and turns the module into
    ``cls_to_become`` (PyTorch's LazyModuleMixin). The state dict holds the uninitialized
    tensors themselves, and loading a state dict materializes them to the loaded shapes."""

    cls_to_become = None

    def _lazy_setup(self):
        self._lazy_hook = self.register_forward_pre_hook(LazyModuleMixin._infer_parameters)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                lazy = isinstance(param, _UninitializedMixin)
                destination[prefix + name] = param if lazy or keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                lazy = isinstance(buf, _UninitializedMixin)
                destination[prefix + name] = buf if lazy or keep_vars else buf.detach()

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys,
                        unexpected_keys, error_msgs):
        for name, param in (*self._parameters.items(), *self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None:
                value = state_dict[key]
                if isinstance(param, _UninitializedMixin) and \
                        not isinstance(value, _UninitializedMixin):
                    param.materialize(value.shape)

    def has_uninitialized_params(self):
        return any(isinstance(t, _UninitializedMixin) for t in
                   (*self._parameters.values(), *self._buffers.values()))

    @staticmethod
    def _infer_parameters(module, args):
        module.initialize_parameters(*args)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
        module._lazy_hook.remove()
        module._load_hook.remove()
        del module._lazy_hook, module._load_hook
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become


class LazyLinear(LazyModuleMixin, Linear):
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
        self._lazy_setup()

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            from ...autograd import no_grad
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:                 # parameters loaded from a state dict
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} "
                                     f"is not equal to in_features from self.weight: "
                                     f"{self.weight.shape[-1]}")
            self.in_features = input.shape[-1]


class _LazyConvXdMixin(LazyModuleMixin):
    """Conv layers with ``in_channels`` inferred from the first input (dim 1, or 0 when
    unbatched); built as an empty convolution so that construction draws nothing."""

    def _lazy_init(self, out_channels, bias, dtype):
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)
        self._lazy_setup()

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if self.has_uninitialized_params():
            from ...autograd import no_grad
            n = len(self.kernel_size)
            if input.dim() not in (n + 1, n + 2):
                raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) "
                                   f"input to {self.__class__.__name__}, but got input of "
                                   f"size: {list(input.shape)}")
            with no_grad():
                self.in_channels = input.shape[1] if input.dim() == n + 2 else input.shape[0]
                if self.in_channels % self.groups != 0:
                    raise ValueError("in_channels must be divisible by groups")
                if self.transposed:
                    shape = (self.in_channels, self.out_channels // self.groups)
                else:
                    shape = (self.out_channels, self.in_channels // self.groups)
                self.weight.materialize(shape + tuple(self.kernel_size))
                if self.bias is not None:
                    self.bias.materialize((self.out_channels,))
                self.reset_parameters()


def _lazy_conv(base, name):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        base.__init__(self, 0, 0, kernel_size, stride, padding, dilation, groups, False,
                      padding_mode, device, dtype)
        self._lazy_init(out_channels, bias, dtype)
    return type(name, (_LazyConvXdMixin, base), {"__init__": __init__, "cls_to_become": base,
                                                 "__module__": __name__})


def _lazy_conv_transpose(base, name):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
                 groups=1, bias=True, dilation=1, padding_mode="zeros", device=None,
                 dtype=None):
        base.__init__(self, 0, 0, kernel_size, stride, padding, output_padding, groups, False,
                      dilation, padding_mode, device, dtype)
        self._lazy_init(out_channels, bias, dtype)
    return type(name, (_LazyConvXdMixin, base), {"__init__": __init__, "cls_to_become": base,
                                                 "__module__": __name__})


LazyConv1d = _lazy_conv(Conv1d, "LazyConv1d")
LazyConv2d = _lazy_conv(Conv2d, "LazyConv2d")
LazyConv3d = _lazy_conv(Conv3d, "LazyConv3d")
LazyConvTranspose1d = _lazy_conv_transpose(ConvTranspose1d, "LazyConvTranspose1d")
LazyConvTranspose2d = _lazy_conv_transpose(ConvTranspose2d, "LazyConvTranspose2d")
LazyConvTranspose3d = _lazy_conv_transpose(ConvTranspose3d, "LazyConvTranspose3d")


class _LazyNormBase(LazyModuleMixin, _NormBase):
    """Batch/instance norm with ``num_features`` inferred from the first input's dim 1: built
    with nothing to allocate (PyTorch passes affine=False, track_running_stats=False to the
    base), then uninitialized weight/bias and running-stat buffers."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        _NormBase.__init__(self, 0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = UninitializedParameter(dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(dtype=dtype)
        if self.track_running_stats:
            self.running_mean = UninitializedBuffer(dtype=dtype)
            self.running_var = UninitializedBuffer(dtype=dtype)
            self.num_batches_tracked = _creation.tensor(0, dtype=int64)
        self._lazy_setup()

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            if self.affine:
                self.weight.materialize((self.num_features,))
                if self.bias is not None:
                    self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self.reset_parameters()


def _lazy_norm(base, name):
    # PyTorch's lazy instance norms take _LazyNormBase's defaults (affine and
    # track_running_stats True), unlike InstanceNorm*.
    return type(name, (_LazyNormBase, base), {"cls_to_become": base, "__module__": __name__})


LazyBatchNorm1d = _lazy_norm(BatchNorm1d, "LazyBatchNorm1d")
LazyBatchNorm2d = _lazy_norm(BatchNorm2d, "LazyBatchNorm2d")
LazyBatchNorm3d = _lazy_norm(BatchNorm3d, "LazyBatchNorm3d")
LazyInstanceNorm1d = _lazy_norm(InstanceNorm1d, "LazyInstanceNorm1d")
LazyInstanceNorm2d = _lazy_norm(InstanceNorm2d, "LazyInstanceNorm2d")
LazyInstanceNorm3d = _lazy_norm(InstanceNorm3d, "LazyInstanceNorm3d")
