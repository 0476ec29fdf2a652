"""Data types: ``dtype`` singletons, type promotion and PyTorch's ``result_type`` rule.

Everything on a hot path here is a precomputed dict lookup:

* ``from_numpy(arr.dtype)``                       -> our dtype
* ``promote_types(a, b)``                         -> ``_PROMOTE[a, b]``
* ``binary_result_dtype(a, a_is_0d, b, b_is_0d)`` -> ``_BINARY[a, a_is_0d, b, b_is_0d]``
* ``scalar_result_dtype(dtype, python_scalar)``   -> ``_SCALAR[dtype, type(scalar)]``

The current default floating dtype lives in the module variables ``default_float`` and
``default_complex`` (read them as ``_dtypes.default_float``; change them only through
``set_default_dtype``).
"""
from ._backend import np

__all__ = [
    "dtype",
    "float16", "half", "float32", "float", "float64", "double",
    "complex64", "cfloat", "complex128", "cdouble",
    "int8", "int16", "int32", "int", "int64", "long", "uint8", "bool",
    "bfloat16", "uint16", "uint32", "uint64",
    "all_dtypes", "extra_dtypes", "every_dtype", "numpy_dtype_of",
    "from_numpy", "get_default_dtype", "set_default_dtype",
    "promote_types", "result_type", "scalar_result_dtype", "binary_result_dtype",
    "is_floating", "is_integral", "is_complex",
    "iinfo", "finfo",
]

_builtin_bool = True.__class__
_builtin_int = (0).__class__
_builtin_float = (0.0).__class__
_builtin_complex = (0j).__class__

# Categories, ordered: bool < integer < floating < complex.
_CAT_BOOL, _CAT_INT, _CAT_FLOAT, _CAT_COMPLEX = 0, 1, 2, 3


class dtype:
    """A tensor element type.  Instances are module-level singletons (compare with ``is``)."""

    __slots__ = ("name", "np", "is_floating_point", "is_complex", "is_signed", "itemsize",
                 "abbr", "_cat", "_str")

    def __init__(self, name, npname, abbr, cat, is_signed, itemsize=None):
        self.name = name
        # bfloat16 lives in the optional ml_dtypes package: until it is first needed, ``np``
        # is a stand-in that NumPy resolves through its ``dtype`` attribute (Note [bfloat16]).
        self.np = np.dtype(npname) if npname is not None else _LazyNumpyDtype(self)
        self.itemsize = itemsize or self.np.itemsize
        self.abbr = abbr
        self._cat = cat
        self.is_floating_point = cat == _CAT_FLOAT
        self.is_complex = cat == _CAT_COMPLEX
        self.is_signed = is_signed
        self._str = "torch." + name

    def __repr__(self):
        return self._str

    __str__ = __repr__

    def __reduce__(self):
        # A string tells pickle/copy to look the singleton up by name in this module.
        return self.name

    def to_real(self):
        """The real counterpart of a complex dtype (other dtypes are returned unchanged)."""
        return _TO_REAL.get(self, self)

    def to_complex(self):
        """The complex counterpart of a floating dtype (complex dtypes unchanged).

        PyTorch maps float16 to complex32, which NumPy lacks; complex64 is returned instead.
        """
        try:
            return _TO_COMPLEX[self]
        except KeyError:
            raise RuntimeError(
                f"Unknown Complex ScalarType for {_SCALAR_NAMES[self]}") from None


# Note [bfloat16]
# NumPy has no bfloat16; the ml_dtypes package (the `bf16` extra) adds one. The package is
# imported the first time a bfloat16 array is made: ``bfloat16.np`` starts as a stand-in
# whose ``dtype`` attribute NumPy reads whenever it is given as a dtype (np.zeros(...,
# dtype=bfloat16.np), arr.astype(...), ==), and which then puts the real dtype in its place.
# Without ml_dtypes, that first use raises an ImportError naming the extra. Computation in
# bfloat16 rounds each result of float32 arithmetic, as PyTorch's CPU kernels do.
BF16_MISSING = ("torch.bfloat16 needs the optional ml_dtypes package: "
                "pip install 'autotensor[bf16]' (or pip install ml_dtypes)")


