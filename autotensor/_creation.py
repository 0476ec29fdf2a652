"""Creating tensors: from data, filled, ranges, random (our own reproducible streams)."""
import builtins
import math
import warnings
from operator import index as _index

from . import _convert, _devices, _dtypes, _memory_format, _random
from ._backend import np
from ._tensor import Tensor, _make

_py_bool, _py_int, _py_float, _py_complex = builtins.bool, builtins.int, builtins.float, \
    builtins.complex


def _finish(arr, dtype, requires_grad):
    if dtype is not None and arr.dtype != dtype.np:
        arr = _convert.cast(arr, dtype)
    t = _make(arr)
    if requires_grad:
        if arr.dtype.kind not in "fc" and not _dtypes.from_numpy(arr.dtype).is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        t._requires_grad = True
    return t


def _infer_array(data, dtype=None):
    """The array of ``dtype`` (None: PyTorch's inference) for ``data``, converted straight
    to that dtype (Note [Python data to a tensor] in _convert.py). May alias ``data``."""
    if isinstance(data, Tensor):
        arr = data._data
    elif isinstance(data, np.ndarray):
        _dtypes.from_numpy(data.dtype)  # PyTorch's error for unsupported NumPy dtypes
        arr = data
    elif isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    elif not isinstance(data, (list, tuple, np.generic)) and hasattr(data, "__array__"):
        arr = np.asarray(data)
    else:
        return _convert.data_array(data, dtype, Tensor)
    return arr if dtype is None else _convert.cast(arr, dtype)


def _is_python_data(data):
    return isinstance(data, (list, tuple, np.generic)) or not hasattr(data, "__array__")


def warn_copy_construct(call):
    """tensor_new.cpp's TORCH_WARN for a tensor copied by ``call`` (Note [Warning
    locations])."""
    from . import _warn
    _warn.cpp("To copy construct from a tensor, it is recommended to use "
              "sourceTensor.detach().clone() or "
              f"sourceTensor.detach().clone().requires_grad_(True), rather than {call}.")


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of ``data`` (nested lists, numbers, arrays, tensors)."""
    _devices.check(device)
    if isinstance(data, Tensor):
        warn_copy_construct("torch.tensor(sourceTensor)")
    return _tensor(data, dtype, requires_grad)


def _tensor(data, dtype, requires_grad):
    """torch.tensor's copy, without its warning (new_tensor words its own)."""
    if isinstance(data, np.ndarray):
        _check_numpy_strides(data)
    arr = _infer_array(data, dtype)
    if not _is_python_data(data) and np.may_share_memory(
            arr, data._data if isinstance(data, Tensor) else np.asarray(data)):
        arr = arr.copy()
    if isinstance(data, np.ndarray) and arr.ndim > 1:
        arr = _laid_like_array(data, arr)  # (tensor_from_numpy(data).to(..., copy=True))
    t = _finish(arr, None, requires_grad)
    if isinstance(data, np.ndarray) and not arr.size:
        _numpy_strides(t)
    return t


def _numpy_strides(t):
    """An empty tensor made from a NumPy array keeps the array's strides (NumPy 2 zeroes an
    empty array's), as tensor_from_numpy does; others show contiguous ones (Tensor.stride).
    All-zero ones are laid out as ``empty_strided`` lays them out (read as real by every
    layout rule: clone, empty_like and to keep them, as aten's for an empty tensor, which
    is non-overlapping and dense whatever its strides; Note [Empty strides])."""
    d = t._data
    if d.ndim and not any(d.strides):
        from ._ops.layout import empty_strided
        t._data = empty_strided(d.shape, (0,) * d.ndim, d.dtype)
    if t._meta is None:
        t._meta = {}
    t._meta["numpy_strides"] = True
    return t


def _check_numpy_strides(a):
    """tensor_from_numpy refuses negative strides (a view of a reversed array)."""
    if any(s < 0 for s in a.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and "
                         "tensors with negative strides are not currently supported. (You can "
                         "probably work around this by making a copy of your array  with "
                         "array.copy().) ")


