"""Random number generation reproducing PyTorch's CPU streams bit for bit.

PyTorch's CPU generator (``at::CPUGeneratorImpl``) is an mt19937 seeded like the reference
``init_genrand`` with the low 32 bits of the seed.  ``random()`` is one 32-bit output,
``random64()`` two of them, the first one being the high word.  Its distributions
(``ATen/core/DistributionsHelper.h``, ``ATen/core/TransformationHelper.h``,
``ATen/native/cpu/DistributionTemplates.h``) turn those words into numbers; this module
replays the same transformations with NumPy, vectorised, on the raw stream of NumPy's own
``MT19937`` bit generator (the same algorithm).

What is reproduced, and how (PyTorch 2.x, x86-64 build, ``AVX2`` CPU capability):

* uniform floats: ``(word & (2**digits - 1)) * 2**-digits`` with ``digits`` 24 (one 32-bit
  word) for float32/float16, 53 (one 64-bit word) for float64, then
  ``fma(x, to - from, from)`` (the compiled kernel contracts it into an FMA), cast to the
  dtype, a result equal to ``to`` replaced by ``from``.
* normal, >= 16 elements: all uniforms first, Box-Muller on blocks of 16 (``u1`` from the
  first 8, ``u2`` from the next 8), the last ``n % 16`` elements recomputed from 16 fresh
  uniforms.  float64 uses libm ``log``/``sin``/``cos`` (NumPy's float64 ufuncs call the
  same libm); float32 (and float16, computed in float32) use the AVX2 Cephes polynomials
  of ``avx_mathfun.h`` exactly as GCC compiled them (with its FMA contractions), emulated
  with exact float32 FMAs.
* normal, < 16 elements: the scalar ``normal_distribution<double>``: two float64 uniforms
  per pair, ``r = sqrt(-2 log1p(-u2))``, ``r cos(2 pi u1)`` returned and ``r sin(2 pi u1)``
  cached in the generator for the next small draw (the cache survives across calls and is
  part of the state), ``fma(z, std, mean)``, cast to the dtype.
* randint / random_: ``(word % range) + low`` with one 32-bit word when
  ``range < 2**28``, a 64-bit word otherwise; ``random_()`` without bounds takes
  ``word % (2**digits + 1)`` (floats) or ``word % (max + 1)`` (integers).
* randperm: PyTorch's in-place Fisher-Yates (``random() % (n - i)``) for
  ``n < 2**32 / 20``, the "inside-out" variant with ``random64()`` above.
* bernoulli: ``uniform < p`` (float64 uniforms for a scalar ``p`` or a float64 ``p`` array,
  float32 uniforms for float32/float16 ``p`` arrays).
* exponential: ``-1 / lambd * log1p(-u)`` with float64 uniforms.
* cauchy, log_normal, geometric: PyTorch's serial ``*_distribution<double>``: one float64
  uniform per value (``median + sigma * tan(pi * (u - 0.5))``, ``ceil(log(u) / log1p(-p))``),
  log_normal the exp of the serial float64 normal (sharing its cached second value).
* multinomial: with replacement, float64 uniforms binary-searched in the normalised
  cumulative sum (accumulated in the input dtype); without replacement (or one sample),
  ``argmax``/``topk`` of ``p / Exp(1)``.  Not reproduced: which zero-probability
  categories PyTorch's ``topk`` picks, and in which order, when more samples are asked
  without replacement than there are nonzero probabilities (a tie that depends on
  libstdc++'s selection algorithm).

float64 ``log``/``log1p``/``sin``/``cos`` must be the C library's: where NumPy's ufuncs
might be its own SIMD code (AVX-512 CPUs), ``math`` is used element by element instead
(see ``_libm``).  bfloat16 (ml_dtypes) is computed as float16 is.  The float32 normal
kernel is the x86-64 AVX2 one, which PyTorch also runs on AVX-512 CPUs (it has no AVX-512
variant); builds for other architectures (ARM) compute it differently.

Everything returns NumPy arrays; the tensor layer wraps them.  The generator state is
PyTorch's own 5056-byte ``CPUGeneratorImplState`` layout, so states can be exchanged with
``torch.get_rng_state()``/``torch.set_rng_state()``.
"""
from __future__ import annotations

import contextlib
import math
import os
import struct
import threading

from ._backend import np

__all__ = [
    "Generator",
    "default_generator",
    "manual_seed",
    "seed",
    "initial_seed",
    "get_rng_state",
    "set_rng_state",
    "rand",
    "randn",
    "randint",
    "randperm",
    "random_",
    "normal",
    "uniform",
    "bernoulli",
    "exponential",
    "multinomial",
]

DEFAULT_SEED = 67280421310721  # c10::detail::default_rng_seed_val

_N = 624  # MERSENNE_STATE_N
_STATE_SIZE = 5056  # sizeof(CPUGeneratorImplState)
_U64_MASK = (1 << 64) - 1

# --------------------------------------------------------------------------------------
# dtype helpers
# --------------------------------------------------------------------------------------

_TORCH_NAMES = {
    "float64": "Double", "float32": "Float", "float16": "Half", "int64": "Long",
    "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
    "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64", "bfloat16": "BFloat16",
    "complex64": "ComplexFloat", "complex128": "ComplexDouble",
}
# how c10's TypeMeta prints a dtype in PyTorch's error messages
_CPP_NAMES = {
    "float64": "double", "float32": "float", "float16": "c10::Half", "int64": "long int",
    "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
    "bool": "bool", "uint16": "short unsigned int", "uint32": "unsigned int",
    "uint64": "long unsigned int", "complex64": "c10::complex<float>",
    "complex128": "c10::complex<double>", "bfloat16": "c10::BFloat16",
}
# half types: drawn and computed in float, stored through ``static_cast`` from float
_REDUCED = ("float16", "bfloat16")
# std::numeric_limits<scalar_t>::digits and ::max() of the floating dtypes
_DIGITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}
_FMAX = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38,
         "float32": 3.4028234663852886e38, "float64": 1.7976931348623157e308}
_CTYPE_NAMES = {
    "int64": "int64_t", "int32": "int32_t", "int16": "int16_t", "int8": "int8_t",
    "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
}


def _dtype(np_dtype, default):
    return np.dtype(default if np_dtype is None else np_dtype)


def _torch_name(dt) -> str:
    return _TORCH_NAMES.get(dt.name, dt.name)


def _is_float(dt) -> bool:
    return dt.name in _DIGITS


def _check_float_dtype(dt, kernel: str):
    if dt.name in _DIGITS:
        return
    raise NotImplementedError(f'"{kernel}" not implemented for \'{_torch_name(dt)}\'')


def _shape(shape) -> tuple:
    if shape is None:
        return ()
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = tuple(int(s) for s in shape)
    for s in shape:
        if s < 0:
            dims = ", ".join(map(str, shape))
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: [{dims}]")
    return shape


