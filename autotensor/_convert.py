"""Python data to arrays of a dtype, by PyTorch's rules: one place for every entry point.

Note [Python data to a tensor]
Python numbers go straight to the target dtype, never through the default float dtype
(``tensor([0.1], dtype=float64)`` holds the double 0.1, not float32's 0.1). Two families of
checks exist in PyTorch and both are reproduced here:

* ``data_array`` -- ``tensor``, ``as_tensor``, ``new_tensor``, legacy ``Tensor(...)``: each
  element is stored like ``torch/csrc/utils/python_scalars.h``: integers must fit the
  integer dtype (negative ones wrap into unsigned types down to ``-max``), floats stored into
  an integer dtype are truncated and must be finite and in range, floats into a float dtype
  round (1e40 -> inf), complex into a real dtype is a TypeError. Errors name the dtype
  ("value cannot be converted to type int32 without overflow").
* ``scalar_array`` -- a Python number used as a ``c10::Scalar`` (``full``, ``fill_``,
  ``masked_fill``, ``x[i] = v``, ``where``...): ``checked_convert`` also refuses finite
  floats beyond float32's range and complex numbers with an imaginary part for real dtypes;
  errors name the C++ type ("... to type int64_t without overflow").

Without a dtype, the result type is the promotion of the elements' types: Python float ->
default float, int -> int64, bool, complex -> default complex; NumPy scalars, arrays and
tensors keep their own. Tensors and arrays are cast like ``.to(dtype)`` (wrapping, as the
x86 conversion instructions do). float64 -> float16/bfloat16 goes through float32, as in
PyTorch (c10::Half is built from a float).
"""
import builtins

from . import _dtypes
from ._backend import np

_py_bool, _py_int, _py_float, _py_complex = builtins.bool, builtins.int, builtins.float, \
    builtins.complex
_INT64_MIN, _INT64_MAX, _UINT64_MAX = -2 ** 63, 2 ** 63 - 1, 2 ** 64 - 1
_F32_MAX = float(np.finfo(np.float32).max)
_HALF_LIKE = ("float16", "bfloat16")

_CPP = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int",
        "int64": "int64_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
        "float32": "float", "float64": "double", "float16": "double", "bfloat16": "double",
        "complex64": "c10::complex<float>", "complex128": "c10::complex<double>",
        "bool": "bool"}


def overflow(name):
    return RuntimeError(f"value cannot be converted to type {name} without overflow")


def cast(arr, d):
    """``arr`` as dtype ``d`` like ``Tensor.to``: integers wrap, float64 -> half via float32."""
    npd = _dtypes.numpy_dtype_of(d)
    if arr.dtype == npd:
        return arr
    if d.name in _HALF_LIKE and arr.dtype.itemsize > 4 and arr.dtype.kind in "fc":
        arr = arr.astype(np.complex64 if arr.dtype.kind == "c" else np.float32)
        if arr.dtype.kind == "c":
            arr = arr.real
    elif arr.dtype.kind == "c" and npd.kind != "c":
        arr = arr.real  # PyTorch drops the imaginary part (with a warning we do not repeat)
    elif arr.dtype.kind == "V" and npd.kind in "iub":
        arr = arr.astype(np.float32)  # bfloat16 -> integers: as float32 does (x86 cvtt)
    return arr.astype(npd)


# ---- dtype inference ------------------------------------------------------------------------
def _type_name(x):
    """CPython's tp_name: module-qualified for C types (decimal.Decimal), bare otherwise."""
    t = type(x)
    if t.__module__ == "builtins" or t.__flags__ & (1 << 9):  # Py_TPFLAGS_HEAPTYPE
        return t.__name__
    return f"{t.__module__}.{t.__qualname__}"


def _scalar_dtype(x):
    """The dtype a scalar element contributes to inference (None: cannot infer)."""
    c = x.__class__
    if c is _py_float:
        return _dtypes.default_float
    if c is _py_int:
        return _dtypes.int64
    if c is _py_bool:
        return _dtypes.bool
    if c is _py_complex:
        return _dtypes.default_complex
    if isinstance(x, np.generic):
        return _dtypes.from_numpy(x.dtype)
    if isinstance(x, _py_bool):
        return _dtypes.bool
    if isinstance(x, _py_int):
        return _dtypes.int64
    if isinstance(x, _py_float):
        return _dtypes.default_float
    if isinstance(x, _py_complex):
        return _dtypes.default_complex
    return None