def as_tensor(data, dtype=None, device=None):
    _devices.check(device)
    if isinstance(data, Tensor):
        return data if dtype is None or data.dtype is dtype else data.to(dtype)
    if isinstance(data, np.ndarray):
        _check_numpy_strides(data)
    t = _finish(_infer_array(data, dtype), None, False)
    if isinstance(data, np.ndarray) and not data.size:
        _numpy_strides(t)
    return t


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    _devices.check(device)
    t = as_tensor(obj, dtype)
    if copy:
        t = _make(t._data.copy())
    if requires_grad:
        t.requires_grad_()
    return t


def from_numpy(ndarray):
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    _dtypes.from_numpy(ndarray.dtype)
    _check_numpy_strides(ndarray)
    return _make(ndarray) if ndarray.size else _numpy_strides(_make(ndarray))


_WARNED_READ_ONLY = []


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-d tensor over a Python buffer's bytes (shared with a writable buffer; a read-only
    one is copied, after PyTorch's warning, rather than written through)."""
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    length, item = view.nbytes, dtype.itemsize
    if length == 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if offset < 0 or offset >= length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({length} bytes) minus 1")
    if count < 0:
        if (length - offset) % item:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} "
                             f"bytes) must be a multiple of element size ({item})")
        count = (length - offset) // item
    elif offset + count * item > length:
        raise ValueError(f"requested buffer length ({count} * {item} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({length} bytes)")
    arr = np.frombuffer(view.cast("B"), dtype=dtype.np, count=count, offset=offset)
    if not arr.flags.writeable:
        if not _WARNED_READ_ONLY:
            _WARNED_READ_ONLY.append(True)
            warnings.warn("The given buffer is not writable, and PyTorch does not support "
                          "non-writable tensors. This means you can write to the underlying "
                          "(supposedly non-writable) buffer using the tensor. You may want to "
                          "copy the buffer to protect its data or make it writable before "
                          "converting it to a tensor. This type of warning will be suppressed "
                          "for the rest of this program.", UserWarning, stacklevel=2)
        arr = arr.copy()
    return _finish(arr, None, requires_grad)


def from_dlpack(ext_tensor):
    """A tensor sharing memory with any DLPack exporter (a NumPy array, a torch tensor)."""
    if isinstance(ext_tensor, Tensor):
        return ext_tensor
    arr = np.from_dlpack(ext_tensor)
    _dtypes.from_numpy(arr.dtype)
    return _make(arr)


def _ints(*values):
    """A factory's int arguments: a float or bool refused (PyTorch's parser's refusal, which
    the argument guard words: Note [Argument errors on the exception path] in
    _argparse.py)."""
    for v in values:
        if v.__class__ is not _py_int and (v.__class__ is bool or v.__class__ is np.bool_ or
                                          _index(v) is None):
            raise TypeError("an int argument must be an int")