def _numel(shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _fmt(x) -> str:
    """A double as C++'s ``ostream <<`` prints it (6 significant digits, %g style)."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return str(int(x))
    return "%g" % float(x)


def _to_reduced(a, dt):
    """float64 -> float16/bfloat16 as ``static_cast<c10::Half>(double)`` does: via float."""
    return np.asarray(a, np.float64).astype(np.float32).astype(dt)


def _cast_from_double(a, dt):
    if dt.name in _REDUCED:
        return _to_reduced(a, dt)
    return np.asarray(a).astype(dt)


# --------------------------------------------------------------------------------------
# exact fused multiply-add (the compiled kernels use hardware FMA)
# --------------------------------------------------------------------------------------

def _nudge_odd(s, err):
    """Round-to-odd fix-up: ``s`` is RN(x) and ``err`` = x - s exactly."""
    fix = (err != 0) & ((s.view(np.int64) & 1) == 0)
    if fix.any():
        s = np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
    return s


_MID_MASK = np.int64(0x1FFFFFFF)  # the 29 float64 mantissa bits below float32's 24
_MID = np.int64(0x10000000)


def _fma32(a, b, c):
    """Correctly rounded float32 ``a * b + c`` for float32 operands.

    The product is exact in float64 and the float64 sum rounds once; rounding that to
    float32 is then correct except when the float64 sum landed exactly on a float32
    midpoint while being inexact (double rounding): those rare elements are fixed up with
    the exact error term. Results in float32's subnormal range (a coarser grid) are rounded
    exactly (_fma_exact)."""
    s = np.multiply(a, b, dtype=np.float64)
    s += c
    mid = (s.view(np.int64) & _MID_MASK) == _MID
    if mid.any():
        idx = np.nonzero(mid)
        p = (np.broadcast_to(np.asarray(a, np.float64), s.shape)[idx]
             * np.broadcast_to(np.asarray(b, np.float64), s.shape)[idx])
        cc = np.broadcast_to(np.asarray(c, np.float64), s.shape)[idx]
        ss = s[idx]
        t = ss - p
        err = (p - (ss - t)) + (cc - t)
        s[idx] = np.where(err == 0, ss, np.nextafter(ss, np.where(err > 0, np.inf, -np.inf)))
    tiny = (np.abs(s) < _F32_TINY) & (s != 0)
    if tiny.any():
        s = np.array(s, ndmin=1)
        s[tiny.reshape(s.shape)] = _fma_exact(a, b, c, tiny, 24, -126)
        s = s.reshape(np.shape(tiny))
    return s.astype(np.float32)


_F32_TINY = 2.0 ** -125  # (float32's smallest normal is 2**-126: a margin for the rounding)


def _fma_exact(a, b, c, where, p, emin):
    """``a * b + c`` at the elements ``where``, rounded once (ties to even) to a float
    with ``p`` mantissa bits and smallest normal exponent ``emin`` (24, -126: float32;
    53, -1022: float64), as float64 values; with exact rational arithmetic, one element
    at a time (only for the rare tiny or huge elements the fast paths cannot round)."""
    from fractions import Fraction
    shape = np.shape(where)
    args = [np.broadcast_to(np.asarray(v, np.float64), shape)[where] for v in (a, b, c)]
    out = []
    for x, y, z in zip(*(v.tolist() for v in args)):
        exact = Fraction(x) * Fraction(y) + Fraction(z)
        if exact == 0:
            out.append(x * y + z)  # (an exact zero: IEEE's sign rule, as the float sum has it)
            continue
        e = exact.numerator.bit_length() - exact.denominator.bit_length()
        if abs(exact) < Fraction(2) ** e:
            e -= 1  # now 2**e <= |exact| < 2**(e + 1)
        ulp = Fraction(2) ** (max(e, emin) - p + 1)
        r = round(exact / ulp) * ulp  # (round() of a Fraction ties to even)
        try:
            out.append(float(r) if r else math.copysign(0.0, exact))  # (underflow: signed)
        except OverflowError:
            out.append(math.inf if r > 0 else -math.inf)
    return np.array(out, np.float64)


def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a):
    c = 134217729.0 * a  # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi


def _fma64(a, b, c):
    """Correctly rounded float64 ``a * b + c`` (Boldo-Melquiond: exact product and sum,
    the low parts added with rounding to odd). The splitting is exact only away from
    underflow and overflow: tiny products or results and huge operands are computed
    exactly (_fma_exact); a zero product adds as a float sum (signed zeros)."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
    uh = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    ul = ((ah * bh - uh) + ah * bl + al * bh) + al * bl
    th, tl = _two_sum(c, uh)
    v, ve = _two_sum(tl, ul)
    v = _nudge_odd(v, ve)
    res = th + v
    with np.errstate(invalid="ignore"):
        zero = (a == 0) | (b == 0)
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        plain = zero | ~finite  # (the float expression is exact, or infinities/NaNs)
        slow = ~plain & ((np.abs(uh) < _F64_TINY) | (np.abs(res) < _F64_TINY)
                         | ~np.isfinite(res) | (np.abs(a) > _F64_HUGE)
                         | (np.abs(b) > _F64_HUGE))
    if plain.any():
        res = np.where(plain, a * b + c, res)
    if slow.any():
        res = np.array(res, ndmin=1)
        res[slow.reshape(res.shape)] = _fma_exact(a, b, c, slow, 53, -1022)
        res = res.reshape(a.shape)
    return res


_F64_TINY = 2.0 ** -960  # below it the error terms of the splitting underflow
_F64_HUGE = 2.0 ** 995  # above it 134217729 * x overflows


def _affine64(x, std, mean):
    """``fma(x, std, mean)`` elementwise in float64, with the cheap exact special cases."""
    x = np.asarray(x, np.float64)
    if std == 1.0:
        return x + mean
    if mean == 0.0:
        return x * std + 0.0
    return _fma64(x, std, mean)


def _affine32(x, std, mean):
    """``fma(x, std, mean)`` elementwise in float32 (std, mean already float32)."""
    if std == 1.0:
        return (x + mean).astype(np.float32)
    if mean == 0.0:
        return (x * std + np.float32(0)).astype(np.float32)
    return _fma32(x, std, mean)


# --------------------------------------------------------------------------------------
# float64 libm functions
# --------------------------------------------------------------------------------------
# PyTorch's float64 kernels call the C library's log, log1p, sin and cos.  NumPy's float64
# ufuncs call the same functions on AVX2-level CPUs, but on AVX-512 CPUs they may dispatch
# to their own SIMD code (SVML), whose last bit can differ.  There, or if a sample check
# disagrees, the values are computed with Python's ``math`` module (the C library itself),
# element by element: slower, but bit-exact.

def _safe_log(v: float) -> float:
    if v > 0:
        return math.log(v)
    return -math.inf if v == 0 else math.nan


def _safe_log1p(v: float) -> float:
    if v > -1:
        return math.log1p(v)
    return -math.inf if v == -1 else math.nan


def _safe_exp(v: float) -> float:
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


_MATH = {"log": _safe_log, "log1p": _safe_log1p, "sin": math.sin, "cos": math.cos,
         "tan": math.tan, "exp": _safe_exp}
_use_math = {}  # name -> True where NumPy's ufunc is not the C library's


def _numpy_uses_libm(name: str) -> bool:
    core = getattr(np, "_core", None) or getattr(np, "core", None)
    umath = getattr(core, "_multiarray_umath", None)
    feats = getattr(umath, "__cpu_features__", {}) or {}
    if any(feats.get(k) for k in ("AVX512F", "AVX512_SKX")):
        return False
    x = (np.arange(1, 6001, dtype=np.float64) * 0.6180339887498949) % 1.0
    arg = {"log1p": -x, "sin": x * (2 * math.pi), "cos": x * (2 * math.pi),
           "tan": math.pi * (x - 0.5), "exp": 40.0 * x - 20.0}.get(name, x)
    ref = np.array([_MATH[name](v) for v in arg.tolist()], dtype=np.float64)
    return bool(np.array_equal(getattr(np, name)(arg), ref))


def _libm(name: str, x):
    """The C library's float64 ``name`` (log, log1p, sin, cos, tan or exp), elementwise."""
    use_math = _use_math.get(name)
    if use_math is None:
        try:
            use_math = not _numpy_uses_libm(name)
        except Exception:  # noqa: BLE001 -- be exact rather than fast
            use_math = True
        _use_math[name] = use_math
    x = np.asarray(x, dtype=np.float64)
    if not use_math:
        return getattr(np, name)(x)
    f = _MATH[name]
    return np.fromiter(map(f, x.ravel().tolist()), np.float64, count=x.size).reshape(x.shape)


# --------------------------------------------------------------------------------------
# Generator
# --------------------------------------------------------------------------------------

def _init_key(seed32: int):
    key = [0] * _N
    key[0] = x = seed32 & 0xFFFFFFFF
    for j in range(1, _N):
        x = (1812433253 * (x ^ (x >> 30)) + j) & 0xFFFFFFFF
        key[j] = x
    return np.array(key, dtype=np.uint32)


def _nondeterministic_seed() -> int:
    return int.from_bytes(os.urandom(8), "little")


class Generator:
    """A CPU random generator with PyTorch's ``torch.Generator`` interface and streams."""

    def __init__(self, device="cpu"):
        if str(device) != "cpu":
            raise RuntimeError(f"autotensor.Generator supports only the cpu device, got {device}")
        self.device = "cpu"
        self._lock = threading.RLock()
        self._bitgen = np.random.MT19937(0)
        self.manual_seed(DEFAULT_SEED)

    # -- seeding ---------------------------------------------------------------------
    def manual_seed(self, seed) -> "Generator":
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        if seed < -(1 << 63) or seed > _U64_MASK:
            raise ValueError("Overflow when unpacking long long")
        seed &= _U64_MASK
        with self._lock:
            self._seed = seed
            self._set_engine(_init_key(seed), 0, fresh=True)
            self._next_double_normal = None
            self._next_float_normal = None
        return self

    def seed(self) -> int:
        s = _nondeterministic_seed()
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    # -- state -----------------------------------------------------------------------
    def _set_engine(self, key, pos: int, fresh: bool):
        self._bitgen.state = {
            "bit_generator": "MT19937",
            "state": {"key": np.asarray(key, dtype=np.uint32), "pos": _N if fresh else pos},
        }
        self._fresh = fresh

    def get_state(self):
        """PyTorch's ``CPUGeneratorImplState`` bytes, as a uint8 array of 5056 elements."""
        with self._lock:
            st = self._bitgen.state["state"]
            key = np.asarray(st["key"], dtype=np.uint32)
            pos = int(st["pos"])
            if self._fresh:
                left, nxt = 1, 0
            else:
                left, nxt = _N + 1 - pos, pos
            buf = bytearray(_STATE_SIZE)
            struct.pack_into("<QiiQ", buf, 0, self._seed, left, 1, nxt)
            buf[24:24 + 8 * _N] = key.astype("<u8").tobytes()
            off = 24 + 8 * _N
            normal_y = self._next_double_normal
            struct.pack_into("<dddi", buf, off, 0.0, 0.0 if normal_y is None else normal_y, 0.0,
                             0 if normal_y is None else 1)
            nf = self._next_float_normal
            struct.pack_into("<f?", buf, off + 32, 0.0 if nf is None else nf, nf is not None)
            return np.frombuffer(bytes(buf), dtype=np.uint8).copy()

    def set_state(self, new_state) -> "Generator":
        if isinstance(new_state, (bytes, bytearray)):
            data = bytes(new_state)
        else:
            data = np.asarray(new_state, dtype=np.uint8).ravel().tobytes()
        if len(data) != _STATE_SIZE:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but found the input "
                f"RNG state size to be {len(data)}"
            )
        seed, left, seeded, nxt = struct.unpack_from("<QiiQ", data, 0)
        if not (seeded and 0 < left <= _N and nxt <= _N):
            raise RuntimeError("Invalid mt19937 state")
        key = np.frombuffer(data, dtype="<u8", count=_N, offset=24).astype(np.uint32)
        off = 24 + 8 * _N
        _, normal_y, _, normal_valid = struct.unpack_from("<dddi", data, off)
        nf, nf_valid = struct.unpack_from("<f?", data, off + 32)
        with self._lock:
            self._seed = seed
            # torch: the next word is state[next] after --left; a twist happens when left
            # reaches 0.  NumPy: a twist happens when pos == 624.
            fresh = left == 1 and nxt == 0
            self._set_engine(key, _N + 1 - left, fresh=fresh)
            self._next_double_normal = float(normal_y) if normal_valid else None
            self._next_float_normal = float(nf) if nf_valid else None
        return self

    def __repr__(self):
        return f"<autotensor.Generator object at {hex(id(self))}>"

    # -- raw words -------------------------------------------------------------------
    def _raw32(self, n: int):
        """``n`` successive ``random()`` words, as uint64."""
        if n <= 0:
            return np.zeros(0, dtype=np.uint64)
        self._fresh = False
        return self._bitgen.random_raw(n)

    def _raw64(self, n: int):
        """``n`` successive ``random64()`` words (high word drawn first)."""
        if n <= 0:
            return np.zeros(0, dtype=np.uint64)
        r = self._raw32(2 * n)
        return (r[0::2] << np.uint64(32)) | r[1::2]