class _LazyNumpyDtype:
    __slots__ = ("_owner",)

    def __init__(self, owner):
        self._owner = owner

    @property
    def dtype(self):
        return _load_bfloat16()

    def __eq__(self, other):
        return _load_bfloat16() == other

    def __ne__(self, other):
        return _load_bfloat16() != other

    def __hash__(self):
        return hash("bfloat16")

    def __getattr__(self, name):
        return getattr(_load_bfloat16(), name)

    def __repr__(self):
        return "dtype(bfloat16) (ml_dtypes not loaded yet)"


def _load_bfloat16():
    d = bfloat16.np
    if isinstance(d, np.dtype):
        return d
    try:
        import ml_dtypes
    except ImportError:
        raise ImportError(BF16_MISSING) from None
    d = np.dtype(ml_dtypes.bfloat16)
    bfloat16.np = d
    _FROM_NP[d] = _FROM_NP[d.type] = bfloat16
    return d


def numpy_dtype_of(d):
    """``d.np``, loading ml_dtypes if ``d`` is bfloat16 (for code that needs a real dtype)."""
    npd = d.np
    return npd if npd.__class__ is not _LazyNumpyDtype else _load_bfloat16()


float16 = half = dtype("float16", "float16", "f16", _CAT_FLOAT, True)
float32 = float = dtype("float32", "float32", "f32", _CAT_FLOAT, True)
float64 = double = dtype("float64", "float64", "f64", _CAT_FLOAT, True)
complex64 = cfloat = dtype("complex64", "complex64", "c64", _CAT_COMPLEX, True)
complex128 = cdouble = dtype("complex128", "complex128", "c128", _CAT_COMPLEX, True)
int8 = dtype("int8", "int8", "i8", _CAT_INT, True)
int16 = short = dtype("int16", "int16", "i16", _CAT_INT, True)
int32 = int = dtype("int32", "int32", "i32", _CAT_INT, True)
int64 = long = dtype("int64", "int64", "i64", _CAT_INT, True)
uint8 = dtype("uint8", "uint8", "u8", _CAT_INT, False)
bool = dtype("bool", "bool", "b8", _CAT_BOOL, False)
bfloat16 = dtype("bfloat16", None, "bf16", _CAT_FLOAT, True, itemsize=2)
# PyTorch's "barebones" unsigned types: creation, conversion, printing; no promotion with
# other integer types (PyTorch raises), and few kernels.
uint16 = dtype("uint16", "uint16", "u16", _CAT_INT, False)
uint32 = dtype("uint32", "uint32", "u32", _CAT_INT, False)
uint64 = dtype("uint64", "uint64", "u64", _CAT_INT, False)

all_dtypes = (bool, uint8, int8, int16, int32, int64, float16, float32, float64,
              complex64, complex128)
extra_dtypes = (bfloat16, uint16, uint32, uint64)
every_dtype = all_dtypes + extra_dtypes
_BAREBONES_UNSIGNED = (uint16, uint32, uint64)

_TO_REAL = {complex64: float32, complex128: float64}
_TO_COMPLEX = {float16: complex64, bfloat16: complex64, float32: complex64,
               float64: complex128, complex64: complex64, complex128: complex128}

# ---- names used in PyTorch's messages ----------------------------------------------------
# ScalarType names ("Float"), C++ type names ("float") and legacy tensor types
# ("torch.FloatTensor"), as they appear in PyTorch's errors and Tensor.type().
_SCALAR_NAMES = {float16: "Half", float32: "Float", float64: "Double", complex64: "ComplexFloat",
                 complex128: "ComplexDouble", int8: "Char", int16: "Short", int32: "Int",
                 int64: "Long", uint8: "Byte", bool: "Bool", bfloat16: "BFloat16",
                 uint16: "UInt16", uint32: "UInt32", uint64: "UInt64"}
_CPP_NAMES = {float16: "c10::Half", float32: "float", float64: "double",
              complex64: "c10::complex<float>", complex128: "c10::complex<double>",
              int8: "signed char", int16: "short int", int32: "int", int64: "long int",
              uint8: "unsigned char", bool: "bool", bfloat16: "c10::BFloat16",
              uint16: "uint16_t", uint32: "uint32_t", uint64: "uint64_t"}



# --------------------------------------------------------------------------- numpy mapping