def _size(size, name=None):
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        size = size[0]
    if size and size[0].__class__ is bool:  # (a bool is an int but as the first element)
        raise TypeError("empty(): argument 'size' must be tuple of ints")
    out = []
    for s in size:
        if isinstance(s, Tensor):
            s = s.item()
        if not isinstance(s, (_py_int, np.integer)):
            raise TypeError(f"empty(): argument 'size' must be tuple of ints, but found "
                            f"element of type {type(s).__name__}")
        if s < 0:
            if name is not None:
                raise RuntimeError(f"{name}: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"[{', '.join(str(x) for x in size)}]")
        out.append(_py_int(s))
    return tuple(out)


def _float_dtype(dtype):
    return (dtype or _dtypes.default_float).np


def _size_kw(sizes, size):
    """A factory's size given as ``size=``; none at all (``torch.zeros()``, a 0-d tensor is
    ``zeros(())``) is the parser's refusal, which the argument guard words (Note [Argument
    errors on the exception path] in _argparse.py)."""
    if sizes or size is None:
        raise TypeError("missing or repeated size")
    return (size,)


def zeros(*sizes, size=None, dtype=None, device=None, requires_grad=False, layout=None):
    if not sizes or size is not None:
        sizes = _size_kw(sizes, size)
    _devices.check(device)
    return _finish(np.zeros(_size(sizes, "zeros"), dtype=_float_dtype(dtype)), None,
                   requires_grad)


def ones(*sizes, size=None, dtype=None, device=None, requires_grad=False, layout=None):
    if not sizes or size is not None:
        sizes = _size_kw(sizes, size)
    _devices.check(device)
    return _finish(np.ones(_size(sizes), dtype=_float_dtype(dtype)), None, requires_grad)


def empty(*sizes, size=None, dtype=None, device=None, requires_grad=False, memory_format=None,
          layout=None, pin_memory=False):
    if not sizes or size is not None:
        sizes = _size_kw(sizes, size)
    _devices.check(device)
    out = np.zeros(_size(sizes), dtype=_float_dtype(dtype))
    if memory_format is not None:
        out = _in_format(out, memory_format, "empty")
    return _finish(out, None, requires_grad)


def empty_permuted(size, physical_layout, *, dtype=None, device=None, requires_grad=False,
                   layout=None, pin_memory=False):
    """An uninitialised tensor of ``size`` whose memory runs in ``physical_layout``'s dim
    order (the last dim there fastest)."""
    _devices.check(device)
    size, perm = tuple(_size((size,))), tuple(int(p) for p in physical_layout)
    if len(size) != len(perm):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the "
                           f"physical_layout; i.e. len(size) = {len(size)} is not equal to "
                           f"len(physical_layout) = {len(perm)}")
    if sorted(perm) != list(range(len(perm))):
        raise RuntimeError("Duplicate dim not allowed")
    out = np.zeros(tuple(size[p] for p in perm), dtype=_float_dtype(dtype))
    return _finish(np.transpose(out, np.argsort(perm)), None, requires_grad)


def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False):
    """A 0-d tensor of ``s`` in the default dtype (not the inferred one) unless ``dtype``."""
    return full((), s, dtype=dtype or _dtypes.get_default_dtype(), device=device,
                requires_grad=requires_grad)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False):
    return empty(0, dtype=dtype, device=device).new_empty_strided(
        size, stride, requires_grad=requires_grad)


def _fill_array(shape, fill_value, dtype):
    """``np.full`` with PyTorch's Scalar conversion of ``fill_value`` (its dtype inferred like a
    Python scalar's when ``dtype`` is None)."""
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    if dtype is None:
        dtype = _dtypes._wrapped_dtype(fill_value)
        if dtype is _dtypes.uint64:  # (full's dtype for any int is int64)
            dtype = _dtypes.int64
        if dtype is None:
            raise TypeError(f"full(): argument 'fill_value' must be Number, not "
                            f"{type(fill_value).__name__}")
    value = _convert.scalar_array(fill_value, dtype, single=_prod(shape) == 1)
    return np.full(shape, value, dtype=value.dtype)


def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    _devices.check(device)
    return _finish(_fill_array(_size((size,)), fill_value, dtype), None, requires_grad)


def _like(t, dtype):
    return (dtype or t.dtype).np


def _laid_like(input, arr, memory_format=None, fn="empty_like"):
    """A ``*_like`` factory's array in ``empty_like``'s preserve_format layout (Note [Result
    layout] in _ops/layout.py), or in the ``memory_format`` named."""
    if memory_format is not None and memory_format is not _memory_format.preserve_format:
        return _in_format(arr, memory_format, fn)
    return _laid_like_array(input._data, arr)


def _in_format(arr, memory_format, fn):
    """``arr`` laid out in a named memory format (``empty`` has no preserve_format)."""
    from ._ops.layout import with_strides
    _memory_format._check(memory_format, fn)
    if fn == "empty" and memory_format is _memory_format.preserve_format:
        raise RuntimeError("unsupported memory format Preserve")
    return with_strides(arr, _memory_format.strides(memory_format, arr.shape))


