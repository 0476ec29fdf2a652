"""Differential sweep of PyTorch's complex elementwise kernels (Note [Complex kernels] in
autotensor/_ops/raw.py): products, quotients, abs, sgn, reciprocal, the complex fast paths
of pow, addcmul and addcdiv, and gradients through them, bit for bit against torch over
complex64/complex128, sizes 1, 7, 8, 33, 1000, contiguous/strided/broadcast/0-d operands
and special values (NaN signs and payloads ignored)."""
import numpy as np
import pytest

import autotensor as at

torch = pytest.importorskip("torch")

SIZES = (1, 7, 8, 33, 1000)
DTYPES = ("complex64", "complex128")
LAYOUTS = ("contig", "strided", "broadcast", "zero_d")
SPECIALS = (0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -2.5, 1e-310, 3e38, 1e300, 1e-40)


def _values(rng, n, dtype, special):
    z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    if special:
        k = len(SPECIALS)
        re = np.array([SPECIALS[i % k] for i in rng.integers(0, k, n)])
        im = np.array([SPECIALS[i % k] for i in rng.integers(0, k, n)])
        keep = rng.random(n) < 0.3
        z = np.where(keep, z, re + 1j * im)
    with np.errstate(all="ignore"):
        return z.astype(dtype)


def _operands(rng, n, dtype, layout, special, count=2):
    """(numpy arrays,) in the layout: each operand the op's input."""
    out = []
    for i in range(count):
        if layout == "contig":
            v = _values(rng, n, dtype, special)
        elif layout == "strided":
            v = _values(rng, 2 * n, dtype, special)[::2]
        elif layout == "broadcast":  # (n, 1) against (1, 3)... first operand 2-d
            v = _values(rng, n * 3, dtype, special).reshape(n, 3) if i == 0 else \
                _values(rng, 3, dtype, special)
        else:  # the last operand 0-d
            v = _values(rng, 1, dtype, special).reshape(()) if i == count - 1 else \
                _values(rng, n, dtype, special)
        out.append(v)
    return out


def _pair(x):
    return at.from_numpy(x.copy()) if x.ndim else at.tensor(x[()]), \
        torch.from_numpy(x.copy()) if x.ndim else torch.tensor(x[()])


def _ulps(ours, theirs):
    """The largest difference in float32 ulps (of the larger magnitude) of the finite
    parts; inf where a NaN, an infinity or a sign differs."""
    a = np.asarray(ours.detach().numpy())
    b = theirs.detach().numpy()
    worst = 0.0
    for x, y in ((a.real, b.real), (a.imag, b.imag)):
        nan = np.isnan(x) & np.isnan(y)
        same = nan | ((x == y) & (np.signbit(x) == np.signbit(y)))
        if same.all():
            continue
        x, y = x[~same].astype(np.float64), y[~same].astype(np.float64)
        if not (np.isfinite(x).all() and np.isfinite(y).all()):
            return np.inf
        ulp = np.spacing(np.maximum(np.abs(x), np.abs(y)).astype(np.float32)).astype(np.float64)
        worst = max(worst, float((np.abs(x - y) / ulp).max()))
    return worst


def _same(ours, theirs):
    """Number of elements whose real or imaginary bits differ (all NaNs equal)."""
    a = np.asarray(ours.detach().numpy() if hasattr(ours, "detach") else ours)
    b = theirs.detach().numpy()
    if a.shape != b.shape or a.dtype != b.dtype:
        return max(a.size, 1)
    ar, br = (a.real, b.real) if a.dtype.kind == "c" else (a, b)
    ai, bi = (a.imag, b.imag) if a.dtype.kind == "c" else (np.zeros_like(a), np.zeros_like(b))

    def diff(x, y):
        nan = np.isnan(x) & np.isnan(y)
        return ~nan & ((x != y) | (np.signbit(x) != np.signbit(y)))
    return int((diff(ar, br) | diff(ai, bi)).sum())


UNARY = {
    "abs": lambda m, x: x.abs(),
    "sgn": lambda m, x: x.sgn(),
    "reciprocal": lambda m, x: x.reciprocal(),
    "pow2": lambda m, x: x ** 2,
    "pow3": lambda m, x: x.pow(3),
    "pow-1": lambda m, x: x ** -1,
    "pow-2": lambda m, x: x.pow(-2),
    "mul_conj": lambda m, x: x * x.conj(),
    "mul_pycomplex": lambda m, x: x * (0.3 - 1.7j),
    "mul_pyfloat": lambda m, x: x * 2.5,
    "div_pycomplex": lambda m, x: x / (0.3 - 1.7j),
    "rdiv_pycomplex": lambda m, x: (0.3 - 1.7j) / x,
    "div_pyfloat": lambda m, x: x / 3.0,
}
BINARY = {
    "mul": lambda m, x, y: m.mul(x, y),
    "div": lambda m, x, y: m.div(x, y),
    "mul_": lambda m, x, y: x.clone().mul_(y) if x.shape == m.broadcast_shapes(x.shape, y.shape)
    else x * y,
    "div_": lambda m, x, y: x.clone().div_(y) if x.shape == m.broadcast_shapes(x.shape, y.shape)
    else x / y,
}
TERNARY = {
    "addcmul": lambda m, s, x, y: m.addcmul(s, x, y),
    "addcmul_v": lambda m, s, x, y: m.addcmul(s, x, y, value=0.5 - 2j),
    "addcdiv": lambda m, s, x, y: m.addcdiv(s, x, y),
    "addcdiv_v": lambda m, s, x, y: m.addcdiv(s, x, y, value=-1.5),
}


