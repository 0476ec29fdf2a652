"""The autocast region and its casting policy (aten's autocast_mode.cpp, CPU lists).

Ops join a policy with one line at their top::

    if _amp.state.enabled:
        return _amp.lower(mm, input, mat2)

``lower`` casts the floating (non-float64) tensor arguments to the region's dtype, ``fp32`` to
float32, ``promote`` to the widest floating dtype among them; the op then runs with autocast
off (as aten excludes its key inside a wrapped op, so nested ops do not cast again)."""
import functools
import warnings

from .. import _dtypes
from .._tensor import Tensor

__all__ = ["autocast", "is_autocast_available"]


class _State:
    enabled = False        # (the CPU region is on and no wrapped op is running)
    dtype = _dtypes.bfloat16
    cache_enabled = True
    depth = 0              # nesting of autocast regions (the cache dies with the outermost)
    cache = {}             # id(leaf parameter) -> (parameter, its cast)


state = _State()


def is_autocast_available(device_type):
    return device_type == "cpu"


def _eligible(t):
    """aten's is_eligible: a floating tensor other than float64."""
    return isinstance(t, Tensor) and t.dtype.is_floating_point and t.dtype is not _dtypes.float64


def _cast(t, dtype):
    if not _eligible(t) or t.dtype is dtype:
        return t
    # (aten caches only float32 leaf parameters cast to the region's dtype)
    cacheable = state.cache_enabled and dtype is state.dtype and \
        t.dtype is _dtypes.float32 and t.requires_grad and t.is_leaf and t._base is None
    if cacheable:
        hit = state.cache.get(id(t))
        if hit is not None and hit[0] is t and hit[1].dtype is dtype:
            return hit[1]
    out = t.to(dtype)
    if cacheable:
        state.cache[id(t)] = (t, out)
    return out


def _cast_all(values, dtype):
    return [[_cast(v, dtype) for v in x] if isinstance(x, (list, tuple)) else _cast(x, dtype)
            for x in values]


def _run(fn, dtype, args, kwargs):
    args = _cast_all(args, dtype)
    kwargs = dict(zip(kwargs, _cast_all(kwargs.values(), dtype)))
    state.enabled = False
    try:
        return fn(*args, **kwargs)
    finally:
        state.enabled = True


def lower(fn, *args, **kwargs):
    """An op of PyTorch's lower_precision_fp list, in the region's dtype."""
    return _run(fn, state.dtype, args, kwargs)


def fp32(fn, *args, **kwargs):
    """An op of PyTorch's fp32 list (losses, prod, cdist, ...), in float32."""
    return _run(fn, _dtypes.float32, args, kwargs)


def promote(fn, *args, **kwargs):
    """cat / stack / index_copy: the eligible tensors cast to float32 if one of them is
    float32, else to the region's dtype (aten's prioritize; float64 ignored)."""
    flat = [v for x in list(args) + list(kwargs.values())
            for v in (x if isinstance(x, (list, tuple)) else (x,))]
    dtype = _dtypes.float32 if any(_eligible(v) and v.dtype is _dtypes.float32
                                   for v in flat) else state.dtype
    return _run(fn, dtype, args, kwargs)


_SUPPORTED = (_dtypes.bfloat16, _dtypes.float16)


class autocast:
    """``with torch.autocast("cpu"):`` (or as a decorator): the listed ops run in ``dtype``
    (bfloat16 by default). Other device types are not available here: PyTorch's warning, and
    the region does nothing."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = dtype if dtype is not None else _dtypes.bfloat16
        self._enabled = bool(enabled)
        self._cache_enabled = True if cache_enabled is None else bool(cache_enabled)
        if device_type != "cpu":
            if self._enabled and device_type == "cuda":
                warnings.warn("CUDA is not available or torch_xla is imported. Disabling "
                              "autocast.", stacklevel=2)
            elif self._enabled:
                raise RuntimeError(f"User specified an unsupported autocast device_type "
                                   f"'{device_type}'")
            self._enabled = False
        elif self._enabled and self.fast_dtype not in _SUPPORTED:
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling "
                          "autocast.\nCPU Autocast only supports dtype of torch.bfloat16, "
                          "torch.float16 currently.", stacklevel=2)
            self._enabled = False

    def __enter__(self):
        if self.device != "cpu":
            return self
        self._prev = (state.enabled, state.dtype, state.cache_enabled)
        state.enabled, state.dtype = self._enabled, self.fast_dtype
        state.cache_enabled = self._cache_enabled
        state.depth += 1
        return self

    def __exit__(self, *exc):
        if self.device != "cpu":
            return False
        state.depth -= 1
        if state.depth == 0:
            state.cache.clear()
        state.enabled, state.dtype, state.cache_enabled = self._prev
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorated(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorated


def is_autocast_enabled(device_type=None):
    """``torch.is_autocast_enabled()`` asks about CUDA (never here); with ``"cpu"``, about
    the CPU region."""
    return device_type == "cpu" and state.enabled


def get_autocast_dtype(device_type):
    return state.dtype if device_type == "cpu" else _dtypes.float16


def set_autocast_enabled(device_type, enabled=None):
    if enabled is None:  # (the old one-argument form was about CUDA)
        return
    if device_type == "cpu":
        state.enabled = bool(enabled)


def set_autocast_dtype(device_type, dtype):
    if device_type == "cpu":
        state.dtype = dtype


def is_autocast_cache_enabled():
    return state.cache_enabled


def set_autocast_cache_enabled(enabled):
    state.cache_enabled = bool(enabled)


def clear_autocast_cache():
    state.cache.clear()