def _laid_like_array(a, arr):
    from ._ops.layout import like_strides, with_strides
    return with_strides(arr, like_strides(a))


def zeros_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    if device is not None:
        _devices.check(device)
    return _finish(_laid_like(input, np.zeros(input._data.shape, _like(input, dtype)),
                              memory_format, "zeros_like"), None,
                   requires_grad)


def ones_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    if device is not None:
        _devices.check(device)
    return _finish(_laid_like(input, np.ones(input._data.shape, _like(input, dtype)),
                              memory_format, "ones_like"), None,
                   requires_grad)


def empty_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    if device is not None:
        _devices.check(device)
    return _finish(_laid_like(input, np.zeros(input._data.shape, _like(input, dtype)),
                              memory_format), None,
                   requires_grad)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False,
              memory_format=None):
    if device is not None:
        _devices.check(device)
    return _finish(_laid_like(input, _fill_array(input._data.shape, fill_value,
                                                 dtype or input.dtype), memory_format,
                              "full_like"),
                   None, requires_grad)


_NO_END = object()  # (arange's end not given: an explicit None is refused)


def arange(start, end=_NO_END, step=1, *, dtype=None, device=None, requires_grad=False):
    _devices.check(device)
    if end is _NO_END:
        start, end = 0, start
    elif end is None:  # (Note [Argument errors on the exception path] in _argparse.py)
        raise TypeError("arange(): end None")
    vals = [x.item() if isinstance(x, Tensor) else x for x in (start, end, step)]
    start, end, step = vals
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) / step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        is_int = all(isinstance(x, (_py_int, np.integer)) for x in vals)
        dtype = _dtypes.int64 if is_int else _dtypes.default_float
    n = _py_int(np.ceil((end - start) / step))
    if dtype.np in (np.float32, np.float64):
        return _finish(_arange_float(float(start), float(step), n, dtype.np), None,
                       requires_grad)
    arr = (start + np.arange(n, dtype=np.float64) * step) if dtype.is_floating_point or \
        not all(isinstance(x, (_py_int, np.integer)) for x in vals) else \
        np.arange(start, end, step, dtype=np.int64)
    return _finish(np.asarray(arr).astype(dtype.np), None, requires_grad)


def _errors_num(v):
    """A C++ double as ostream prints it (0, 2.5, inf)."""
    return f"{v:g}" if isinstance(v, float) else str(v)