_VMAP_RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please "
                      "either use the 'same' or 'different' randomness flags on vmap or "
                      "perform the randomness operation out of vmap")
_vmap_modes = []  # the randomness of each enclosing vmap, innermost last


@contextlib.contextmanager
def vmap_randomness(mode):
    """Inside ``vmap(..., randomness=mode)``: 'error' makes every draw raise PyTorch's error
    (Note [vmap as a loop] in func/_vmap.py)."""
    _vmap_modes.append(mode)
    try:
        yield
    finally:
        _vmap_modes.pop()


def _gen(generator) -> Generator:
    if _vmap_modes and _vmap_modes[-1] == "error":
        raise RuntimeError(_VMAP_RANDOM_ERROR)
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"expected an autotensor Generator, got {type(generator).__name__}")
    return generator


# --------------------------------------------------------------------------------------
# uniform words -> floats
# --------------------------------------------------------------------------------------

def _u24(g: Generator, n: int):
    """``uniform_real_distribution<float>(0, 1)``: n float32 values in [0, 1)."""
    w = g._raw32(n) & np.uint64(0xFFFFFF)
    return w.astype(np.float32) * np.float32(2.0 ** -24)


def _u53(g: Generator, n: int):
    """``uniform_real_distribution<double>(0, 1)``: n float64 values in [0, 1)."""
    w = g._raw64(n) & np.uint64((1 << 53) - 1)
    return w.astype(np.float64) * (2.0 ** -53)


# --------------------------------------------------------------------------------------
# uniform / rand
# --------------------------------------------------------------------------------------

def _check_bounds(low, high, dt):
    info = np.finfo(dt)
    lo_, hi_ = float(info.min), float(info.max)
    cpp = _CPP_NAMES.get(dt.name, dt.name)
    if not (lo_ <= low <= hi_):
        raise RuntimeError(f"from is out of bounds for {cpp}")
    if not (lo_ <= high <= hi_):
        raise RuntimeError(f"to is out of bounds for {cpp}")
    if not low <= high:
        raise RuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={_fmt(low)} > "
            f"to={_fmt(high)}"
        )
    if not (high - low) <= hi_:
        raise RuntimeError(
            f"uniform_ expects to-from <= std::numeric_limits<{_torch_name(dt)}>::max(), but "
            f"found to={_fmt(high)} and from={_fmt(low)} which result in to-from to exceed the "
            "limit"
        )


def uniform(low=0.0, high=1.0, shape=(), np_dtype=None, generator=None):
    """``torch.empty(shape, dtype).uniform_(low, high)``."""
    dt = _dtype(np_dtype, np.float32)
    shape = _shape(shape)
    if dt.kind == "c":
        comp = np.float32 if dt == np.complex64 else np.float64
        return uniform(low, high, shape + (2,), comp, generator).view(dt).reshape(shape)
    _check_float_dtype(dt, "check_uniform_bounds")
    low, high = float(low), float(high)
    _check_bounds(low, high, dt)
    n = _numel(shape)
    g = _gen(generator)
    if n == 0:
        return np.zeros(shape, dtype=dt)
    with g._lock:
        if dt == np.float64:
            x = _u53(g, n)
            if low == 0.0 and high == 1.0:
                v = x
            else:
                v = _fma64(x, high - low, low)
            to_s, from_s = high, low
        else:
            x = _u24(g, n)
            f, t = np.float32(low), np.float32(high)
            if f == 0 and t == 1:
                v = x
            else:
                v = _fma32(x, t - f, f)
            if dt.name in _REDUCED:
                v = v.astype(dt)
                to_s, from_s = _to_reduced(high, dt), _to_reduced(low, dt)
            else:
                to_s, from_s = t, f
    v = np.where(v == to_s, np.asarray(from_s, dtype=v.dtype), v)
    return v.astype(dt, copy=False).reshape(shape)


def rand(shape=(), np_dtype=None, generator=None):
    """``torch.rand(shape, dtype=...)``: uniform on [0, 1)."""
    return uniform(0.0, 1.0, shape, np_dtype, generator)


# --------------------------------------------------------------------------------------
# normal / randn
# --------------------------------------------------------------------------------------

_F32 = np.float32
_C = {k: _F32(v) for k, v in dict(
    min_norm=1.17549435e-38, SQRTHF=0.707106781186547524,
    p0=7.0376836292e-2, p1=-1.1514610310e-1, p2=1.1676998740e-1, p3=-1.2420140846e-1,
    p4=1.4249322787e-1, p5=-1.6668057665e-1, p6=2.0000714765e-1, p7=-2.4999993993e-1,
    p8=3.3333331174e-1, q1=-2.12194440e-4, q2=0.693359375,
    FOPI=1.27323954473516, DP1=-0.78515625, DP2=-2.4187564849853515625e-4,
    DP3=-3.77489497744594108e-8,
    s0=-1.9515295891e-4, s1=8.3321608736e-3, s2=-1.6666654611e-1,
    c0=2.443315711809948e-005, c1=-1.388731625493765e-003, c2=4.166664568298827e-002,
    twopi=2.0 * math.pi,
).items()}


def _fill16_f32(d, mean, std):
    """``NormalFill16<float>`` (AVX2): ``d`` is (blocks, 16) float32 uniforms.

    ``log256_ps`` and ``sincos256_ps`` of ``avx_mathfun.h``, operation by operation as in
    PyTorch's compiled binary, where GCC fused ``a * b + c`` pairs into FMAs."""
    one = _F32(1.0)
    u1 = one - d[:, :8]
    theta = _C["twopi"] * d[:, 8:]
    # ---- log256_ps(u1)
    invalid = u1 <= 0
    x = np.maximum(u1, _C["min_norm"])
    xi = x.view(np.int32)
    e = ((xi >> 23) - 127).astype(np.float32) + one
    x = ((xi & np.int32(~0x7F800000)) | np.int32(0x3F000000)).view(np.float32)
    mask = x < _C["SQRTHF"]
    tmp = np.where(mask, x, _F32(0))
    e = e - np.where(mask, one, _F32(0))
    x = (x + _F32(-1.0)) + tmp
    z = x * x
    y = _fma32(_C["p0"], x, _C["p1"])
    for k in ("p2", "p3", "p4", "p5", "p6", "p7", "p8"):
        y = _fma32(y, x, _C[k])
    t = e * _C["q1"]
    y = x * y
    y = _fma32(y, z, t)
    y = _fma32(-z, _F32(0.5), y)
    x = x + y
    lg = _fma32(e, _C["q2"], x)
    if invalid.any():
        lg = np.where(invalid, _F32(np.nan), lg)
    radius = np.sqrt(lg * _F32(-2.0))
    # ---- sincos256_ps(theta)
    sign_sin = theta.view(np.int32) & np.int32(-0x80000000)
    ax = np.abs(theta)
    j = (ax * _C["FOPI"]).astype(np.int32)
    j = (j + 1) & np.int32(~1)
    yj = j.astype(np.float32)
    sign_sin = sign_sin ^ ((j & 4) << 29)
    poly = (j & 2) == 0
    x = _fma32(yj, _C["DP1"], ax)
    x = _fma32(_C["DP2"], yj, x)
    x = _fma32(yj, _C["DP3"], x)
    sign_cos = (~(j - 2) & 4) << 29
    z = x * x
    tmp = z * _F32(0.5)
    y = _fma32(_C["c0"], z, _C["c1"])
    y = _fma32(y, z, _C["c2"])
    y = z * y
    y = _fma32(z, y, -tmp)
    y = y + one
    y2 = _fma32(_C["s0"], z, _C["s1"])
    y2 = _fma32(y2, z, _C["s2"])
    y2 = z * y2
    y2 = _fma32(x, y2, x)
    sin = np.where(poly, y2, y)
    cos = np.where(poly, y, y2)
    sin = (sin.view(np.int32) ^ sign_sin).view(np.float32)
    cos = (cos.view(np.int32) ^ sign_cos).view(np.float32)
    out = np.empty_like(d)
    out[:, :8] = _affine32(radius * cos, std, mean)
    out[:, 8:] = _affine32(radius * sin, std, mean)
    return out