def _make(arrays, layout):
    ours, theirs = [], []
    for x in arrays:
        if layout == "strided" and x.ndim:
            full = np.empty(2 * x.shape[0], x.dtype)
            full[::2] = x
            a, t = at.from_numpy(full.copy())[::2], torch.from_numpy(full.copy())[::2]
        else:
            a, t = _pair(x)
        ours.append(a)
        theirs.append(t)
    return ours, theirs


def sweep(ops, count, seed=0, specials=(False, True)):
    """Cases whose results differ, as (op, dtype, n, layout, special, differing elements)."""
    rng = np.random.default_rng(seed)
    bad = []
    cases = 0
    for name, fn in ops.items():
        for dtype in DTYPES:
            for n in SIZES:
                for layout in LAYOUTS:
                    for special in specials:
                        arrays = _operands(rng, n, dtype, layout, special, count)
                        if count == 1:
                            arrays = [arrays[0]]
                        ours, theirs = _make(arrays, layout)
                        with np.errstate(all="ignore"):
                            r = fn(at, *ours)
                        t = fn(torch, *theirs)
                        cases += 1
                        d = _same(r, t)
                        if d:
                            bad.append((name, dtype, n, layout, special, d, _ulps(r, t)))
    return cases, bad


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_complex_kernels(name):
    cases, bad = sweep({name: UNARY[name]}, 1)
    assert not bad, bad[:10]


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_complex_kernels(name):
    cases, bad = sweep({name: BINARY[name]}, 2)
    assert not bad, bad[:10]


@pytest.mark.parametrize("name", sorted(TERNARY))
def test_ternary_complex_kernels(name):
    cases, bad = sweep({name: TERNARY[name]}, 3)
    assert not bad, bad[:10]


LAYOUT_CASES = {
    "T*T": lambda m, x, y, r: x.t() * y.t(),
    "T/T": lambda m, x, y, r: x.t() / y.t(),
    "slices": lambda m, x, y, r: x[:, :3] * y[:, 1:4],
    "real*complex": lambda m, x, y, r: r * x,
    "complex/real": lambda m, x, y, r: x / r,
    "real/complex": lambda m, x, y, r: r / x,
    "float32*complex128": lambda m, x, y, r: r.float() * x,
    "mul_number_": lambda m, x, y, r: x.clone().mul_(2j + 0.5),
    "div_number_": lambda m, x, y, r: x.clone().div_(0.3 + 2j),
    "mul_T_": lambda m, x, y, r: x.clone().t().mul_(y.t()),
    "div_row_": lambda m, x, y, r: x.clone().div_(y[0]),
    "mul_out": lambda m, x, y, r: m.mul(x, y, out=m.empty(x.shape, dtype=x.dtype)),
    "abs_T": lambda m, x, y, r: x.t().abs(),
    "sgn_T": lambda m, x, y, r: x.t().sgn(),
    "reciprocal_T": lambda m, x, y, r: x.t().reciprocal(),
    "pow3_T": lambda m, x, y, r: x.t() ** 3,
    "pow2_rows": lambda m, x, y, r: x[::2] ** 2,
    "addcmul_T": lambda m, x, y, r: m.addcmul(x.t(), y.t(), x.t(), value=0.3j),
    "addcmul_broadcast": lambda m, x, y, r: m.addcmul(x, y[:1], x[:, :1], value=2),
    "addcdiv_broadcast": lambda m, x, y, r: m.addcdiv(x, y[:1], x[:, :1], value=2),
    "addcmul_": lambda m, x, y, r: x.clone().addcmul_(y, x, value=-1.5j),
    "addcdiv_": lambda m, x, y, r: x.clone().addcdiv_(y, x, value=-1.5j),
    "square": lambda m, x, y, r: m.square(x),
    "x*conj(x)": lambda m, x, y, r: x * x.conj(),
}