def _walk(data, Tensor):
    """(shape, flat leaves in C order, dtypes of the arrays met) of nested sequences.

    As PyTorch: the shape follows the first element at each depth; lists, tuples and NumPy
    arrays are sequences (an array's dtype takes part in inference), tensors are scalars
    (``item()``), a string is "too many dimensions". Iterative, one depth at a time.
    """
    shape = []
    array_dtypes = set()
    level = [data]
    dim = -1
    while level:
        first = level[0]
        if isinstance(first, (str, bytes)) and dim >= 0:
            raise ValueError(f"too many dimensions '{type(first).__name__}'")
        if not isinstance(first, (list, tuple, np.ndarray)) or \
                (isinstance(first, np.ndarray) and first.ndim == 0):
            return tuple(shape), level, array_dtypes
        dim += 1
        n = len(first)
        nxt = []
        for x in level:
            if isinstance(x, np.ndarray):
                if x.ndim == 0:
                    raise TypeError("not a sequence")
                array_dtypes.add(_dtypes.from_numpy(x.dtype))
                x = _array_tolist(x)
            elif not isinstance(x, (list, tuple)):
                raise TypeError("not a sequence")
            if len(x) != n:
                raise ValueError(f"expected sequence of length {n} at dim {dim} "
                                 f"(got {len(x)})")
            nxt.extend(x)
        shape.append(n)
        level = nxt
    return tuple(shape), [], array_dtypes


def _array_tolist(a):
    if a.dtype.kind == "V":  # bfloat16: Python floats, exactly
        a = a.astype(np.float32)
    return a.tolist()


def _tensor_item(t):
    """A tensor inside a list is a scalar: its value, as a NumPy scalar (its dtype's checks
    follow it through ``_check_integral_elements``)."""
    if t._data.size != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    v = t._data.reshape(-1)[0]
    return v if v.dtype.kind != "V" else np.float32(v)


def infer_dtype(leaves, array_dtypes, Tensor):
    """PyTorch's dtype for the given elements (default float when there are none)."""
    result = None
    for c in {x.__class__ for x in leaves}:
        proto = next(x for x in leaves if x.__class__ is c)
        if isinstance(proto, Tensor):
            for x in leaves:
                if x.__class__ is c:
                    array_dtypes.add(x.dtype)
            continue
        if isinstance(proto, (list, tuple)):
            continue  # a sequence where a scalar belongs: refused when stored
        d = _scalar_dtype(proto)
        if d is None:
            raise RuntimeError(f"Could not infer dtype of {_type_name(proto)}")
        result = d if result is None else _dtypes.promote_types(result, d)
    for d in array_dtypes:
        result = d if result is None else _dtypes.promote_types(result, d)
    return result if result is not None else _dtypes.default_float


# ---- element conversion ------------------------------------------------------------------
def data_array(data, dtype, Tensor):
    """The array of ``dtype`` (None: inferred) for nested Python data (Note [Python data to a
    tensor]). ``data`` is not a Tensor or ndarray (those are cast by the caller)."""
    shape, leaves, array_dtypes = _walk(data, Tensor)
    if dtype is None:
        dtype = infer_dtype(leaves, array_dtypes, Tensor)
    for x in leaves:  # what would be stored as a scalar but is a sequence
        if isinstance(x, (list, tuple, np.ndarray)) and not (
                isinstance(x, np.ndarray) and x.ndim == 0):
            what = type(x).__name__ if not isinstance(x, np.ndarray) else "numpy.ndarray"
            raise TypeError(f"'{what}' object cannot be interpreted as an integer"
                            if dtype._cat < 2 else f"must be real number, not {what}")
    if any(isinstance(x, Tensor) for x in leaves):
        leaves = [_tensor_item(x) if isinstance(x, Tensor) else x for x in leaves]
    if dtype._cat < 2:
        _check_integral_elements(leaves, dtype)
    if any(isinstance(x, np.generic) for x in leaves):
        leaves = [x.item() if isinstance(x, np.generic) else x for x in leaves]
    return elements_array(leaves, dtype, dtype.name).reshape(shape)


def _check_integral_elements(leaves, d):
    """The element types python_scalars.h refuses for integer and bool dtypes."""
    if d is _dtypes.uint64:
        if any(not isinstance(x, _py_int) for x in leaves):
            raise TypeError("an integer is required")
        return
    ok = (_py_int, _py_float, _py_complex, np.integer) if d._cat == 1 else \
        (_py_int, _py_float, _py_complex, np.integer, np.bool_)
    for c in {x.__class__ for x in leaves}:
        if not issubclass(c, ok):
            proto = next(x for x in leaves if x.__class__ is c)
            raise TypeError(f"'{_type_name(proto)}' object cannot be interpreted as an integer")