def range_(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """The deprecated torch.range: [start, end] with the end included, in the default
    float dtype unless told; aten's range_out computes ``start + i * step`` in the
    accumulate type (double for floating types, int64 for integers), unfused."""
    from . import _warn
    _devices.check(device)
    _warn.cpp("torch.range is deprecated and will be removed in a future release because its "
              "behavior is inconsistent with Python's range builtin. Instead, use "
              "torch.arange, which produces values in [start, end).")
    if end is None:
        raise TypeError("range() missing 1 required positional arguments: \"end\"")
    dtype = _dtypes.default_float if dtype is None else dtype
    vals = [x.item() if isinstance(x, Tensor) else x for x in (start, end, step)]
    if dtype.is_floating_point:
        start, end, step = (float(v) for v in vals)
    else:
        start, end, step = (_py_int(v) for v in vals)
    if not (step > 0 or step < 0):
        raise RuntimeError("step must be nonzero")
    if not (np.isfinite(float(start)) and np.isfinite(float(end))):
        raise RuntimeError(f"unsupported range: {_errors_num(start)} -> {_errors_num(end)}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = _py_int((end - start) / step + 1) if dtype.is_floating_point else \
        (end - start) // step + 1
    if dtype.is_floating_point:
        arr = start + np.arange(n, dtype=np.float64) * step
    else:
        arr = start + np.arange(n, dtype=np.int64) * step
    return _finish(arr.astype(dtype.np), None, requires_grad)


def _arange_float(start, step, n, dt):
    """aten's arange kernel for float/double: in double (float's accumulate type), the
    scalar loop ``fma(step, i, start)``; the vectorized loop (two 256-bit vectors at a time:
    8 floats or 4 doubles each) ``fma(k, step, base)`` from each vector's ``base = fma(step,
    i0, start)`` in the dtype; the rest of the elements by the scalar loop. (Above aten's
    grain size, 32768, its threads split the range where PyTorch's thread count says: not
    emulated, an ulp apart at worst.)"""
    fma = _random._fma64
    lanes = 8 if dt == np.float32 else 4
    nvec = n // (2 * lanes) * (2 * lanes)
    out = np.empty(n, np.float64)
    if nvec:
        base = fma(step, np.arange(0, nvec, lanes, dtype=np.float64), start)
        base = base.astype(dt).astype(np.float64)
        k = np.arange(lanes, dtype=np.float64)
        out[:nvec] = fma(k[None, :], step, base[:, None]).ravel()
    out[nvec:] = fma(step, np.arange(nvec, n, dtype=np.float64), start)
    return out.astype(dt)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    _devices.check(device)
    _ints(steps)
    for value, name in ((start, "start"), (end, "end")):
        if isinstance(value, Tensor):
            if value._data.ndim:
                raise RuntimeError(f"linspace only supports 0-dimensional start and end "
                                   f"tensors, but got {name} with {value._data.ndim} "
                                   f"dimension(s).")
        elif not isinstance(value, (_py_int, float, complex, np.number, np.bool_)):
            raise TypeError(f"linspace(): argument '{name}' must be a Number or a Tensor")
    dtype = dtype or _dtypes.default_float
    # PyTorch computes the two halves from each end (symmetric rounding)
    steps = _py_int(steps)
    if dtype.np in (np.float32, np.float64) and steps > 1:
        return _finish(_linspace_float(start, end, steps, dtype.np), None, requires_grad)
    if steps == 1:
        arr = np.array([start], dtype=np.float64)
    else:
        step = (end - start) / (steps - 1)
        i = np.arange(steps, dtype=np.float64)
        half = steps // 2
        arr = np.where(i < half, start + step * i, end - step * (steps - 1 - i))
    return _finish(arr.astype(dtype.np), None, requires_grad)


def _linspace_float(start, end, steps, dt):
    """aten's linspace kernel for float/double: the step in the dtype, then each element one
    fused multiply-add from the nearer end (``start + step * i`` for the first half, ``end -
    step * (steps - 1 - i)`` for the rest; the compiler contracts them to FMAs)."""
    lo, hi = dt.type(start), dt.type(end)
    step = (hi - lo) / dt.type(steps - 1)
    half = steps // 2
    i = np.arange(steps, dtype=np.float64)
    fma = _random._fma32 if dt == np.float32 else _random._fma64
    first = fma(np.full(half, step, dt), i[:half], np.full(half, lo, dt))
    rest = fma(np.full(steps - half, -step, dt), (steps - 1) - i[half:],
               np.full(steps - half, hi, dt))
    return np.concatenate([first, rest]).astype(dt, copy=False)


def logspace(start, end, steps, base=10.0, *, dtype=None, requires_grad=False):
    dt = (dtype or _dtypes.default_float).np
    steps = _py_int(steps)
    if dt in (np.float32, np.float64) and steps > 1:
        return _finish(_logspace_float(start, end, steps, float(base), dt), None,
                       requires_grad)
    lin = linspace(start, end, steps, dtype=_dtypes.float64)._data
    return _finish((base ** lin).astype(dt), None, requires_grad)


def _logspace_float(start, end, steps, base, dt):
    """aten's logspace_out: a double step from the ends in the dtype, each exponent in double
    (the count from the end, ``steps - i - 1``, in the dtype), C's pow."""
    S = dt.type
    lo, hi = S(start), S(end)
    step = float(hi - lo) / (steps - 1)
    half = steps // 2
    out = np.empty(steps, dt)
    for i in range(steps):
        if i < half:
            e = float(lo) + step * float(S(i))
        else:
            e = float(hi) - step * float(S(S(steps) - S(i)) - S(1))
        try:
            out[i] = math.pow(base, e)
        except OverflowError:
            out[i] = math.inf
        except ValueError:
            out[i] = math.nan
    return out


def eye(n, m=_NO_END, *, dtype=None, device=None, requires_grad=False):
    if m is _NO_END:  # (an explicit None is refused: eye(int n, int m))
        m = None
        _ints(n)
    else:
        _ints(n, m)
    _devices.check(device)
    return _finish(np.eye(n, m, dtype=_float_dtype(dtype)), None, requires_grad)


# ---- random -------------------------------------------------------------------------------
class Generator(_random.Generator):
    """``torch.Generator``: PyTorch's streams (``_random.py``); states travel as uint8
    tensors, as in PyTorch."""

    def get_state(self):
        return _make(_random.Generator.get_state(self))

    def set_state(self, new_state):
        data = new_state._data if isinstance(new_state, Tensor) else new_state
        return _random.Generator.set_state(self, data)


_random.default_generator.__class__ = Generator  # the default one is a torch.Generator too
default_generator = _random.default_generator
manual_seed = _random.manual_seed
seed = _random.seed
initial_seed = _random.initial_seed


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(new_state):
    data = new_state._data if isinstance(new_state, Tensor) else new_state
    _random.set_rng_state(np.asarray(data, dtype=np.uint8))


def rand(*sizes, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    if not sizes or size is not None:
        sizes = _size_kw(sizes, size)
    _devices.check(device)
    arr = _random.rand(_size(sizes), _float_dtype(dtype), generator)
    return _finish(arr, None, requires_grad)


def randn(*sizes, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    if not sizes or size is not None:
        sizes = _size_kw(sizes, size)
    _devices.check(device)
    arr = _random.randn(_size(sizes), _float_dtype(dtype), generator)
    return _finish(arr, None, requires_grad)


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False):
    _devices.check(device)
    if size is None and isinstance(high, (tuple, list)):  # randint(high, size)
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint() missing required argument 'size'")
    _ints(low, high)
    arr = _random.randint(low, high, _size((size,)), (dtype or _dtypes.int64).np, generator)
    return _finish(arr, None, requires_grad)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    _devices.check(device)
    arr = _random.randperm(n, (dtype or _dtypes.int64).np, generator)
    return _finish(arr, None, requires_grad)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None,
           requires_grad=False):
    _devices.check(device)
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        m = mean._data if isinstance(mean, Tensor) else np.asarray(mean)
        s = std._data if isinstance(std, Tensor) else np.asarray(std)
        shape = np.broadcast_shapes(m.shape, s.shape)
        like = mean if isinstance(mean, Tensor) else std
        z = _random.randn(shape, like._data.dtype, generator)
        return _finish((z * s + m).astype(like._data.dtype), None, requires_grad)
    arr = _random.normal(mean, std, _size((size,)), _float_dtype(dtype), generator)
    return _finish(arr, None, requires_grad)


def _random_like(input, draw, requires_grad=False, memory_format=None):
    """``empty_like(input, memory_format=...).<fill>_()``: empty_like's layout, the values
    drawn along its memory order (``draw(shape, contiguous)``: the fill for that order)."""
    from ._ops import layout
    shape = input._data.shape
    if memory_format is not None and memory_format is not _memory_format.preserve_format:
        _memory_format._check(memory_format, "empty_like")
        st = _memory_format.strides(memory_format, shape)
    else:
        st = layout.like_strides(input._data)
    if st is None:
        return _finish(draw(shape, True), None, requires_grad)
    arr = _random.in_memory_order(lambda sh: draw(sh, layout.is_contiguous(shape, st)),
                                  shape, st)
    return _finish(layout.with_strides(arr, st), None, requires_grad)


def rand_like(input, *, dtype=None, generator=None, requires_grad=False, device=None,
              memory_format=None):
    if device is not None:
        _devices.check(device)
    dt = _float_dtype(dtype or input.dtype)
    return _random_like(input, lambda shape, c: _random.rand(shape, dt, generator),
                        requires_grad, memory_format)


def randn_like(input, *, dtype=None, generator=None, requires_grad=False, device=None,
               memory_format=None):
    if device is not None:
        _devices.check(device)
    dt = _float_dtype(dtype or input.dtype)
    return _random_like(input, lambda shape, c: _random.randn(shape, dt, generator, c),
                        requires_grad, memory_format)


def randint_like(input, low=0, high=None, *, dtype=None, generator=None,
                 memory_format=None):
    if high is None:
        low, high = 0, low
    dt = (dtype or input.dtype).np
    return _random_like(input, lambda shape, c: _random.randint(low, high, shape, dt,
                                                                generator),
                        memory_format=memory_format)


def bernoulli(input, p=None, *, generator=None):
    probs = input._data if p is None else np.full(input._data.shape, p)
    out = _random.bernoulli(probs, input._data.shape, input._data.dtype, generator)
    if p is not None:
        return _make(out)
    from ._ops import _common, pointwise
    return _common._finish(pointwise.BERNOULLI, (input,), (), out)


def poisson(input, generator=None):
    """Samples of Poisson distributions of rates ``input`` (PoissonBackward0: zero gradient)."""
    from ._ops import _common, pointwise
    return _common._finish(pointwise.POISSON, (input,), (), _random.poisson(input._data,
                                                                              generator))


def _standard_gamma(input, generator=None):
    """Samples of Gamma(input, 1) (StandardGammaBackward0: the reparametrised gradient)."""
    from ._ops import _common, pointwise
    return _common._finish(pointwise.STANDARD_GAMMA, (input,), (),
                           _random.standard_gamma(input._data, generator))


def _standard_gamma_grad(input, output):
    """d sample / d alpha of Gamma(alpha) samples, at fixed noise."""
    from ._ops import _common, pointwise
    return _common._finish(pointwise.STANDARD_GAMMA_GRAD, (input, output), (),
                           _random.standard_gamma_grad(input._data, output._data))


def binomial(count, prob, generator=None):
    """Binomial(count, prob) samples (aten's BTRS / inversion, drawn as PyTorch's)."""
    from ._ops import _common, pointwise
    return _common._finish(pointwise.BINOMIAL, (count, prob), (),
                           _random.binomial(count._data, prob._data, generator))


def _dirichlet_grad(x, alpha, total):
    """The reparametrised gradient of Dirichlet samples (through their Beta marginals)."""
    from ._ops import _common, pointwise
    return _common._finish(pointwise.DIRICHLET_GRAD, (x, alpha, total), (),
                           _random.dirichlet_grad(x._data, alpha._data, total._data))


def _sample_dirichlet(input, generator=None):
    """Dirichlet(input) samples over the last dim: Gamma draws in double, normalised, kept
    within [tiny, the largest number below 1] of the dtype (aten's _s_dirichlet_cpu)."""
    dt = input._data.dtype
    gamma = _random.standard_gamma(input._data, generator, as_double=True)
    ratio = (gamma / gamma.sum(-1, keepdims=True)).astype(dt)
    finfo = np.finfo(dt)
    return _make(np.clip(ratio, finfo.tiny, np.nextafter(dt.type(1), dt.type(0))))


def multinomial(input, num_samples, replacement=False, *, generator=None):
    return _make(_random.multinomial(input._data, num_samples, replacement, generator))


def legacy_tensor_data(args, kwargs):
    """``torch.Tensor(data)`` / ``torch.Tensor(2, 3)``: the default float dtype (a tensor
    argument is aliased, whatever its dtype)."""
    dt = _dtypes.default_float
    if len(args) == 1 and not isinstance(args[0], (_py_int, np.integer)):
        data = args[0]
        if isinstance(data, Tensor):
            return data._data
        arr = _infer_array(data, dt)
        return arr.copy() if arr is data else arr
    return np.zeros(_size(args), dtype=dt.np)
