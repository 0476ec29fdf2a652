"""``torch.testing.assert_close``: PyTorch's comparison of tensors, NumPy arrays, numbers,
booleans, None and (nested) sequences and mappings of them, with its default tolerances per
dtype and its failure messages, so tests written against PyTorch fail and pass alike."""
import collections.abc
import math

from . import _dtypes
from ._backend import np
from ._tensor import Tensor

__all__ = ["assert_close"]

# (rtol, atol) by dtype; every other dtype compares exactly
_PRECISIONS = {
    _dtypes.float16: (1e-3, 1e-5), _dtypes.bfloat16: (1.6e-2, 1e-5),
    _dtypes.float32: (1.3e-6, 1e-5), _dtypes.float64: (1e-7, 1e-7),
    _dtypes.complex64: (1.3e-6, 1e-5), _dtypes.complex128: (1e-7, 1e-7),
}
_NUMBER_DTYPES = {int: _dtypes.int64, float: _dtypes.float64, complex: _dtypes.complex128}


class _Mismatch(Exception):
    """A failed comparison: the exception type and message PyTorch raises."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind, self.message = kind, message


def _tolerances(*dtypes, rtol, atol):
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got "
                         f"no {'rtol' if rtol is None else 'atol'}.")
    if rtol is not None:
        return rtol, atol
    pairs = [_PRECISIONS.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _mismatch_msg(default_identifier, extra, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol):
    equality = rtol == 0 and atol == 0

    def diff_msg(kind, diff, idx, tol):
        msg = (f"{kind.title()} difference: {diff}" if idx is None else
               f"Greatest {kind} difference: {diff} at index {idx}")
        if not equality:
            msg += f" (up to {tol} allowed)"
        return msg + "\n"

    msg = f"{default_identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    msg += diff_msg("absolute", abs_diff, abs_idx, atol)
    msg += diff_msg("relative", rel_diff, rel_idx, rtol)
    return msg.strip()


def _scalar_msg(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None,
                         atol, rel_diff, None, rtol)


def _tensor_msg(actual, expected, matches, rtol, atol):
    n = matches.size
    bad = n - int(matches.sum())
    extra = f"Mismatched elements: {bad} / {n} ({bad / n:.1%})"
    a, e, m = actual.ravel(), expected.ravel(), matches.ravel()
    if a.dtype.kind not in "fc":  # (integers and bools: their differences in int64)
        a, e = a.astype(np.int64), e.astype(np.int64)
    abs_diff = np.abs(a - e)
    abs_diff[m] = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        if a.dtype.kind in "fc":
            rel_diff = abs_diff / np.abs(e)
        else:  # (int64 / int64: true division in the default float dtype)
            rel_diff = abs_diff.astype(np.float32) / np.abs(e).astype(np.float32)
    rel_diff[m] = 0
    abs_i, rel_i = _argmax_nan(abs_diff), _argmax_nan(rel_diff)
    if abs_diff.dtype.kind == "f" and a.dtype.kind in "fc":
        abs_diff = abs_diff.astype(a.real.dtype if a.dtype.kind == "c" else a.dtype)
        rel_diff = rel_diff.astype(abs_diff.dtype)
    if rel_diff.dtype.kind == "f" and rel_diff.dtype.itemsize < 4:
        rel_diff = rel_diff.astype(np.float32)
    return _mismatch_msg("Tensor-likes", extra, abs_diff[abs_i].item(),
                         tuple(int(i) for i in np.unravel_index(abs_i, matches.shape)), atol,
                         rel_diff[rel_i].item(),
                         tuple(int(i) for i in np.unravel_index(rel_i, matches.shape)), rtol)


def _argmax_nan(a):
    """torch.max's index: the first NaN, else the first maximum."""
    if a.dtype.kind == "f":
        nan = np.flatnonzero(np.isnan(a))
        if nan.size:
            return int(nan[0])
    return int(np.argmax(a))


def _attribute(name, actual, expected):
    if actual != expected:
        raise _Mismatch(AssertionError, f"The values for attribute '{name}' do not match: "
                                        f"{actual} != {expected}.")


def _as_tensor(x):
    if isinstance(x, Tensor):
        return x
    from ._creation import as_tensor
    return as_tensor(x)


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype, check_stride):
    actual, expected = _as_tensor(actual).detach(), _as_tensor(expected).detach()
    _attribute("shape", actual.shape, expected.shape)
    if check_dtype:
        _attribute("dtype", actual.dtype, expected.dtype)
    if check_stride:
        _attribute("stride()", actual.stride(), expected.stride())
    rtol, atol = _tolerances(actual.dtype, expected.dtype, rtol=rtol, atol=atol)
    a, e = actual.resolve_conj().numpy(), expected.resolve_conj().numpy()
    if a.dtype != e.dtype:
        common = _dtypes.promote_types(actual.dtype, expected.dtype).np
        a, e = a.astype(common), e.astype(common)
    if a.dtype.kind == "b":
        matches = a == e
    else:
        matches = _isclose(a, e, rtol, atol, equal_nan)
    if matches.all():
        return
    if actual.dim() == 0:
        msg = _scalar_msg(a.item(), e.item(), rtol, atol)
    else:
        msg = _tensor_msg(a, e, matches, rtol, atol)
    raise _Mismatch(AssertionError, msg)