_BY_KIND = {(d.np.kind, d.itemsize): d for d in every_dtype if d is not bfloat16}
_FROM_NP = {}
for _d in every_dtype:
    if _d is not bfloat16:
        _FROM_NP[_d.np] = _d
        _FROM_NP[_d.np.type] = _d
del _d


def from_numpy(npdtype):
    """Our dtype for a NumPy dtype (``arr.dtype``), scalar type (``np.float32``) or name."""
    try:
        return _FROM_NP[npdtype]
    except (KeyError, TypeError):
        pass
    try:
        nd = np.dtype(npdtype)
    except TypeError:
        nd = None
    d = _BY_KIND.get((nd.kind, nd.itemsize)) if nd is not None else None
    if d is None and nd is not None and nd.name == "bfloat16":
        _load_bfloat16()
        return bfloat16
    if d is None:
        what = f"numpy.{nd.type.__name__}" if nd is not None else repr(npdtype)
        raise TypeError(
            f"can't convert np.ndarray of type {what}. The only supported types are: "
            "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
            "uint64, uint32, uint16, uint8, and bool.")
    return d


# --------------------------------------------------------------------------- promotion

_INT_ORDER = {int8: 0, int16: 1, int32: 2, int64: 3}
_SIGNED_FOR_UINT8 = {int8: int16, int16: int16, int32: int32, int64: int64}
_FLOAT_ORDER = {float16: 0, bfloat16: 0, float32: 1, float64: 2}
_REAL_OF_COMPLEX = {complex64: float32, complex128: float64}


def _promote_slow(a, b):
    """The promoted dtype, or None where PyTorch refuses (barebones unsigned types)."""
    if a is b:
        return a
    if a in _BAREBONES_UNSIGNED or b in _BAREBONES_UNSIGNED:
        other = b if a in _BAREBONES_UNSIGNED else a
        return other if other._cat == _CAT_FLOAT else None
    if {a, b} == {float16, bfloat16}:
        return float32
    ca, cb = a._cat, b._cat
    if ca < cb or (ca == cb and a.itemsize < b.itemsize):
        a, b, ca, cb = b, a, cb, ca
    # now a is the "bigger" one: higher category, or same category and not smaller
    if cb == _CAT_BOOL:
        return a
    if ca == _CAT_INT:  # both integers
        if a is uint8:
            return _SIGNED_FOR_UINT8[b]
        if b is uint8:
            return _SIGNED_FOR_UINT8[a]
        return a if _INT_ORDER[a] >= _INT_ORDER[b] else b
    if ca == _CAT_FLOAT:  # b is float or integer
        return a
    # a is complex
    if cb == _CAT_INT:
        return a
    real = b if cb == _CAT_FLOAT else _REAL_OF_COMPLEX[b]
    if _FLOAT_ORDER[real] > _FLOAT_ORDER[_REAL_OF_COMPLEX[a]]:
        return _TO_COMPLEX[real]
    return a


_PROMOTE = {(a, b): p for a in every_dtype for b in every_dtype
            if (p := _promote_slow(a, b)) is not None}


def _promotion_error(a, b):
    return RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, "
                        f"attempted to promote {_SCALAR_NAMES[a]} and {_SCALAR_NAMES[b]}")


def promote_types(a, b):
    """``torch.promote_types``: the smallest dtype both ``a`` and ``b`` can be cast to."""
    try:
        return _PROMOTE[a, b]
    except KeyError:
        raise _promotion_error(a, b) from None


