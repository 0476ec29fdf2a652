"""Stop 25, helper fz10a: float16/bfloat16 (and integer/bool) tensors combined with Python
numbers, bit for bit as PyTorch's CPU kernels (differential sweeps against torch).

Values are compared exactly, NaN equal to NaN whatever its sign (Note [The sign of a NaN]
in tests/fuzz/core.py: PyTorch's NaN signs follow its SIMD and scalar loops, not matched).
"""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_REDUCED = ["float16", "bfloat16"]
_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-5, -1e-6, 65504.0, -3.0, 3.0, 0.5, -2.5]
_NUMBERS = [0.1, -0.3, 1.7, 3, -2, 1e-3, 0.0, -0.0, float("inf"), float("-inf"), float("nan"),
            1e-30, 7.0, 1e10, 2.5, 0.5, -1, True, 2049, 1 / 3]


def _values(seed, n, scale=(-2, 4)):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-5, 5, n) * 10.0 ** rng.integers(scale[0], scale[1], n)
    return np.concatenate([x, _SPECIAL])


_X = _values(0, 190)
_Y = _values(1, 190, (-4, 2))[::-1].copy()


def _result(r):
    """(dtype name, values as float64 or integers), or an error's type name."""
    if isinstance(r, (str, tuple)):
        return r
    mod = torch if isinstance(r, torch.Tensor) else autotensor
    v = r.to(mod.float64).numpy() if r.dtype.is_floating_point else r.numpy()
    return str(r.dtype).split(".")[-1], v


def _same(t, u):
    t, u = _result(t), _result(u)
    if isinstance(t, str) or isinstance(u, str):
        return t == u
    if t[0] != u[0] or t[1].shape != u[1].shape:
        return False
    p, q = t[1], u[1]
    if p.dtype.kind == "c":  # (each part, NaN equal to NaN)
        p, q = np.stack([p.real, p.imag]), np.stack([q.real, q.imag])
    if p.dtype.kind == "f":
        return bool(np.all((p == q) | (np.isnan(p) & np.isnan(q))))
    return bool(np.array_equal(p, q))