def _fill16_f64(d, mean, std):
    """``NormalFill16<double>``: libm log/cos/sin, ``std::fma(r * cos, std, mean)``."""
    u1 = 1.0 - d[:, :8]
    u2 = d[:, 8:]
    radius = np.sqrt(-2.0 * _libm('log', u1))
    theta = (2.0 * math.pi) * u2
    out = np.empty_like(d)
    out[:, :8] = _affine64(radius * _libm('cos', theta), std, mean)
    out[:, 8:] = _affine64(radius * _libm('sin', theta), std, mean)
    return out


_CHUNK = 4096  # blocks of 16 per vectorised step: keeps the temporaries in cache


def _fill_blocks(fill, data, mean, std):
    """Apply ``fill`` to the (blocks, 16) array ``data`` in place, chunk by chunk."""
    for i in range(0, data.shape[0], _CHUNK):
        data[i:i + _CHUNK] = fill(data[i:i + _CHUNK], mean, std)
    return data


def _normal_fill(g: Generator, n: int, dt, mean: float, std: float):
    """``normal_fill`` (contiguous, n >= 16)."""
    nb = n // 16
    if dt == np.float64:
        fill, uni, mean_, std_ = _fill16_f64, _u53, mean, std
    else:
        fill, uni, mean_, std_ = _fill16_f32, _u24, _F32(mean), _F32(std)
    if dt.name not in _REDUCED:
        # float/double: all n uniforms into the output, Box-Muller in place, then the last
        # 16 values recomputed from 16 fresh uniforms
        data = uni(g, n)
        if nb:
            _fill_blocks(fill, data[:nb * 16].reshape(nb, 16), mean_, std_)
        if n % 16:
            data[n - 16:] = fill(uni(g, 16).reshape(1, 16), mean_, std_).ravel()
        return data
    # half: computed in float through a 16-element buffer, block by block
    data = np.empty(n, dtype=dt)
    if nb:
        data[:nb * 16] = _fill_blocks(fill, uni(g, nb * 16).reshape(nb, 16), mean_, std_).ravel()
    if n % 16:
        data[n - 16:] = fill(uni(g, 16).reshape(1, 16), mean_, std_).ravel()
    return data


def _normal_scalar(g: Generator, n: int, mean: float, std: float):
    """``n`` draws of ``normal_distribution<double>(mean, std)`` (float64 results)."""
    out = np.empty(n, dtype=np.float64)
    if n == 0:
        return out
    i = 0
    if g._next_double_normal is not None:
        out[0] = g._next_double_normal
        g._next_double_normal = None
        i = 1
    m = n - i
    if m:
        pairs = (m + 1) // 2
        u = _u53(g, 2 * pairs)
        u1, u2 = u[0::2], u[1::2]
        r = np.sqrt(-2.0 * _libm('log1p', -u2))
        theta = (2.0 * math.pi) * u1
        vals = np.empty(2 * pairs, dtype=np.float64)
        vals[0::2] = r * _libm('cos', theta)
        vals[1::2] = r * _libm('sin', theta)
        out[i:] = vals[:m]
        if m % 2:
            g._next_double_normal = float(vals[-1])
    return _affine64(out, std, mean)


def _normal_kernel(g: Generator, n: int, dt, mean: float, std: float, contiguous=True):
    """``normal_kernel``: a flat array of ``n`` values of dtype ``dt`` (the vectorised fill
    for a contiguous tensor of 16 or more elements, else the serial kernel)."""
    if n == 0:
        return np.zeros(0, dtype=dt)
    with g._lock:
        if n >= 16 and contiguous:
            return _normal_fill(g, n, dt, mean, std)
        return _cast_from_double(_normal_scalar(g, n, mean, std), dt)


def _check_std(std):
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_fmt(std)}")


def _normal_(shape, dt, mean, std, g, contiguous=True):
    """``torch.empty(shape, dtype).normal_(mean, std)`` (including complex dtypes)."""
    _check_std(std)
    if dt.kind == "c":
        comp = np.dtype(np.float32 if dt == np.complex64 else np.float64)
        flat = _normal_kernel(g, 2 * _numel(shape), comp, mean, std / math.sqrt(2), contiguous)
        return flat.view(dt).reshape(shape)
    _check_float_dtype(dt, "normal_kernel_cpu")
    return _normal_kernel(g, _numel(shape), dt, mean, std, contiguous).reshape(shape)


def randn(shape=(), np_dtype=None, generator=None, contiguous=True):
    """``torch.randn(shape, dtype=...)``: standard normal (``contiguous=False``: drawn by
    the serial kernel, as into a non-contiguous tensor)."""
    return _normal_(_shape(shape), _dtype(np_dtype, np.float32), 0.0, 1.0, _gen(generator),
                    contiguous)


def in_memory_order(draw, shape, strides, *arrays):
    """``draw(shape, *arrays)``'s values placed as PyTorch's CPU fills write them into a
    tensor of element ``strides`` (None: contiguous): along TensorIterator's order, memory
    order for a dense tensor, not the logical one. ``draw`` gets the shape, and the
    ``arrays`` (its per-element parameters) broadcast and transposed, in that order."""
    if strides is None:
        return draw(shape, *arrays)
    from ._ops.layout import iteration_order
    order = iteration_order(shape, strides)
    if order == list(range(len(shape))):
        return draw(shape, *arrays)
    v = draw(tuple(shape[d] for d in order),
             *[np.broadcast_to(a, shape).transpose(order) for a in arrays])
    return np.transpose(v, np.argsort(order))


def like_order(draw, a, *arrays):
    """``in_memory_order`` for ``empty_like(a)`` (the fills of the ``*_like`` factories,
    dropout's noise, multinomial's exponentials)."""
    from ._ops.layout import like_strides
    return in_memory_order(draw, a.shape, like_strides(a), *arrays)


def normal(mean=0.0, std=1.0, shape=None, np_dtype=None, generator=None, contiguous=True):
    """``torch.normal``.

    Scalar ``mean`` and ``std``: ``torch.normal(mean, std, size=shape)`` (``shape``
    required, dtype float32 by default).  Array ``mean`` and/or ``std``: PyTorch's tensor
    overloads (normal(0, 1) samples, then ``* std`` and ``+ mean`` as separate rounded
    operations, exactly as ATen does), with the broadcast shape and the dtype of ``mean``
    (or of ``std`` when only it is an array) unless ``np_dtype`` is given."""
    g = _gen(generator)
    mean_arr = isinstance(mean, np.ndarray)
    std_arr = isinstance(std, np.ndarray)
    if not mean_arr and not std_arr:
        if shape is None:
            raise TypeError("normal() with scalar mean and std needs a shape")
        return _normal_(_shape(shape), _dtype(np_dtype, np.float32), float(mean), float(std), g,
                        contiguous)
    if std_arr:
        if std.dtype.kind == "c":
            raise RuntimeError("normal expects standard deviation to be non-complex")
        if std.size and not (std.min() >= 0):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    if mean_arr and not std_arr:
        std = float(std)
        _check_std(std)
        dt = _dtype(np_dtype, mean.dtype)
        out_shape = mean.shape if shape is None else _shape(shape)
        out_shape = np.broadcast_shapes(mean.shape, out_shape)
        out = _normal_(out_shape, dt, 0.0, std, g)
        return (out + mean).astype(dt, copy=False)
    if std_arr and not mean_arr:
        dt = _dtype(np_dtype, std.dtype)
        out_shape = std.shape if shape is None else np.broadcast_shapes(std.shape, _shape(shape))
        out = _normal_(out_shape, dt, 0.0, 1.0, g)
        out = (out * std).astype(dt, copy=False)
        return (out + np.asarray(mean, dtype=dt)).astype(dt, copy=False)
    dt = _dtype(np_dtype, mean.dtype)
    out_shape = np.broadcast_shapes(mean.shape, std.shape)
    out = _normal_(out_shape, dt, 0.0, 1.0, g)
    out = (out * std).astype(dt, copy=False)
    return (out + mean).astype(dt, copy=False)


# --------------------------------------------------------------------------------------
# randint
# --------------------------------------------------------------------------------------