def _promote_skip_none(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return promote_types(a, b)


def _combine_categories(higher, lower):
    """ATen's ``combine_categories`` (TypeProperties.cpp); ``None`` means undefined."""
    if higher is not None and higher._cat == _CAT_COMPLEX:
        return higher
    if lower is not None and lower._cat == _CAT_COMPLEX:
        if higher is not None and higher._cat == _CAT_FLOAT:
            return _TO_COMPLEX[higher]
        return lower
    if higher is not None and higher._cat == _CAT_FLOAT:
        return higher
    if higher is bool or (lower is not None and lower._cat == _CAT_FLOAT):
        return _promote_skip_none(higher, lower)
    if higher is not None:
        return higher
    return lower


# --------------------------------------------------------------------------- default dtype

default_float = float32
default_complex = complex64


def get_default_dtype():
    """The default floating point dtype (initially ``float32``)."""
    return default_float


def set_default_dtype(d):
    """Set the default floating point dtype: float32, float64 or float16."""
    global default_float, default_complex
    if d.__class__ is not dtype:
        raise TypeError(
            "invalid dtype object: only floating-point types are supported as the default type")
    if d not in _FLOAT_ORDER:
        raise TypeError("only floating-point types are supported as the default type")
    default_float = d
    default_complex = complex128 if d is float64 else complex64
    _rebuild_scalar_table()


# --------------------------------------------------------------------------- result_type

def _wrapped_dtype(scalar):
    """The dtype a Python scalar takes part in promotion with (None if not a scalar)."""
    t = scalar.__class__
    if t is _builtin_float:
        return default_float
    if t is _builtin_int:
        # PyTorch holds an int in [2**63, 2**64) as a uint64 Scalar; beyond, its argument
        # parser's OverflowError
        if -9223372036854775808 <= scalar < 9223372036854775808:
            return int64
        if scalar < 0:
            raise OverflowError("can't convert negative int to unsigned")
        if scalar > 18446744073709551615:
            raise OverflowError("int too big to convert")
        return uint64
    if t is _builtin_bool:
        return bool
    if t is _builtin_complex:
        return default_complex
    # Subclasses (numpy float64 / complex128 subclass float / complex) and NumPy scalars,
    # classified the way torch does: NumPy integers count as int, while the remaining
    # NumPy scalars (bool_, float16/32, complex64) are taken through float().
    if isinstance(scalar, _builtin_bool):
        return bool
    if isinstance(scalar, (_builtin_int, np.integer)):
        return int64
    if isinstance(scalar, _builtin_float):
        return default_float
    if isinstance(scalar, _builtin_complex):
        return default_complex
    if isinstance(scalar, (np.bool_, np.floating, np.complexfloating)):
        return default_float
    return None


def result_type(*operands):
    """PyTorch's result dtype for an operation over ``operands``.

    Each operand is a tensor-like (anything with a ``dtype`` attribute holding one of our
    dtypes, and ``ndim`` or ``dim()``) or a Python bool/int/float/complex.  Three priority
    classes -- dimensioned tensors > zero-dim tensors > Python scalars -- are promoted
    separately and then combined by category (bool < integer < floating < complex).
    """
    dim_r = zero_r = wrapped_r = None
    for op in operands:
        d = getattr(op, "dtype", None)
        if d.__class__ is dtype:
            nd = getattr(op, "ndim", None)
            if nd is None:
                nd = op.dim()
            if nd > 0:
                dim_r = d if dim_r is None else promote_types(dim_r, d)
            else:
                zero_r = d if zero_r is None else promote_types(zero_r, d)
            continue
        d = _wrapped_dtype(op)
        if d is None:
            raise TypeError(
                f"result_type: expected a Tensor or a Python number, got {type(op).__name__}")
        wrapped_r = d if wrapped_r is None else promote_types(wrapped_r, d)
    r = _combine_categories(dim_r, _combine_categories(zero_r, wrapped_r))
    if r is None:
        raise TypeError("result_type: expected at least one operand")
    return r


_BINARY = {}
for _a in every_dtype:
    for _b in every_dtype:
        for _key, _hi, _lo in (((_a, False, _b, False), _a, _b), ((_a, True, _b, True), _a, _b),
                               ((_a, False, _b, True), _a, _b), ((_a, True, _b, False), _b, _a)):
            try:
                _BINARY[_key] = _PROMOTE[_a, _b] if _key[1] == _key[3] else \
                    _combine_categories(_hi, _lo)
            except (KeyError, RuntimeError):
                pass
del _a, _b, _key, _hi, _lo


def binary_result_dtype(dtype_a, a_is_0d, dtype_b, b_is_0d):
    """Result dtype of a binary op between two tensors (``*_is_0d``: ndim == 0)."""
    try:
        return _BINARY[dtype_a, a_is_0d, dtype_b, b_is_0d]
    except KeyError:
        raise _promotion_error(dtype_a, dtype_b) from None


_SCALAR = {}
_SCALAR_TYPES = (_builtin_bool, _builtin_int, _builtin_float, _builtin_complex)


def _rebuild_scalar_table():
    _SCALAR.clear()
    for d in every_dtype:
        for t in _SCALAR_TYPES:
            try:
                _SCALAR[d, t] = _combine_categories(d, _wrapped_dtype(t()))
            except RuntimeError:
                pass


_rebuild_scalar_table()


def scalar_result_dtype(tensor_dtype, scalar):
    """Result dtype of a binary op between a tensor (any ndim) and a Python scalar."""
    try:
        return _SCALAR[tensor_dtype, scalar.__class__]
    except KeyError:
        pass
    w = _wrapped_dtype(scalar)
    if w is None:
        raise TypeError(f"expected a Python number, got {type(scalar).__name__}")
    return _combine_categories(tensor_dtype, w)


# --------------------------------------------------------------------------- categories

def is_floating(d):
    """True for float16/32/64."""
    return d._cat == _CAT_FLOAT


def is_complex(d):
    """True for complex64/128."""
    return d._cat == _CAT_COMPLEX


def is_integral(d, include_bool=False):
    """True for integer dtypes (and bool when ``include_bool``)."""
    c = d._cat
    return c == _CAT_INT or (include_bool and c == _CAT_BOOL)


# --------------------------------------------------------------------------- iinfo / finfo

class iinfo:
    """Machine limits of an integer dtype, like ``torch.iinfo``."""

    __slots__ = ("bits", "min", "max", "dtype")

    def __init__(self, type):
        if type.__class__ is not dtype or type._cat != _CAT_INT:
            if type is bool:
                raise TypeError("torch.bool is not supported by torch.iinfo")
            raise TypeError(
                "torch.iinfo() requires an integer input type. "
                "Use torch.finfo to handle 'torch.iinfo'")
        info = np.iinfo(type.np)
        self.bits = info.bits
        self.min = _builtin_int(info.min)
        self.max = _builtin_int(info.max)
        self.dtype = type.name

    def __repr__(self):
        return (f"iinfo(min={_builtin_float(self.min):g}, max={_builtin_float(self.max):g}, "
                f"dtype={self.dtype})")

    def __eq__(self, other):
        return isinstance(other, iinfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("iinfo", self.dtype))


_FINFO_PRECISION = {float16: 3, bfloat16: 2, float32: 6, float64: 15}
# bfloat16: float32's exponent with 8 significant bits (no ml_dtypes needed to describe it)
_BF16_INFO = {"bits": 16, "eps": 2.0 ** -7, "max": (2 - 2.0 ** -7) * 2.0 ** 127,
              "smallest_normal": 2.0 ** -126}


class finfo:
    """Machine limits of a floating dtype, like ``torch.finfo`` (complex: its real part)."""

    __slots__ = ("bits", "eps", "min", "max", "tiny", "smallest_normal", "resolution", "dtype")

    def __init__(self, type=None):
        if type is None:
            type = default_float
        if type.__class__ is not dtype or type._cat < _CAT_FLOAT:
            raise TypeError(
                "torch.finfo() requires a floating point input type. "
                "Use torch.iinfo to handle 'torch.finfo'")
        type = _TO_REAL.get(type, type)
        if type is bfloat16:
            info = _BF16_INFO
        else:
            i = np.finfo(type.np)
            info = {"bits": i.bits, "eps": i.eps, "max": i.max,
                    "smallest_normal": i.smallest_normal}
        self.bits = info["bits"]
        self.eps = _builtin_float(info["eps"])
        self.max = _builtin_float(info["max"])
        self.min = -self.max
        self.tiny = self.smallest_normal = _builtin_float(info["smallest_normal"])
        self.resolution = 10.0 ** -_FINFO_PRECISION[type]
        self.dtype = type.name

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("finfo", self.dtype))


def scalar_name(d):
    return _SCALAR_NAMES[d]


def cpp_name(d):
    return _CPP_NAMES[d]


def legacy_type_name(d):
    return f"torch.{_SCALAR_NAMES[d]}Tensor"


_LEGACY = frozenset(("Half", "Float", "Double", "Byte", "Char", "Short", "Int", "Long"))


def tensor_string(d):
    """at::Tensor::toString(): the legacy type name where the dtype has one, else the
    dispatch key's ("CPUComplexFloatType", "CPUBFloat16Type")."""
    name = _SCALAR_NAMES[d]
    return f"torch.{name}Tensor" if name in _LEGACY else f"CPU{name}Type"