def _isclose(a, e, rtol, atol, equal_nan):
    """torch.isclose: equal values (infinities included), else |a - e| <= atol + rtol * |e|
    for finite ones; NaNs match only under ``equal_nan``."""
    if a.dtype.kind in "iu":
        a, e = a.astype(np.float64), e.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        close = a == e
        finite = np.isfinite(a) & np.isfinite(e)
        close |= finite & (np.abs(a - e) <= atol + rtol * np.abs(e))
        if equal_nan:
            close |= np.isnan(a) & np.isnan(e)
    return close


def _compare_numbers(actual, expected, rtol, atol, equal_nan, check_dtype):
    if check_dtype and type(actual) is not type(expected):
        raise _Mismatch(AssertionError, f"The (d)types do not match: {type(actual)} != "
                                        f"{type(expected)}.")
    rtol, atol = _tolerances(_NUMBER_DTYPES[type(actual)], _NUMBER_DTYPES[type(expected)],
                             rtol=rtol, atol=atol)
    if actual == expected:
        return
    if equal_nan and _isnan(actual) and _isnan(expected):
        return
    if _isnan(actual) or _isnan(expected):
        close = False
    elif any(math.isinf(abs(v)) for v in (actual, expected)):
        close = False
    else:
        close = abs(actual - expected) <= atol + rtol * abs(expected)
    if not close:
        raise _Mismatch(AssertionError, _scalar_msg(actual, expected, rtol, atol))


def _isnan(v):
    return v != v


def _is_number(x):
    return type(x) in (int, float, complex)


def _is_tensor_like(x):
    return isinstance(x, (Tensor, np.ndarray))


def _compare(actual, expected, options, path):
    """One pair: leaves compared, containers walked (``path`` names the item that failed)."""
    try:
        if actual is None or expected is None:
            if not (actual is None and expected is None):
                raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}")
            return
        if type(actual) is bool and type(expected) is bool:
            if actual is not expected:
                raise _Mismatch(AssertionError, f"Booleans mismatch: {actual} is not "
                                                f"{expected}")
            return
        if _is_tensor_like(actual) and _is_tensor_like(expected):
            if type(actual) is not type(expected) and not (
                    options["allow_subclasses"] and isinstance(actual, type(expected))):
                raise _Mismatch(TypeError, f"No comparison pair was able to handle inputs of "
                                           f"type {_torch_type(actual)} and "
                                           f"{_torch_type(expected)}.")
            return _compare_tensors(actual, expected, options["rtol"], options["atol"],
                                    options["equal_nan"], options["check_dtype"],
                                    options["check_stride"])
        if _is_number(actual) and _is_number(expected):
            return _compare_numbers(actual, expected, options["rtol"], options["atol"],
                                    options["equal_nan"], options["check_dtype"])
    except _Mismatch as m:
        if path:
            m.message += f"\n\nThe failure occurred for item {''.join(path)}"
        raise
    is_seq = (isinstance(actual, collections.abc.Sequence) and
              isinstance(expected, collections.abc.Sequence) and
              not isinstance(actual, str) and not isinstance(expected, str))
    if is_seq:
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError, f"The length of the sequences mismatch: "
                                            f"{len(actual)} != {len(expected)}")
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, options, path + [f"[{i}]"])
        return
    if isinstance(actual, collections.abc.Mapping) and \
            isinstance(expected, collections.abc.Mapping):
        keys_a, keys_e = set(actual.keys()), set(expected.keys())
        if keys_a != keys_e:
            missing = keys_e - keys_a
            extra = keys_a - keys_e
            msg = "The keys of the mappings do not match:\n"
            if missing:
                msg += f"Missing keys in the actual mapping: {sorted(missing)}\n"
            if extra:
                msg += f"Additional keys in the actual mapping: {sorted(extra)}\n"
            raise _Mismatch(AssertionError, msg.strip())
        for key in actual:
            _compare(actual[key], expected[key], options, path + [f"[{key!r}]"])
        return
    raise _Mismatch(TypeError, f"No comparison pair was able to handle inputs of type "
                               f"{_torch_type(actual)} and {_torch_type(expected)}.")


def _torch_type(x):
    """The type as PyTorch names it (our Tensor is torch.Tensor to a test)."""
    return "<class 'torch.Tensor'>" if isinstance(x, Tensor) else str(type(x))


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """Raise (AssertionError for a mismatch, PyTorch's message) unless ``actual`` and
    ``expected`` are close: ``|actual - expected| <= atol + rtol * |expected|`` elementwise,
    with the dtypes' default tolerances when ``rtol``/``atol`` are omitted."""
    options = {"allow_subclasses": allow_subclasses, "rtol": rtol, "atol": atol,
               "equal_nan": equal_nan, "check_dtype": check_dtype,
               "check_stride": check_stride}
    try:
        _compare(actual, expected, options, [])
    except _Mismatch as m:
        if m.kind is AssertionError and msg is not None:
            raise AssertionError(msg(m.message) if callable(msg) else msg) from None
        raise m.kind(m.message) from None
