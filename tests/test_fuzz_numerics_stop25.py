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
    if p.dtype.kind == "f":
        return bool(np.all((p == q) | (np.isnan(p) & np.isnan(q))))
    return bool(np.array_equal(p, q))


def _both(fn, *args):
    out = []
    for mod in (torch, autotensor):
        try:
            out.append(fn(mod, *args))
        except Exception as e:  # noqa: BLE001  (the error type is compared)
            out.append(type(e).__name__)
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