def _cast_roundtrip(v: int, dt) -> int:
    """``static_cast<int64_t>(static_cast<scalar_t>(v))`` as x86-64 computes it (an
    infinite or out-of-range value converts to INT64_MIN)."""
    with np.errstate(over="ignore"):
        f = float(_int64_to(np.array(v, dtype=np.float64), dt))
    if not math.isfinite(f) or not -(2.0 ** 63) <= f < 2.0 ** 63:
        return -(1 << 63)
    return int(f)


def _update_from(frm: int, digits: int, dt) -> int:
    plus1 = _cast_roundtrip(frm + 1, dt)
    if plus1 < frm:
        k = abs(frm + 1).bit_length() - 1
        frm = plus1 + (1 << (k - digits + 1))
    return frm


def _update_to(to: int, digits: int, dt) -> int:
    minus1 = _cast_roundtrip(to - 1, dt)
    if minus1 >= to:
        k = abs(to - 1).bit_length() - 1
        to = minus1 - (1 << (k - digits + 1))
    return to


def _check_from_to_in_range(frm: int, to_inc: int, dt):
    cpp = _CPP_NAMES.get(dt.name, dt.name)
    if _is_float(dt):
        lo_, hi_ = -_FMAX[dt.name], _FMAX[dt.name]
    elif dt == np.bool_:
        lo_, hi_ = 0, 1
    elif dt == np.uint64:
        lo_, hi_ = 0, (1 << 63) - 1
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        lo_, hi_ = int(info.min), int(info.max)
    else:
        raise RuntimeError(
            "check_random_bounds handles only integral, floating-point and boolean types")
    if not (lo_ <= frm <= hi_):
        raise RuntimeError(f"from is out of bounds for {cpp}")
    if not (lo_ <= to_inc <= hi_):
        raise RuntimeError(f"to - 1 is out of bounds for {cpp}")


def randint(low, high, shape=(), np_dtype=None, generator=None):
    """``torch.randint(low, high, shape, dtype=...)``: integers in [low, high)."""
    dt = _dtype(np_dtype, np.int64)
    shape = _shape(shape)
    low, high = int(low), int(high)
    if not low < high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    if _is_float(dt):
        digits = _DIGITS[dt.name]
        low = _update_from(low, digits, dt)
        high = _update_to(high, digits, dt)
        if not low < high:
            raise RuntimeError(
                "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, "
                f"but got from={low} >= to={high}")
    elif dt.kind not in "iub":
        raise RuntimeError(
            "check_random_bounds handles only integral, floating-point and boolean types")
    _check_from_to_in_range(low, high - 1, dt)
    return _random_from_to(_gen(generator), shape, dt, (high - low) & _U64_MASK, low)


def _random_from_to(g: Generator, shape, dt, rng: int, base: int):
    """``uniform_int_from_to_distribution``: ``(word % rng) + base``, one 32-bit word per
    value when ``rng < 2**28``, a 64-bit one otherwise (``rng == 0`` means 2**64)."""
    n = _numel(shape)
    if n == 0:
        return np.zeros(shape, dtype=dt)
    with g._lock:
        if rng == 0 or rng >= 1 << 28:
            w = g._raw64(n)
        else:
            w = g._raw32(n)
    if rng:
        w = w % np.uint64(rng)
    v = (w + np.uint64(base & _U64_MASK)).view(np.int64)
    return _int64_to(v, dt).reshape(shape)


def _int64_to(v, dt):
    if dt.name in _REDUCED:  # static_cast<c10::Half>(int64_t) goes through float
        v = v.astype(np.float32)
    if dt == np.bool_:
        return v != 0
    return v.astype(dt)


def random_(shape=(), np_dtype=None, low=None, high=None, generator=None):
    """``torch.empty(shape, dtype).random_(...)``.

    No bounds: ``random_()``: [0, 2**mantissa] for floating dtypes, [0, max] for integer
    ones.  ``high`` only: ``random_(high)`` = [0, high).  Both: ``random_(low, high)`` =
    [low, high).  ``low`` only: ``random_(low, None)`` = [low, max] (the whole int64 range
    when ``low`` is -2**63)."""
    dt = _dtype(np_dtype, np.float32)
    shape = _shape(shape)
    g = _gen(generator)
    if high is not None:
        return randint(0 if low is None else low, high, shape, dt, g)
    if low is not None:
        low = int(low)
        if low == -(1 << 63):
            # uniform_int_full_range_distribution: static_cast<int64_t>(random64())
            if _numel(shape) == 0:
                return np.zeros(shape, dtype=dt)
            if dt.name not in ("float64", "float32", "bfloat16", "int64", "int32", "int16",
                               "int8", "uint8"):
                raise NotImplementedError('"random_full_64_bits_range_kernel_cpu" not '
                                          f"implemented for '{_torch_name(dt)}'")
            if dt.name not in ("int64", "float32", "float64", "bfloat16"):
                raise RuntimeError("random_full_64_bits_range_kernel_cpu handles only int64, "
                                   "double, float and bfloat16")
            with g._lock:
                w = g._raw64(_numel(shape))
            return _int64_to(w.view(np.int64), dt).reshape(shape)
        if _is_float(dt):
            digits = _DIGITS[dt.name]
            to_inc = min(1 << digits, (1 << 63) - 1)
            low = _update_from(low, digits, dt)
            if not low < to_inc:
                raise RuntimeError(
                    "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' "
                    f"casted to dtype, but got from={low} > to_inc={to_inc}")
        elif dt == np.bool_:
            to_inc = 1
        elif dt.kind in "iu":
            to_inc = int(np.iinfo(dt).max)
        else:
            raise RuntimeError(
                "random_from_to_impl handles only integral, floating-point and boolean types")
        _check_from_to_in_range(low, to_inc, dt)
        return _random_from_to(g, shape, dt, (to_inc - low + 1) & _U64_MASK, low)
    # uniform_int_distribution
    n = _numel(shape)
    if n == 0:
        return np.zeros(shape, dtype=dt)
    if _is_float(dt):
        mod = (1 << _DIGITS[dt.name]) + 1
    elif dt == np.bool_:
        mod = 2
    elif dt.kind == "i" or dt == np.uint8:
        mod = int(np.iinfo(dt).max) + 1
    else:
        raise NotImplementedError(
            f"\"random_kernel_cpu\" not implemented for '{_torch_name(dt)}'")
    with g._lock:
        w = g._raw64(n) if dt.name in ("float64", "int64", "uint64") else g._raw32(n)
    v = (w % np.uint64(mod)).view(np.int64)
    return _int64_to(v, dt).reshape(shape)


# --------------------------------------------------------------------------------------
# randperm
# --------------------------------------------------------------------------------------

def randperm(n, np_dtype=None, generator=None):
    """``torch.randperm(n, dtype=...)``."""
    dt = _dtype(np_dtype, np.int64)
    n = int(n)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if dt == np.bool_ or dt.kind not in "iuf":
        raise NotImplementedError(f"\"randperm\" not implemented for '{_torch_name(dt)}'")
    if dt == np.float16 and n > 2049:
        raise RuntimeError("n cannot be greater than 2049 for Half type.")
    if dt.kind in "iu" and n > 0 and n - 1 > np.iinfo(dt).max:
        raise RuntimeError(
            f"value cannot be converted to type {_CTYPE_NAMES.get(dt.name, dt.name)} without "
            "overflow")
    g = _gen(generator)
    with g._lock:
        if n < 0xFFFFFFFF // 20:
            # for i in 0..n-2: z = random() % (n - i); swap(r[i], r[i + z])
            if n > 1:
                i = np.arange(n - 1, dtype=np.uint64)
                z = (g._raw32(n - 1) % (np.uint64(n) - i) + i).tolist()
                r = list(range(n))
                for a, b in enumerate(z):
                    r[a], r[b] = r[b], r[a]
                res = np.array(r, dtype=np.int64)
            else:
                res = np.arange(n, dtype=np.int64)
        else:
            # "inside-out" Fisher-Yates with random64() % (i + 1)
            z = (g._raw64(n) % (np.arange(n, dtype=np.uint64) + np.uint64(1))).tolist()
            r = [0] * n
            for a, b in enumerate(z):
                r[a] = r[b]
                r[b] = a
            res = np.array(r, dtype=np.int64)
    return res.astype(dt)


# --------------------------------------------------------------------------------------
# bernoulli, exponential, multinomial
# --------------------------------------------------------------------------------------

def bernoulli(p=0.5, shape=None, np_dtype=None, generator=None):
    """``torch.bernoulli``.

    Scalar ``p``: ``torch.empty(shape, dtype).bernoulli_(p)`` (dtype float32 by default).
    Array ``p``: ``torch.bernoulli(p)`` (``p`` broadcast to ``shape`` when given; the
    result has ``p``'s dtype unless ``np_dtype`` is given)."""
    g = _gen(generator)
    if isinstance(p, np.ndarray):
        pdt = p.dtype
        if not _is_float(pdt):
            raise NotImplementedError(
                f"\"bernoulli_tensor_cpu_p_\" not implemented for '{_torch_name(pdt)}'")
        shape = p.shape if shape is None else _shape(shape)
        dt = _dtype(np_dtype, pdt)
        pb = np.broadcast_to(p, shape)
        if pb.size and not bool(((pb >= 0) & (pb <= 1)).all()):
            raise RuntimeError(
                "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this "
                "error message be improved?  If so, please report an enhancement request to "
                "PyTorch.)")
        n = pb.size
        with g._lock:
            if pdt == np.float64:
                u = _u53(g, n)
                out = u < pb.ravel()
            else:
                u = _u24(g, n)
                out = u < pb.ravel().astype(np.float32)
        return out.astype(dt).reshape(shape)
    p = float(p)
    if not (0 <= p <= 1):
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_fmt(p)}")
    shape = _shape(shape)
    dt = _dtype(np_dtype, np.float32)
    n = _numel(shape)
    with g._lock:
        out = _u53(g, n) < p
    return out.astype(dt).reshape(shape)


