"""The legacy tensor types (``torch.FloatTensor``, ``torch.LongTensor``, ...).

In PyTorch they are not subclasses of Tensor: they are instances of ``torch.tensortype``,
callable as constructors of CPU tensors of one dtype (``torch.FloatTensor([1, 2])``,
``torch.LongTensor(2, 3)``) and matching, in ``isinstance``, the tensors of that dtype.
"""
from . import _dtypes
from ._backend import np

__all__ = ["LEGACY_TYPES", "legacy_dtype"]

_NEW_ERROR = (
    "new() received an invalid combination of arguments - got ({}), but expected one of:\n"
    " * (*, torch.device device = None)\n"
    "      didn't match because some of the keywords were incorrect: {}\n"
    " * (torch.Storage storage)\n"
    " * (Tensor other)\n"
    " * (tuple of ints size, *, torch.device device = None)\n"
    " * (object data, *, torch.device device = None)\n")


class tensortype(type):
    """The metaclass of the legacy types: ``isinstance`` by dtype, calls construct."""

    def __instancecheck__(cls, obj):
        from ._tensor import Tensor
        return isinstance(obj, Tensor) and obj.dtype is cls._legacy_dtype

    def __call__(cls, *args, device=None, **kwargs):
        from . import _devices
        from ._creation import _infer_array, _size
        from ._tensor import Tensor, _make
        if kwargs:
            got = ", ".join([type(a).__name__ for a in args] +
                            [f"{k}={type(v).__module__.replace('autotensor._dtypes', 'torch')}."
                             f"{type(v).__name__}" if isinstance(v, _dtypes.dtype) else
                             f"{k}={type(v).__name__}" for k, v in kwargs.items()])
            raise TypeError(_NEW_ERROR.format(got, ", ".join(kwargs)))
        _devices.check(device)
        dt = cls._legacy_dtype
        if len(args) == 1 and not isinstance(args[0], (int, np.integer)):
            data = args[0]
            if isinstance(data, Tensor):
                if data.dtype is not dt:
                    raise TypeError(
                        f"expected TensorOptions(dtype={_dtypes.cpp_name(dt).split()[-1]}, "
                        "device=cpu, layout=Strided, requires_grad=false (default), "
                        "pinned_memory=false (default), memory_format=(nullopt)) (got "
                        f"TensorOptions(dtype={_dtypes.cpp_name(data.dtype).split()[-1]}, "
                        "device=cpu, layout=Strided, requires_grad=false (default), "
                        "pinned_memory=false (default), memory_format=(nullopt)))")
                return _make(data._data)
            if isinstance(data, (tuple, list)) and data and all(
                    isinstance(x, (int, np.integer)) for x in data) and type(data).__name__ \
                    == "Size":
                return _make(np.zeros(_size(tuple(data)), dtype=dt.np))
            arr = _infer_array(data, dt)  # (straight to dt: Note [Python data to a tensor])
            return _make(arr.copy() if arr is data else arr)
        return _make(np.zeros(_size(args) if args else (0,), dtype=dt.np))

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"

    @property
    def dtype(cls):
        return cls._legacy_dtype

    @property
    def is_cuda(cls):
        return False

    @property
    def is_sparse(cls):
        return False


_NAMES = {"FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16",
          "LongTensor": "int64", "IntTensor": "int32", "ShortTensor": "int16",
          "CharTensor": "int8", "ByteTensor": "uint8", "BoolTensor": "bool"}

LEGACY_TYPES = {name: tensortype(name, (), {"_legacy_dtype": getattr(_dtypes, dt),
                                             "__module__": "torch"})
                for name, dt in _NAMES.items()}


def legacy_dtype(t):
    """The dtype of a legacy type or of its name ('torch.LongTensor')."""
    if isinstance(t, str):
        name = t[len("torch."):] if t.startswith("torch.") else t
        if name not in LEGACY_TYPES:
            raise ValueError(f"invalid type: '{t}'")
        return LEGACY_TYPES[name]._legacy_dtype
    return t._legacy_dtype