def elements_array(values, d, name):
    """1-d array of dtype ``d`` from Python numbers, with python_scalars.h's checks."""
    cat = d._cat
    classes = {v.__class__ for v in values}
    if cat >= 2:  # floating or complex
        if cat == 2 and any(issubclass(c, _py_complex) for c in classes):
            raise TypeError("must be real number, not complex")
        wide = np.complex128 if cat == 3 else np.float64
        try:
            arr = np.array(values, dtype=wide)
        except OverflowError:
            raise OverflowError("int too large to convert to float") from None
        return cast(arr, d)
    if cat == 0:
        return np.array([_py_bool(v) for v in values], dtype=np.bool_)
    return _int_elements(values, d, classes, name, _float_to_int_checked)


def _int_limits(d):
    info = np.iinfo(d.np)
    return int(info.min), int(info.max)


def _int_elements(values, d, classes, name, float_check):
    lo, hi = _int_limits(d)
    unsigned64 = d is _dtypes.uint64
    wide = np.uint64 if unsigned64 else np.int64
    if not classes <= {_py_int, _py_bool}:
        out = []
        for v in values:
            if isinstance(v, (_py_int, _py_bool)):
                out.append(v)
                continue
            if isinstance(v, _py_complex):
                raise TypeError("'complex' object cannot be interpreted as an integer")
            out.append(float_check(float(v), lo, hi, name, wide))
        values = out
    if not values:
        return np.zeros(0, dtype=d.np)
    vmin, vmax = min(values), max(values)
    if unsigned64:
        if vmin < 0:
            raise OverflowError("can't convert negative int to unsigned")
        if vmax > _UINT64_MAX:
            raise OverflowError("int too big to convert")
    elif vmin < _INT64_MIN or vmax > _INT64_MAX:
        raise ValueError("Overflow when unpacking long long")
    if vmax > hi or (vmin < lo and (lo < 0 or -vmin > hi)):
        raise overflow(name)
    return np.array(values, dtype=wide).astype(d.np)


def _float_to_int_checked(f, lo, hi, name, wide):
    # c10::overflows<int, double>: the int limits compare as doubles
    if f != f or f < float(lo) or f > float(hi):
        raise overflow(name)
    v = int(f)
    if v > hi:  # 2**63 into int64 passes the double comparison: the x86 cast's result
        return int(np.array(f).astype(wide))
    return v


# ---- c10::Scalar conversion -----------------------------------------------------------------
_SCALAR_CPP_HALF = {"float16": "c10::Half", "bfloat16": "c10::BFloat16"}


def check_python_int(value):
    """The OverflowErrors of turning a Python int into a c10::Scalar (int64 or uint64)."""
    if value.__class__ is _py_int:
        if value < _INT64_MIN:
            raise OverflowError("can't convert negative int to unsigned")
        if value > _UINT64_MAX:
            raise OverflowError("int too big to convert")


def scalar_array(value, d, single=False):
    """0-d array of dtype ``d`` for a Python number used as a c10::Scalar (``full``,
    ``fill_``, ``masked_fill``, ``x[i] = v``): PyTorch's ``checked_convert`` rules.
    ``single``: the destination has one element (PyTorch's fill fast path does not check
    float16/bfloat16 ranges there)."""
    if isinstance(value, np.generic):
        value = value.item()
    elif hasattr(value, "_data"):  # a 0-d Tensor given as a number
        value = value._data.reshape(()).item()
    half = d.name in _SCALAR_CPP_HALF
    name = _SCALAR_CPP_HALF[d.name] if half and not single else _CPP[d.name]
    if isinstance(value, _py_int) and not isinstance(value, _py_bool):
        check_python_int(_py_int(value))
    cat = d._cat
    if cat == 0:
        return np.array(_py_bool(value))
    if isinstance(value, _py_complex):
        if cat != 3 and value.imag != 0:
            raise overflow(name)
        if cat != 3:
            value = value.real
    if cat == 1:
        lo, hi = _int_limits(d)
        if isinstance(value, _py_float):
            value = _float_to_int_checked(value, lo, hi, name,
                                          np.uint64 if d is _dtypes.uint64 else np.int64)
        v = _py_int(value)
        if v > hi or (v < lo and (lo < 0 or -v > hi)):
            raise overflow(name)
        return np.array(v % (hi + 1) if v < 0 and lo == 0 else v, dtype=d.np)
    limit = None if (half and single) or d.name in ("float64", "complex128") else \
        finfo_max(d)
    if limit is not None:
        v = value if isinstance(value, (_py_float, _py_complex)) else float(value)
        for part in ((v.real, v.imag) if isinstance(v, _py_complex) else (v,)):
            if part == part and abs(part) != float("inf") and abs(part) > limit:
                raise overflow(name)
    return cast(np.array(value, dtype=np.complex128 if cat == 3 else np.float64), d)


def finfo_max(d):
    return _dtypes.finfo(d).max