def _both(fn, *args):
    out = []
    for mod in (torch, autotensor):
        try:
            out.append(fn(mod, *args))
        except Exception as e:  # noqa: BLE001  (the error's type and message are compared)
            out.append(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    return out


def _half(mod, dt, x=_X):
    return mod.tensor(x, dtype=mod.float64).to(getattr(mod, dt))


# ---- a single divisor / factor: Note [Half scalars in float32] -------------------------------
_OPS = {
    "mul": lambda a, b: a * b, "div": lambda a, b: a / b, "floordiv": lambda a, b: a // b,
    "floor_divide": lambda a, b: a.floor_divide(b),
    "div_floor": lambda a, b: a.div(b, rounding_mode="floor"),
    "div_trunc": lambda a, b: a.div(b, rounding_mode="trunc"),
    "torch.div_floor": lambda a, b: (torch if isinstance(a, torch.Tensor) else autotensor).div(
        a, b, rounding_mode="floor"),
    "remainder": lambda a, b: a % b, "fmod": lambda a, b: a.fmod(b),
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b,
}


def _inplace(name, a, b):
    a = a.clone()
    if name == "mul":
        a *= b
    elif name == "div":
        a /= b
    elif name in ("floordiv", "floor_divide"):
        a //= b
    elif name in ("div_floor", "torch.div_floor"):
        a.div_(b, rounding_mode="floor")
    elif name == "div_trunc":
        a.div_(b, rounding_mode="trunc")
    elif name == "remainder":
        a %= b
    elif name == "fmod":
        a.fmod_(b)
    elif name == "add":
        a += b
    elif name == "sub":
        a -= b
    return a


def _divisor(mod, kind, s, dt):
    if kind == "number":
        return s
    if kind == "0d":
        return mod.tensor(float(s), dtype=mod.float64).to(getattr(mod, dt))
    if kind == "one":
        return mod.tensor([float(s)], dtype=mod.float64).to(getattr(mod, dt))
    if kind == "0d_int":
        return mod.tensor(int(s) if np.isfinite(s) else 7)
    return mod.tensor(float(s), dtype=getattr(mod, kind.split("_")[1]))


def _single_value_case(mod, dt, op, kind, s, shape, inplace):
    a = _half(mod, dt)
    if shape == "0d":
        a = a[7]
    b = _divisor(mod, kind, s, dt)
    return _inplace(op, a, b) if inplace else _OPS[op](a, b)


@pytest.mark.parametrize("kind", ["number", "0d", "one", "0d_float32", "0d_float64", "0d_int"])
@pytest.mark.parametrize("op", sorted(_OPS))
@pytest.mark.parametrize("dt", _REDUCED)
def test_reduced_float_op_by_a_single_value(dt, op, kind):
    """PyTorch's mul, div and div's floor/trunc modes read a single second operand (a
    Python number, a 0-d or one-element tensor, of any dtype) as a float32 and round the
    float32 result once (stop-24 end_repro_001: float16 (v / v) // 0.1 was 10, not 9);
    add/sub/remainder/fmod take it in the tensor's dtype. Out of place and in place, the
    tensor 1-d and 0-d."""
    bad = []
    for s in _NUMBERS:
        for shape in ("1d", "0d"):
            for inplace in (False, True):
                t, u = _both(_single_value_case, dt, op, kind, s, shape, inplace)
                if not _same(t, u):
                    bad.append((s, shape, inplace))
    assert not bad, bad


def test_stop24_end_repro_001_floor_division_of_a_quotient():
    def case(mod):
        v1 = mod.tensor(np.array(1.763671875, dtype="float16"))
        return (v1 / v1) // 0.1
    t, u = _both(case)
    assert _same(t, u) and u.item() == 9.0


@pytest.mark.parametrize("layout", ["contiguous", "strided", "broadcast", "scalar_first",
                                    "large"])
@pytest.mark.parametrize("op", ["floordiv", "div_floor", "div_trunc", "remainder", "fmod",
                                "div", "mul"])
@pytest.mark.parametrize("dt", _REDUCED)
def test_reduced_float_tensor_division(dt, op, layout):
    """Two float16/bfloat16 tensors: PyTorch's floor division rounds every step of its
    algorithm to the tensor's dtype (Note [Reduced float floor division] in raw.py: 1-2%
    of the quotients differed from NumPy's once-rounded floor_divide). A number before the
    tensor (``0.1 // x``) is that tensor kernel with the number in the tensor's dtype."""
    def case(mod):
        a, b = _half(mod, dt), _half(mod, dt, _Y)
        f = _OPS[op]
        if layout == "strided":
            a2 = _half(mod, dt, np.repeat(_X, 2))[::2]
            b2 = _half(mod, dt, np.repeat(_Y, 2))[1::2]
            return f(a2, b2)
        if layout == "broadcast":
            return f(a.reshape(-1, 1)[:40], b[:30])
        if layout == "scalar_first":
            return [f(s, b) for s in (0.1, -0.3, 1.7, 3, 7.0, 2.5, 0.5, -0.0)]
        if layout == "large":
            return f(_half(mod, dt, np.tile(_X, 11)), _half(mod, dt, np.tile(_Y, 11)))
        return f(a, b)
    t, u = _both(case)
    if isinstance(t, list):
        assert all(_same(p, q) for p, q in zip(t, u))
    else:
        assert _same(t, u)


_SWEEP_OPS = ["floor_divide", "__floordiv__", "__rfloordiv__", "remainder", "fmod", "div",
              "true_divide", "mul", "add", "sub", "__rsub__", "__rtruediv__", "pow",
              "__rpow__", "__rmod__", "__rmul__", "__radd__"]


def _sweep_case(mod, x, dt, op, s):
    a = mod.tensor(x, dtype=mod.float64).to(getattr(mod, dt))
    if op in ("floor", "trunc"):
        return a.div(s, rounding_mode=op)
    return getattr(a, op)(s)


@pytest.mark.parametrize("dt", _REDUCED)
def test_lead_half_scalar_sweep(dt):
    """The lead's sweep (tests/fuzz/pending_stop25/half_scalar_sweep.py) with more numbers:
    every op of a float16/bfloat16 tensor and a Python number, both orders."""
    x = np.random.default_rng(0).uniform(-5, 5, 2000)
    bad = []
    for s in _NUMBERS:
        for op in _SWEEP_OPS + ["floor", "trunc"]:
            t, u = _both(_sweep_case, x, dt, op, s)
            if not _same(t, u):
                bad.append((s, op))
    assert not bad, bad


@pytest.mark.parametrize("op", ["mul", "div"])
@pytest.mark.parametrize("bdt", ["float32", "float64"])
@pytest.mark.parametrize("dt", _REDUCED)
def test_reduced_float_times_0d_tensor_graph(dt, bdt, op):
    """The float32 reading of a 0-d float32/float64 operand keeps PyTorch's graph: the
    node, its next_functions, each gradient in its input's dtype. (div's gradient for the
    0-d operand, -grad * ((self / other) / other), is computed in float32 here where
    PyTorch rounds each step to float16: open, within 1e-4 relative.)"""
    def case(mod, inplace):
        a = mod.tensor([1.5, -2.25, 3.0, 0.1], dtype=getattr(mod, dt), requires_grad=True)
        b = mod.tensor(0.1, dtype=getattr(mod, bdt), requires_grad=True)
        x = a * 1
        if inplace:
            r = x.mul_(b) if op == "mul" else x.div_(b)
        else:
            r = x * b if op == "mul" else x / b
        r.sum().backward()
        return (type(r.grad_fn).__name__,
                [type(n).__name__ for n, _ in r.grad_fn.next_functions],
                _result(r.detach()), _result(a.grad), _result(b.grad))
    for inplace in (False, True):
        t, u = (case(torch, inplace), case(autotensor, inplace))
        assert t[:2] == u[:2]
        assert _same(t[2], u[2]) and _same(t[3], u[3])
        if op == "mul":
            assert _same(t[4], u[4])
        else:
            assert t[4][0] == u[4][0]
            np.testing.assert_allclose(u[4][1], t[4][1], rtol=1e-4)


# ---- number ** tensor, tensor ** number: stop-25 start_repro_002 ----------------------------
_BASES = [True, False, 0, 1, -1, 2, -2, 3, 7, -3, 2**40, 0.5, -0.5, 0.0, -0.0, 2.0, -2.0,
          float("inf"), float("nan"), 1.5, 1 + 1j, 2j, 0j, -1 + 0.5j]
_EXPONENTS = {
    "bool": [True, False, True], "uint8": [0, 1, 2, 3, 200, 7],
    "int8": [1, -4, 0, 3, -1, -2, 5, 127, -128], "int16": [1, -4, 0, 3, -1, 2, 15],
    "int32": [1, -4, 0, 3, -1, 2, 31, 40], "int64": [1, -4, 0, 3, -1, 2, 62, 63, 64, -64],
    "float16": [1, -4, 0, 0.5, -0.5, 2.5, -1.5, 3], "bfloat16": [1, -4, 0, 0.5, -0.5, 2.5],
    "float32": [1, -4, 0, 0.5, -0.5, 2.5, 1e-3], "float64": [1, -4, 0, 0.5, 2.5, -0.3]}


def _exponent(mod, dt):
    v = np.array(_EXPONENTS[dt], dtype=np.float64 if dt in ("float16", "bfloat16") else dt)
    return mod.tensor(v).to(getattr(mod, dt))


def _pow_case(mod, base, dt, form):
    e = _exponent(mod, dt)
    if form == "op":
        return base ** e
    if form == "fn":
        return mod.pow(base, e)
    if form == "0d":
        return base ** e[1]
    if form == "tensor_number":
        return e ** base
    if form == "inplace":
        r = e.clone()
        r.pow_(base)
        return r
    return mod.tensor(base) ** e  # (a 0-d tensor base)


def _close(t, u, rtol=None):
    """Exact, but float32/float64 results of a float exponent to within PyTorch's pow's
    last bit (its SLEEF/glibc powf/pow against NumPy's: OPEN_FINDINGS, not this class)."""
    t, u = _result(t), _result(u)
    if isinstance(t, str) or isinstance(u, str) or t[0] != u[0]:
        return t == u if isinstance(t, str) or isinstance(u, str) else False
    if _same(t, u):
        return True
    if t[0] in ("float32", "float64"):
        rtol = rtol or (3e-7 if t[0] == "float32" else 3e-16)
        return np.allclose(u[1], t[1], rtol=rtol, atol=0, equal_nan=True)
    return False


@pytest.mark.parametrize("form", ["op", "fn", "0d", "tensor_number", "inplace", "0d_base"])
@pytest.mark.parametrize("dt", sorted(_EXPONENTS))
def test_pow_of_numbers_and_tensors(dt, form):
    """start_repro_002: `True ** int64_tensor([1, -4])` raised NumPy's ValueError; PyTorch
    takes a bool base as the integer 1 or 0 (powi: 1 ** -n = 1, 0 ** -n = 0, (-1) ** -n =
    +-1, others 0). A complex number with an integral or bool tensor gives the default
    complex dtype (complex64), with float16 PyTorch's "pow" not implemented for
    'ComplexHalf'; complex powers are exp(e * log(x)) (glibc's cpow). Exponents of every
    dtype with bool, int, float and complex bases; the tensor's own integer negative-power
    error ("Integers to negative integer powers are not allowed.")."""
    bad = []
    for base in _BASES:
        if form == "0d_base" and base.__class__ is int and base > 2**31:
            continue
        if dt == "float16" and base.__class__ is complex and (
                form == "0d_base" or (form in ("tensor_number", "inplace") and base == 0)):
            continue  # (PyTorch's ComplexHalf result or message: autotensor has no complex32)
        t, u = _both(_pow_case, base, dt, form)
        if not _close(t, u):
            bad.append((base, _result(t) if not isinstance(t, str) else t,
                        _result(u) if not isinstance(u, str) else u))
    assert not bad, bad


def test_start_repro_002_true_to_an_integer_tensor():
    def case(mod):
        return True ** mod.tensor(np.array([1, -4], dtype="int64"))
    t, u = _both(case)
    assert _same(t, u) and u.tolist() == [1, 1]


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_tensor_powers(dt):
    """Complex tensors: PyTorch's pow is std::pow (exp(e * log(x))) except its scalar
    exponent's shortcuts (0 fills, 1 copies, 0.5 sqrt, 2 / 3 products, -0.5 / -1 / -2
    reciprocals); NumPy multiplies integral powers out, so (1+1j) ** 4 and 0j ** -3
    differed."""
    x = np.array([0j, 1 + 1j, -2 + 0.5j, 3j, -1.5 - 2j, 0.25 + 0j, 1e3 + 1e-3j])
    numbers = [0, 1, 0j, 1 + 0j, 2.5, 1 + 1j, -3, 4, 0.5, 2, 3, -0.5, -1, -2, 1e-3, -2.5j]
    bad = []
    for s in numbers:
        for form in ("tensor_number", "number_tensor", "tensor_tensor", "inplace"):
            def case(mod, s=s, form=form):
                # (0j ** -1, -2, -0.5 in place of a tensor: PyTorch's complex reciprocal of
                # 0 is inf+nanj, NumPy's nan+nanj: open, another kernel)
                z = x[1:] if s in (-1, -2, -0.5) and form != "number_tensor" else x
                a = mod.tensor(z).to(getattr(mod, dt))
                if form == "tensor_number":
                    return a ** s
                if form == "number_tensor":
                    return s ** a
                if form == "inplace":
                    return a.clone().pow_(s)
                return a ** mod.tensor(np.full(len(z), s)).to(getattr(mod, dt))
            t, u = _both(case)
            if not _complex_close(t, u, 2e-7 if dt == "complex64" else 1e-12):
                bad.append((s, form))
    assert not bad, bad


def _complex_close(t, u, rtol):
    """Equal dtypes, errors, infinities and NaNs (each part); finite values to within
    rtol (PyTorch's complex reciprocals and glibc's cexp/clog against NumPy's: the last
    bits, open)."""
    t, u = _result(t), _result(u)
    if isinstance(t, str) or isinstance(u, str) or t[0] != u[0]:
        return t == u
    p, q = t[1], u[1]
    fin = np.isfinite(p)
    if not np.array_equal(fin, np.isfinite(q)):
        return False
    return _same((t[0], p[~fin]), (u[0], q[~fin])) and np.allclose(q[fin], p[fin], rtol=rtol,
                                                                      atol=0)


# ---- add/sub/rsub with alpha: Note [Fused add] in raw.py -------------------------------------
_ALPHAS = [1.7, -2, 3, 0.1, 2.5, -0.3, 1, 0.5, 2049, True]


def _fused_case(mod, dt, op, s, layout):
    n = {"short": 37, "long": 1000, "0d": 1, "strided": 200}[layout]
    rng = np.random.default_rng(n)
    x = rng.uniform(-5, 5, n) * 10.0 ** rng.integers(-2, 3, n)
    y = rng.uniform(-5, 5, n) * 10.0 ** rng.integers(-2, 3, n)
    a, b = (mod.tensor(v, dtype=mod.float64).to(getattr(mod, dt)) for v in (x, y))
    if layout == "0d":
        a, b = a[0], b[0]
    elif layout == "strided":
        a, b = a[::2], b[1::2]
    if op == "add":
        return a.add(b, alpha=s)
    if op == "sub":
        return a.sub(b, alpha=s)
    if op == "add_number":
        return a.add(0.3, alpha=s)
    if op == "rsub":
        return mod.rsub(a, b, alpha=s)
    if op == "rsub_number":
        return mod.rsub(a, 1.1, alpha=s)
    return a.clone().add_(b, alpha=s)


@pytest.mark.parametrize("layout", ["short", "long", "0d", "strided"])
@pytest.mark.parametrize("op", ["add", "sub", "add_number", "rsub", "rsub_number", "add_"])
@pytest.mark.parametrize("dt", ["float16", "bfloat16", "float32"])
def test_add_alpha_rounds_once(dt, op, layout):
    """add/sub/rsub with alpha are one fused multiply-add in aten (float32 everywhere;
    float16/bfloat16 in the vector loop only). (float64 and lerp: open, OPEN_FINDINGS.)"""
    bad = []
    for s in _ALPHAS:
        t, u = _both(_fused_case, dt, op, s, layout)
        if op == "add_number" and dt in ("float32", "float64"):
            # (a number other: PyTorch's vector loop leaves some elements unfused -- open)
            ok = _close(t, u, 2e-6)
        else:
            ok = _same(t, u)
        if not ok:
            bad.append(s)
    assert not bad, bad
