"""``torch.memory_format``: the layouts a tensor's strides can be asked for by name (and
``torch.layout``, the storage kinds: ``torch.strided`` only, here).

``contiguous_format`` is row-major; ``channels_last`` (4-d) and ``channels_last_3d`` (5-d)
put the channel dim fastest (NHWC / NDHWC in memory, NCHW in shape); ``preserve_format``
keeps the input's layout (``empty_like``'s rule, Note [Result layout] in _ops/layout.py).
"""


class _Named:
    """PyTorch's named singletons (``torch.channels_last``, ``torch.strided``): printed and
    pickled by name, not constructible."""
    __slots__ = ("_name",)

    def __new__(cls, *args, **kwargs):
        raise TypeError(f"cannot create 'torch.{cls.__name__}' instances")

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        return self._name  # (pickled by name: the module's singleton)


class memory_format(_Named):
    """One of the four PyTorch memory formats."""
    __slots__ = ()


class layout(_Named):
    """How a tensor's elements are stored: ``torch.strided`` for every autotensor tensor; the
    sparse layouts exist as names (autotensor has no sparse tensors)."""
    __slots__ = ()


def _make(cls, name):
    obj = object.__new__(cls)
    obj._name = name
    return obj


contiguous_format = _make(memory_format, "contiguous_format")
preserve_format = _make(memory_format, "preserve_format")
channels_last = _make(memory_format, "channels_last")
channels_last_3d = _make(memory_format, "channels_last_3d")

strided = _make(layout, "strided")
sparse_coo = _make(layout, "sparse_coo")
sparse_csr = _make(layout, "sparse_csr")
sparse_csc = _make(layout, "sparse_csc")
sparse_bsr = _make(layout, "sparse_bsr")
sparse_bsc = _make(layout, "sparse_bsc")
jagged = _make(layout, "jagged")

_RANK = {channels_last: 4, channels_last_3d: 5}


def _check(fmt, fn):
    if fmt.__class__ is not memory_format:
        raise TypeError(f"{fn}(): argument 'memory_format' must be torch.memory_format, not "
                        f"{type(fmt).__name__}")


def _channels_last_order(ndim):
    """Dims fastest first: channels, then the spatial dims from the last, then the batch."""
    return (1,) + tuple(range(ndim - 1, 1, -1)) + (0,)


def strides(fmt, shape):
    """Element strides of a fresh tensor of ``shape`` in ``fmt`` (None: row-major), with
    PyTorch's rank error for the channels-last formats."""
    rank = _RANK.get(fmt)
    if rank is None:
        return None
    if len(shape) != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt._name} format")
    st = [0] * rank
    s = 1
    for d in _channels_last_order(rank):
        st[d] = s
        s *= shape[d]
    return tuple(st)


def is_contiguous(shape, st, fmt):
    """``Tensor.is_contiguous(memory_format=fmt)`` for element strides ``st`` (size-1 dims
    ignored; empty tensors contiguous in row-major order only: c10's channels-last test
    has no case of its own for them)."""
    rank = _RANK.get(fmt)
    if rank is None:
        from ._ops.layout import is_contiguous as row_major
        return row_major(shape, st)
    if len(shape) != rank:
        return False
    expected = 1
    for d in _channels_last_order(rank):
        if shape[d] != 1:
            if st[d] != expected:
                return False
            expected *= shape[d]
    return True


def suggested(shape, st):
    """``suggest_memory_format()``: channels-last when the strides are ordered like it."""
    from ._ops.layout import _strides_like_channels_last
    if len(shape) in (4, 5) and _strides_like_channels_last(shape, st):
        return channels_last if len(shape) == 4 else channels_last_3d
    return contiguous_format