def exponential(lambd=1.0, shape=(), np_dtype=None, generator=None):
    """``torch.empty(shape, dtype).exponential_(lambd)``."""
    dt = _dtype(np_dtype, np.float32)
    lambd = float(lambd)
    if not lambd > 0.0:  # (exponential_'s check, then the kernel's dtype check)
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_fmt(lambd)}")
    if not _is_float(dt):
        raise RuntimeError(
            "Exponential distribution is a continuous probability distribution. dtype must be "
            f"a floating point but you specified {_torch_name(dt)}")
    shape = _shape(shape)
    g = _gen(generator)
    n = _numel(shape)
    with g._lock:
        u = _u53(g, n)
    v = (-1.0 / lambd) * _libm('log1p', -u)
    return _cast_from_double(v, dt).reshape(shape)


def _serial_float_kernel(kernel: str, dt):
    """The dtype check of a serial ``AT_DISPATCH_FLOATING_TYPES_AND2(Half, BFloat16)``
    sampler (none for an empty tensor: PyTorch returns before dispatching)."""
    if not _is_float(dt):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_torch_name(dt)}'")


def cauchy(median=0.0, sigma=1.0, shape=(), np_dtype=None, generator=None):
    """``torch.empty(shape, dtype).cauchy_(median, sigma)``: ``cauchy_distribution<double>``,
    median + sigma * tan(pi * (u - 0.5)) for each uniform double u, drawn serially."""
    dt = _dtype(np_dtype, np.float32)
    median, sigma = float(median), float(sigma)
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_fmt(sigma)}")
    if not _is_float(dt):
        raise RuntimeError(
            "Cauchy distribution is a continuous probability distribution. dtype must be a "
            f"floating point but you specified {_CPP_NAMES.get(dt.name, dt.name)}")
    shape = _shape(shape)
    g = _gen(generator)
    with g._lock:
        u = _u53(g, _numel(shape))
    v = median + sigma * _libm('tan', math.pi * (u - 0.5))
    return _cast_from_double(v, dt).reshape(shape)


def log_normal(mean=1.0, std=2.0, shape=(), np_dtype=None, generator=None):
    """``torch.empty(shape, dtype).log_normal_(mean, std)``: ``lognormal_distribution<double>``,
    exp of a serial ``normal_distribution<double>`` draw (which shares the generator's cached
    second Box-Muller value with ``normal_``)."""
    dt = _dtype(np_dtype, np.float32)
    mean, std = float(mean), float(std)
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_fmt(std)}")
    shape = _shape(shape)
    n = _numel(shape)
    if n == 0:
        return np.zeros(shape, dtype=dt)
    _serial_float_kernel("log_normal_cpu", dt)
    g = _gen(generator)
    with g._lock:
        v = _normal_scalar(g, n, mean, std)
    return _cast_from_double(_libm('exp', v), dt).reshape(shape)


def geometric(p, shape=(), np_dtype=None, generator=None):
    """``torch.empty(shape, dtype).geometric_(p)``: ``ceil(log(u) / log1p(-p))`` for each
    uniform double u; integer dtypes get the value through C's double -> int64 -> narrower
    conversion (so int8/uint8 wrap, as on x86)."""
    dt = _dtype(np_dtype, np.float32)
    p = float(p)
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_fmt(p)}")
    shape = _shape(shape)
    n = _numel(shape)
    if n == 0:
        return np.zeros(shape, dtype=dt)
    if not (_is_float(dt) or dt.kind == "i" or dt == np.uint8):
        raise NotImplementedError(f"\"geometric_cpu\" not implemented for '{_torch_name(dt)}'")
    g = _gen(generator)
    with g._lock:
        u = _u53(g, n)
    v = np.ceil(_libm('log', u) / math.log1p(-p))
    if not _is_float(dt):
        return v.astype(np.int64).astype(dt).reshape(shape)
    return _cast_from_double(v, dt).reshape(shape)


def _c_lgamma(x: float) -> float:
    """The C library's ``lgamma`` (CPython's ``math.lgamma`` is its own, a few ulps apart:
    enough to flip the Poisson sampler's acceptance test at large rates)."""
    global _c_lgamma_fn
    if _c_lgamma_fn is None:
        try:
            import ctypes
            import ctypes.util
            f = ctypes.CDLL(ctypes.util.find_library("m") or None).lgamma
            f.restype, f.argtypes = ctypes.c_double, (ctypes.c_double,)
            _c_lgamma_fn = f
        except (OSError, AttributeError):  # (no C math library found: Python's)
            _c_lgamma_fn = math.lgamma
    return _c_lgamma_fn(x)


_c_lgamma_fn = None


class _UniformStream:
    """``uniform_real_distribution<double>(0, 1)`` one value at a time for a sampler whose
    number of draws depends on the values: drawn ahead in blocks, and ``close()`` rewinds the
    generator to just after the last value used."""

    def __init__(self, g: Generator):
        self.g, self.state, self.fresh = g, g._bitgen.state, g._fresh
        self.block, self.i, self.used = [], 0, 0

    def __call__(self) -> float:
        if self.i == len(self.block):
            self.block, self.i = _u53(self.g, 512).tolist(), 0
        self.i += 1
        self.used += 1
        return self.block[self.i - 1]

    def close(self):
        g = self.g
        g._bitgen.state, g._fresh = self.state, self.fresh
        g._raw32(2 * self.used)


