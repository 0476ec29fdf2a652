"""``nn.Parameter``: a leaf tensor that requires grad and that Modules register."""
from .._tensor import Tensor, _make


class Parameter(Tensor):
    """A Tensor subclass marking module parameters (requires_grad=True by default)."""

    __slots__ = ()

    def __new__(cls, data=None, requires_grad=True):
        from .. import _creation
        if data is None:
            data = _creation.empty(0)
        t = _make(data._data)
        t.__class__ = cls
        t._vc = data._vc
        root = data._root_array()
        if root is not data._data:  # (the data's storage: storage_offset(), pickling)
            t._meta = {"root": root}
        if requires_grad:
            t.requires_grad_(True)
        return t

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        # (the data pickled as a tensor: its storage, offset and strides, as PyTorch's)
        return (_rebuild_parameter, (self.detach(), self._requires_grad))

    def __deepcopy__(self, memo):
        from .._ops.pointwise import clone
        p = Parameter(clone(self.detach()), self._requires_grad)  # (preserve_format)
        memo[id(self)] = p
        return p


def _rebuild_parameter(data, requires_grad):
    return Parameter(data if isinstance(data, Tensor) else _make(data), requires_grad)


class Buffer(Tensor):
    """Marks a tensor assigned to a Module attribute as a buffer (``persistent`` says
    whether it goes into the state dict)."""

    __slots__ = ("persistent",)

    def __new__(cls, data=None, *, persistent=True):
        from .. import _creation
        if data is None:
            data = _creation.empty(0)
        t = object.__new__(cls)
        t._data = data._data
        t._requires_grad = False
        t._output_nr = 0
        t._grad_fn = t._grad = t._view = t._acc = None
        t._vc = data._vc
        t._meta = None
        if data.requires_grad:
            t.requires_grad_(True)
        t.persistent = persistent
        return t
