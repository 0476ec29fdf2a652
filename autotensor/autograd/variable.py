"""``autograd.Variable``: the legacy name PyTorch still ships (every tensor is one)."""


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        from .._tensor import Tensor
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False)``: a new leaf sharing ``data``'s memory."""

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        from .._tensor import Tensor, _make
        from .._backend import np
        if data is None:
            return _make(np.zeros((0,), np.float32), requires_grad)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        t = _make(data._data)
        t._vc = data._vc
        if requires_grad:
            t.requires_grad_(True)
        return t