def _sample_poisson(lam: float, uniform) -> int:
    """aten's ``sample_poisson`` (numpy's algorithm): Hoermann's transformed rejection for
    rates of 10 and more, Knuth's product of uniforms below, ``uniform()`` drawing as
    PyTorch's generator does (one ``random64()`` word each)."""
    if not lam >= 0:
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    if lam >= 10:
        slam = math.sqrt(lam)
        loglam = math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = uniform() - 0.5
            v = uniform()
            us = 0.5 - abs(u)
            k = (2 * a / us + b) * u + lam + 0.43
            # ((int64_t) floor(k): x86 gives INT64_MIN for an infinite or huge rate's k;
            # aten's compiled loop then draws as its optimiser decided: not emulated)
            k = int(k // 1) if -2.0 ** 63 <= k < 2.0 ** 63 else -2 ** 63
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if _safe_log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= \
                    -lam + k * loglam - _c_lgamma(k + 1.0):
                return k
    if lam == 0:
        return 0
    enlam = _safe_exp(-lam)
    x = 0
    prod = 1.0
    while True:
        prod *= uniform()
        if prod > enlam:
            x += 1
        else:
            return x


def poisson(rates, generator=None):
    """``torch.poisson``: one serial loop over the rates (a rejection sampler draws a varying
    number of words), in the order of its contiguous result."""
    dt = rates.dtype
    if not _is_float(dt):
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{_torch_name(dt)}'")
    g = _gen(generator)
    lam = rates.astype(np.float64).ravel().tolist()
    with g._lock:
        uniform = _UniformStream(g)
        try:
            out = np.array([_sample_poisson(v, uniform) for v in lam], dtype=np.float64)
        finally:
            uniform.close()
    return out.reshape(rates.shape).astype(dt)


def multinomial(probs, num_samples, replacement=False, generator=None):
    """``torch.multinomial(probs, num_samples, replacement)``: int64 indices."""
    probs = np.asarray(probs)
    n_sample = int(num_samples)
    if probs.dtype.kind != "f":
        raise RuntimeError(
            "multinomial only supports floating-point dtypes for input, got: "
            f"{_torch_name(probs.dtype)}")
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    n_cat = probs.shape[-1]
    if n_sample <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and n_sample > n_cat:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if n_cat > 1 << 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    g = _gen(generator)
    if probs.size == 0:
        return np.zeros(probs.shape[:-1] + (n_sample,), dtype=np.int64)
    if not replacement or n_sample == 1:
        if not (np.all(probs < np.inf) and np.all(probs >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if np.any(np.atleast_2d(probs).sum(axis=-1) == 0):
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        q = like_order(lambda shape: exponential(1.0, shape, probs.dtype, g), probs)
        q = (probs / q).astype(probs.dtype, copy=False)
        if n_sample == 1:
            return np.argmax(q, axis=-1)[..., None].astype(np.int64)
        return np.argsort(-q, axis=-1, kind="stable")[..., :n_sample].astype(np.int64)
    rows = np.atleast_2d(probs)
    acc = probs.dtype if probs.dtype != np.float16 else np.dtype(np.float32)
    out = np.empty((rows.shape[0], n_sample), dtype=np.int64)
    with g._lock:
        for i, row in enumerate(rows):
            if np.any(row < 0):
                raise RuntimeError(
                    "invalid multinomial distribution (encountering probability entry < 0)")
            if not np.all(np.isfinite(row)):
                raise RuntimeError("invalid multinomial distribution (encountering probability "
                                   "entry = infinity or NaN)")
            cum = np.cumsum(row.astype(acc), dtype=acc)
            total = cum[-1]
            if not total > 0:
                raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
            cum = (cum / total).astype(acc, copy=False)
            cum[-1] = 1
            u = _u53(g, n_sample)
            out[i] = np.searchsorted(cum.astype(np.float64), u, side="left")
    return out if probs.ndim == 2 else out[0]


# --------------------------------------------------------------------------------------
# the default generator and module-level seeding
# --------------------------------------------------------------------------------------

default_generator = Generator()
# PyTorch (2.x) seeds its default CPU generator nondeterministically at start-up.
default_generator.seed()


def manual_seed(seed) -> Generator:
    """``torch.manual_seed``: seeds the default generator, returns it."""
    return default_generator.manual_seed(int(seed))


def seed() -> int:
    """``torch.seed``: a nondeterministic seed for the default generator, returned."""
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state():
    return Generator.get_state(default_generator)  # the array (the tensor layer wraps it)


def set_rng_state(new_state) -> None:
    default_generator.set_state(new_state)


class _NormalStream:
    """``normal_distribution<double>(0, 1)`` one value at a time over a ``_UniformStream``:
    Box-Muller on two uniforms, the second value kept in the generator's cache for the next
    draw (as PyTorch's ``maybe_set_next_double_normal_sample``)."""

    def __init__(self, uniform):
        self.uniform, self.g = uniform, uniform.g

    def __call__(self) -> float:
        g = self.g
        if g._next_double_normal is not None:
            value, g._next_double_normal = g._next_double_normal, None
            return value
        u1, u2 = self.uniform(), self.uniform()
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        g._next_double_normal = r * math.sin(theta)
        return r * math.cos(theta)


_F32_THIRD = float(np.float32(1.0) / np.float32(3.0))  # (C++'s 1.0f / 3.0f)
_F32_0331 = float(np.float32(0.0331))


def _sample_gamma(alpha, uniform, normal, f32: bool) -> float:
    """aten's ``sample_gamma`` (Marsaglia and Tsang's rejection, boosted below 1), with its
    float literals: for a float32 ``alpha`` the boost and ``d`` are float32 arithmetic."""
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        inv = float(np.float32(1.0) / np.float32(alpha)) if f32 else 1.0 / alpha
        scale *= math.pow(1 - uniform(), inv)
        alpha = float(np.float32(alpha) + np.float32(1.0)) if f32 else alpha + 1.0
    d = float(np.float32(alpha) - np.float32(_F32_THIRD)) if f32 else alpha - _F32_THIRD
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        while True:
            x = normal()
            y = 1.0 + c * x
            if y > 0:
                break
        v = y * y * y
        u = 1 - uniform()
        xx = x * x
        if u < 1.0 - _F32_0331 * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def standard_gamma(alphas, generator=None, as_double=False):
    """``torch._standard_gamma``: one serial loop in the order of the contiguous result, each
    sample at least the dtype's smallest normal number. ``as_double``: the draws of
    ``_sample_dirichlet`` (alpha read as double, float64 samples)."""
    dt = alphas.dtype
    if not _is_float(dt) or dt.itemsize < 4:
        raise NotImplementedError(f"\"gamma_cpu\" not implemented for '{_torch_name(dt)}'")
    f32 = dt == np.float32 and not as_double
    tiny = float(np.finfo(np.float64 if as_double else dt).tiny)
    g = _gen(generator)
    values = alphas.astype(np.float64).ravel().tolist()
    with g._lock:
        uniform = _UniformStream(g)
        normal = _NormalStream(uniform)
        try:
            out = []
            for a in values:
                s = _sample_gamma(a, uniform, normal, f32)
                if not as_double:
                    s = float(np.asarray(s).astype(dt))
                out.append(max(tiny, s))
        finally:
            uniform.close()
    out = np.array(out, dtype=np.float64).reshape(alphas.shape)
    return out if as_double else out.astype(dt)


_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


_GAMMA_GRAD_COEF = ((0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115,
                     0.10406089, 0.0014179084),
                    (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465,
                     0.020070113, -0.0035938915, -0.00058392623),
                    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642,
                     -0.0021309326, 0.00085092367, -1.5247877e-07))
_F32_LITERAL = {v: float(np.float32(v)) for v in (0.8, 0.9, 1.1)}  # (0.8f, ...)


def _standard_gamma_grad_one(alpha: float, x: float) -> float:
    """aten's ``standard_gamma_grad_one``: -(d/dalpha cdf(x; alpha)) / pdf(x; alpha), the
    reparametrised gradient of a Gamma(alpha) sample x (Taylor series for small x, Rice's
    saddle point for large alpha, else a bivariate rational approximation). NumPy scalars:
    C's IEEE arithmetic (a zero alpha divides to inf, as in aten)."""
    with np.errstate(all="ignore"):
        return float(_gamma_grad_terms(np.float64(alpha), np.float64(x)))


def _gamma_grad_terms(alpha, x):
    if x < _F32_LITERAL[0.8]:
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = _safe_pow(x, alpha)
        gamma_pdf = _safe_pow(x, alpha - 1) * _safe_exp(-x)
        gamma_cdf = pow_x_alpha * series1
        digamma = _digamma_typed(alpha, _scalar(np.float64))
        gamma_cdf_alpha = (_safe_log(x) - digamma) * gamma_cdf - pow_x_alpha * series2
        result = -gamma_cdf_alpha / gamma_pdf
        return 0.0 if math.isnan(result) else result
    if alpha > 8.0:
        if _F32_LITERAL[0.9] * alpha <= x <= _F32_LITERAL[1.1] * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = 1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha + \
                alpha * (107 + 3600 * x)
            denom = 1244160 * (alpha * alpha) * (alpha * alpha)
            return numer_1 * numer_2 / denom
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = _safe_pow(x - alpha - alpha * _safe_log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = _safe_log(x / alpha) * term23 - \
            math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        return -stirling * (x * term1) / denom
    u = _safe_log(x / alpha)
    v = _safe_log(alpha)
    c0, c1, c2 = _GAMMA_GRAD_COEF
    cv = [c0[i] + u * (c1[i] + u * c2[i]) for i in range(8)]
    p = cv[0] + v * (cv[1] + v * (cv[2] + v * cv[3]))
    q = cv[4] + v * (cv[5] + v * (cv[6] + v * cv[7]))
    return _safe_exp(p / q)


def _safe_pow(a: float, b: float) -> float:
    try:
        return math.pow(a, b)
    except (OverflowError, ValueError):
        with np.errstate(all="ignore"):
            return float(np.power(np.float64(a), np.float64(b)))


def standard_gamma_grad(alphas, samples):
    """``torch._standard_gamma_grad`` elementwise (float32 inputs computed in double)."""
    a, x = np.broadcast_arrays(alphas, samples)
    out = [_standard_gamma_grad_one(p, q) for p, q in
           zip(a.astype(np.float64).ravel().tolist(), x.astype(np.float64).ravel().tolist())]
    return np.array(out, dtype=np.float64).reshape(a.shape).astype(alphas.dtype)


# --------------------------------------------------------------------------------------
# the Dirichlet reparametrised gradient (aten's dirichlet_grad_one, in its mixed precision)
# --------------------------------------------------------------------------------------

def _libm_float_fns():
    """C's ``logf``, ``powf``, ``tanf``, ``log1pf``: ``std::log``... on floats call them."""
    import ctypes
    import ctypes.util
    m = ctypes.CDLL(ctypes.util.find_library("m") or None)
    fns = {}
    for name, n in (("logf", 1), ("powf", 2), ("tanf", 1), ("log1pf", 1)):
        f = getattr(m, name)
        f.restype, f.argtypes = ctypes.c_float, (ctypes.c_float,) * n
        fns[name] = f
    return fns


class _Scalar:
    """C arithmetic in one scalar type: ``S`` rounds each step (np.float32 / np.float64);
    ``log``/``pow`` are the C library's for that type."""

    def __init__(self, np_type):
        self.S = np_type
        self.sqrt = lambda v: np.sqrt(np_type(v))  # (correctly rounded in either type)
        if np_type is np.float64:
            self.log1p = lambda v: np.float64(_safe_log1p(v))
            self.log = lambda v: np.float64(_safe_log(v))
            self.pow = lambda a, b: np.float64(_safe_pow(a, b))
        else:
            f = _libm_float_fns()
            self.log = lambda v: np.float32(f["logf"](v))
            self.pow = lambda a, b: np.float32(f["powf"](a, b))
            self.tan = lambda v: np.float32(f["tanf"](v))
            self.log1p = lambda v: np.float32(f["log1pf"](v))


_SCALARS = {}


def _scalar(np_type):
    if np_type not in _SCALARS:
        _SCALARS[np_type] = _Scalar(np_type)
    return _SCALARS[np_type]


def _digamma_typed(x, T):
    """``digamma_one<scalar_t, double>``: ``x`` and its recursion in scalar_t, the sums in
    double, the result rounded to scalar_t."""
    S, D = T.S, np.float64
    x = S(x)
    if x == 0:
        return S(np.inf)
    extra = D(0)
    if x < 0:
        if x == np.floor(x):
            return S(np.inf)
        pi = S(math.pi)  # (c10::pi<scalar_t>, its tan in scalar_t)
        extra = D(-pi / (S(math.tan(pi * x)) if S is np.float64 else T.tan(pi * x)))
        x = S(1) - x
    result = D(0)
    while x < 10:
        result -= D(S(1) / x)
        x += S(1)
    if x == 10:
        return S(result + D(2.25175258906672110764) + extra)
    y = D(0)
    if x < np.float32(1.0e17):
        z = D(1.0) / D(x * x)
        p = D(0)
        for c in _DIGAMMA_A:
            p = p * z + D(c)
        y = z * p
    return S(result + D(T.log(x)) - D(S(0.5) / x) - y + extra)


def _beta_grad_alpha_small(x, alpha, beta, T):
    S = T.S
    factor = _digamma_typed(alpha, T) - _digamma_typed(alpha + beta, T) - T.log(x)
    numer = S(1)
    series = numer / alpha * (factor + S(1) / alpha)
    for i in range(1, 11):
        ci = S(i)
        numer *= (ci - beta) * x / ci
        denom = alpha + ci
        series += numer / denom * (factor + S(1) / denom)
    result = x * T.pow(S(1) - x, -beta) * series
    return S(0) if np.isnan(result) else result


def _beta_grad_beta_small(x, alpha, beta, T):
    S = T.S
    factor = _digamma_typed(alpha + beta, T) - _digamma_typed(beta, T)
    numer, betas, dbetas, series = S(1), S(1), S(0), factor / alpha
    for i in range(1, 9):
        ci = S(i)
        numer *= -x / ci
        dbetas = dbetas * (beta - ci) + betas
        betas = betas * (beta - ci)
        series += numer / (alpha + ci) * (dbetas + factor * betas)
    result = -T.pow(S(1) - x, S(1) - beta) * series
    return S(0) if np.isnan(result) else result


def _beta_grad_alpha_mid(x, alpha, beta):
    """All in double (Rice's saddle point, for alpha and beta both large)."""
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                        8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha)) *
                (1 + 1 / (12 * beta) + 1 / (288 * beta * beta)) /
                (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = math.sqrt(2 * alpha / beta) * _safe_pow(total, 1.5) * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * _safe_log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4_base = beta * _safe_log(beta / (total * (1 - x))) + \
        alpha * _safe_log(alpha / (total * x))
    term4 = _safe_pow(term4_base, -1.5)
    term1234 = term1 + term2 * (term3 + (term4 if x < mean else -term4))
    return stirling * prefactor * term1234


_DIRICHLET_C = np.array([
    [[[1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
      [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
      [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013]],
     [[0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
      [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
      [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05]],
     [[-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
      [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
      [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05]]],
    [[[1, -0.02924021934, -0.04438342661, 0.007285809825],
      [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
      [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149]],
     [[0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
      [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
      [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05]],
     [[0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
      [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
      [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06]]]]).tolist()


def _dirichlet_grad_one(x, alpha, total, T):
    """aten's ``dirichlet_grad_one<scalar_t, double>``: the reparametrised gradient of a
    Beta(alpha, total - alpha) sample x, scaled by 1 / (1 - x)."""
    S, D = T.S, np.float64
    x_, alpha_, total_ = D(x), D(alpha), D(total)
    beta = total - alpha
    beta_ = total_ - alpha_
    boundary = total * x * (S(1) - x)
    if x <= np.float32(0.5) and boundary < np.float32(2.5):
        return _beta_grad_alpha_small(x, alpha, beta, T)
    if x >= np.float32(0.5) and boundary < np.float32(0.75):
        return -_beta_grad_beta_small(S(1) - x, beta, alpha, T)
    if alpha > 6 and beta > 6:
        return S(_beta_grad_alpha_mid(float(x_), float(alpha_), float(beta_)))
    u = D(_safe_log(x_))
    a = D(_safe_log(alpha_)) - u
    b = D(_safe_log(total_)) - a
    pow_u, pow_a = (D(1), u, u * u), (D(1), a, a * a)
    p = q = D(0.0)
    c = _DIRICHLET_C
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            p += ua * (c[0][i][j][0] + b * (c[0][i][j][1] + b * (c[0][i][j][2] +
                                                                   b * c[0][i][j][3])))
            q += ua * (c[1][i][j][0] + b * (c[1][i][j][1] + b * (c[1][i][j][2] +
                                                                   b * c[1][i][j][3])))
    approx = x_ * D(_digamma_typed(total_, T) - _digamma_typed(alpha_, T)) / beta_
    return S(p / q * approx)


def dirichlet_grad(x, alpha, total):
    """``torch._dirichlet_grad`` elementwise over broadcast float arrays."""
    dt = np.result_type(x, alpha, total)
    if dt.kind != "f" or dt.itemsize < 4:
        raise NotImplementedError(f"\"_dirichlet_grad_cpu\" not implemented for "
                                  f"'{_torch_name(dt)}'")
    T = _scalar(dt.type)
    xs, al, to = np.broadcast_arrays(*(np.asarray(v, dtype=dt) for v in (x, alpha, total)))
    with np.errstate(all="ignore"):
        out = [_dirichlet_grad_one(p, q, r, T)
               for p, q, r in zip(xs.ravel(), al.ravel(), to.ravel())]
    return np.array(out, dtype=dt).reshape(xs.shape)


# --------------------------------------------------------------------------------------
# binomial (aten's sample_binomial: BTRS above a mean of 10, inversion below)
# --------------------------------------------------------------------------------------

_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                  0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                  0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                  0.00833056343336287)


def _stirling_approx_tail(k: float) -> float:
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _binomial_inversion(count, prob, uniform, T):
    """Counts geometric waiting times until they pass ``count`` (log1p in scalar_t)."""
    S = T.S
    logprob = float(T.log1p(-prob))
    geom_sum, num_geom = 0.0, S(0)
    while True:
        geom = float(np.ceil(_safe_log(uniform()) / logprob))
        geom_sum += geom
        if geom_sum > count:
            return num_geom
        num_geom = num_geom + S(1)


def _btrs(count, prob, uniform, T):
    """Hoermann's transformed rejection with squeeze (BTRS), in aten's float/double mix."""
    S = T.S
    stddev = float(T.sqrt(count * prob * (S(1) - prob)))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(prob / (S(1) - prob))
    alpha = (2.83 + 5.1 / b) * stddev
    m = float(np.floor((count + S(1)) * prob))
    n = float(count)
    while True:
        U = uniform() - 0.5
        V = uniform()
        us = 0.5 - abs(U)
        if us == 0:  # (aten divides by it: inf or NaN, rejected either way)
            continue
        k = S(np.floor((2 * a / us + b) * U + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and V <= v_r:
            return k
        V = _safe_log(V * alpha / (a / (us * us) + b))
        kf = float(k)
        upperbound = ((m + 0.5) * _safe_log((m + 1) / (r * (n - m + 1))) +
                      float(count + S(1)) * _safe_log((n - m + 1) / float(count - k + S(1))) +
                      (kf + 0.5) * _safe_log(r * float(count - k + S(1)) / float(k + S(1))) +
                      _stirling_approx_tail(m) + _stirling_approx_tail(n - m) -
                      _stirling_approx_tail(kf) - _stirling_approx_tail(float(count - k)))
        if V <= upperbound:
            return k


def _sample_binomial(count, prob, uniform, T):
    S = T.S
    if count <= 0.0 or prob <= 0.0:
        return S(0)
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if count * prob >= 10.0:
            return _btrs(count, prob, uniform, T)
        return _binomial_inversion(count, prob, uniform, T)
    if prob > 0.5:
        qprob = S(1.0 - float(prob))
        if count * qprob >= 10.0:
            return count - _btrs(count, qprob, uniform, T)
        return count - _binomial_inversion(count, qprob, uniform, T)
    return S(np.nan)


def binomial(count, prob, generator=None):
    """``torch.binomial``: one serial loop over the broadcast (count, prob) pairs."""
    dt = count.dtype
    if dt.kind != "f":
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: "
                         f"{_torch_name(dt).capitalize()}")
    if prob.dtype != dt:
        raise RuntimeError(f"Found dtype {_torch_name(prob.dtype).capitalize()} but expected "
                           f"{_torch_name(dt).capitalize()}")
    if dt.itemsize < 4:
        raise NotImplementedError(f"\"binomial_cpu\" not implemented for '{_torch_name(dt)}'")
    T = _scalar(dt.type)
    counts, probs = np.broadcast_arrays(count, prob)
    g = _gen(generator)
    with g._lock:
        uniform = _UniformStream(g)
        try:
            with np.errstate(all="ignore"):
                out = [_sample_binomial(n, p, uniform, T)
                       for n, p in zip(counts.ravel(), probs.ravel())]
        finally:
            uniform.close()
    return np.array(out, dtype=dt).reshape(counts.shape)