@pytest.mark.parametrize("dtype", DTYPES)
def test_complex_kernels_2d_layouts_and_mixed_dtypes(dtype):
    rng = np.random.default_rng(4)
    real = np.float32 if dtype == "complex64" else np.float64
    bad = []
    for shape in ((5, 7), (9, 33), (40, 25), (3, 1000)):
        x, y = (_values(rng, shape[0] * shape[1], dtype, False).reshape(shape)
                for _ in range(2))
        r = rng.standard_normal(shape).astype(real)
        for name, fn in LAYOUT_CASES.items():
            o = fn(at, *(at.from_numpy(v.copy()) for v in (x, y, r)))
            t = fn(torch, *(torch.from_numpy(v.copy()) for v in (x, y, r)))
            if _same(o, t):
                bad.append((name, shape, _same(o, t)))
    assert not bad, bad


GRAD_CASES = {
    "mul": lambda m, x, y: x * y,
    "div": lambda m, x, y: x / y,
    "abs": lambda m, x, y: x.abs() * y,
    "sgn": lambda m, x, y: x.sgn() * y,
    "reciprocal": lambda m, x, y: x.reciprocal() * y,
    "pow2": lambda m, x, y: x ** 2 * y,
    "pow3": lambda m, x, y: x ** 3 * y,
    "addcmul": lambda m, x, y: m.addcmul(y, x, y, value=0.5j),
    "addcdiv": lambda m, x, y: m.addcdiv(y, x, y, value=0.5j),
    "mul_number": lambda m, x, y: x * (2 - 1j) + y,
    "div_number": lambda m, x, y: x / (2 - 1j) + y,
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_complex_gradients_bit_identical(name, dtype):
    """Gradients compute with the same kernels (grad * other.conj(): F.mul in formulas)."""
    rng = np.random.default_rng(6)
    fn = GRAD_CASES[name]
    for n in (7, 33, 1000):
        x, y, g = (_values(rng, n, dtype, False) for _ in range(3))
        res = []
        for m in (at, torch):
            xs, ys = (m.from_numpy(v.copy()).requires_grad_(True) for v in (x, y))
            out = fn(m, xs, ys)
            out.backward(m.from_numpy(g.copy()))
            res.append((out, xs.grad, ys.grad))
        for ours, theirs in zip(*res):
            assert _same(ours, theirs) == 0, (name, dtype, n)


def test_float_mul_keeps_the_ufunc():
    """Real operands keep NumPy's ufunc on the fast path (no per-op cost)."""
    from autotensor._ops import pointwise
    assert pointwise.MUL.kernel is np.multiply
    assert pointwise.DIV.kernel is np.true_divide
    assert pointwise.ABS.real_kernel is np.abs


if __name__ == "__main__":
    total = 0
    nbad = 0
    for ops, count in ((UNARY, 1), (BINARY, 2), (TERNARY, 3)):
        cases, bad = sweep(ops, count)
        total += cases
        nbad += len(bad)
        by = {}
        for b in bad:
            by.setdefault(b[0], []).append(b)
        for k, v in by.items():
            print(k, len(v), v[:4])
    print("cases", total, "differing", nbad)


# Holomorphic unary ops whose backward formula multiplies or divides by a complex factor
# (F.mul / F.div); their forward values are PyTorch's too. Left open (OPEN_FINDINGS, stop
# 27, helper cx27): the forward values of log1p, log10, expm1, sigmoid, acos (complex128)
# and angle, and the scalar loop of the complex tanh_backward/sigmoid_backward kernels.
UNARY_GRADS = ("exp", "log", "sin", "cos", "sqrt", "square", "rsqrt", "sinh", "cosh", "tan",
               "exp2", "log2", "asin", "atan", "asinh", "acosh", "atanh", "reciprocal",
               "log1p", "log10")
OPEN_VALUES = {"log1p", "log10"}


@pytest.mark.parametrize("name", UNARY_GRADS)
def test_holomorphic_gradients_bit_identical(name):
    rng = np.random.default_rng(8)
    for dtype in DTYPES:
        for n in (1, 7, 33, 100):
            x = (_values(rng, n, dtype, False) * 0.5).astype(dtype)
            g = _values(rng, n, dtype, False)
            res = []
            for m in (at, torch):
                xs = m.from_numpy(x.copy()).requires_grad_(True)
                out = getattr(m, name)(xs)
                out.backward(m.from_numpy(g.copy()))
                res.append((out, xs.grad))
            if name not in OPEN_VALUES:
                assert _same(res[0][0], res[1][0]) == 0, (name, dtype, n, "value")
            assert _same(res[0][1], res[1][1]) == 0, (name, dtype, n, "gradient")


def test_log10_gradient_constant():
    """derivatives.yaml's log10 formula divides by 2.3025850929940456, an ulp under ln 10:
    float64 gradients are PyTorch's bits (93% of them differed by an ulp before)."""
    x = np.random.default_rng(1).uniform(0.1, 10, 1000)
    ours = at.from_numpy(x.copy()).requires_grad_(True)
    theirs = torch.from_numpy(x.copy()).requires_grad_(True)
    at.log10(ours).sum().backward()
    torch.log10(theirs).sum().backward()
    assert (ours.grad.numpy() == theirs.grad.numpy()).all()
