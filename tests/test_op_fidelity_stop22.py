"""Op values, signed zeros, special values and dtype errors against PyTorch (stop 22: the
differential fuzzer's findings tests/fuzz/pending_stop22/start_repro_001, 006, 007, 009
and pending_stop21/end_repro_001, 002, each swept over its neighbours)."""
import itertools

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")


def _same(ours, theirs, what, rtol=1e-13):
    """NaNs in the same places, zeros of the same sign, other values to ``rtol``."""
    ours, theirs = np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64)
    assert ours.shape == theirs.shape, what
    assert (np.isnan(ours) == np.isnan(theirs)).all(), (what, ours, theirs)
    zero = theirs == 0
    assert (np.signbit(ours[zero]) == np.signbit(theirs[zero])).all(), (what, ours, theirs)
    ok = ~np.isnan(theirs)
    assert np.allclose(ours[ok], theirs[ok], rtol=rtol, atol=0), (what, ours, theirs)


# ---- fmod / remainder: SLEEF's overflow in PyTorch's SIMD loop (start_repro_001) ----

MOD_OPS = {
    "fmod": lambda lib, a, b: lib.fmod(a, b),
    "remainder": lambda lib, a, b: lib.remainder(a, b),
    "fmod_scalar": lambda lib, a, b: lib.fmod(a, float(b.reshape(-1)[0])),
    "remainder_scalar": lambda lib, a, b: lib.remainder(a, float(b.reshape(-1)[0])),
    "rmod_scalar": lambda lib, a, b: float(a.reshape(-1)[0]) % b,
    "fmod_": lambda lib, a, b: a.clone().fmod_(b),
    "remainder_": lambda lib, a, b: a.clone().remainder_(b),
    "mod_operator": lambda lib, a, b: a % b,
}


def _mod_operands(rng, dtype, n):
    """Dividends and divisors whose quotients reach past the dtype's largest value (and
    subnormal divisors), with special values mixed in."""
    emax = 1024 if dtype == "float64" else 128
    ex = rng.integers(-emax - 40, emax, n)
    ey = rng.integers(-emax - 50, emax, n)
    with np.errstate(all="ignore"):
        a = rng.uniform(1, 2, n) * 2.0 ** ex.astype(float) * rng.choice([-1, 1], n)
        b = rng.uniform(1, 2, n) * 2.0 ** ey.astype(float) * rng.choice([-1, 1], n)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -1e-310, 1.5])
    a = np.where(rng.random(n) < 0.15, rng.choice(special, n), a)
    b = np.where(rng.random(n) < 0.15, rng.choice(special, n), b)
    return a, b


@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16", "float16"])
@pytest.mark.parametrize("name", sorted(MOD_OPS))
def test_fmod_remainder_overflow_like_torch(name, dtype):
    """Note [SIMD fmod] in _ops/raw.py: exact in PyTorch's scalar loop, NaN where SLEEF's
    quotient overflows in its SIMD loop, by length, layout and broadcast."""
    rng = np.random.default_rng(1)
    for shape, layout in itertools.product([(1,), (8,), (9,), (16,), (40,), (3, 24), (2, 8)],
                                           ["contiguous", "strided", "transposed", "rows"]):
        n = int(np.prod(shape))
        a, b = _mod_operands(rng, dtype, n)
        a, b = a.reshape(shape), b.reshape(shape)
        if layout == "rows":  # (one row of divisors, broadcast)
            b = b.reshape(-1, shape[-1])[0]
        outs = []
        for lib in (torch, autotensor):
            dt = getattr(lib, dtype)
            with np.errstate(all="ignore"):
                ta, tb = lib.tensor(a).to(dt), lib.tensor(b).to(dt)
            if layout == "strided":
                ta = lib.stack([ta, ta], -1)[..., 0]
            elif layout == "transposed" and ta.dim() == 2:
                ta, tb = ta.t().contiguous().t(), tb.t().contiguous().t()
            out = MOD_OPS[name](lib, ta, tb)
            outs.append(out.float().numpy())
        _same(outs[1], outs[0], (name, dtype, shape, layout))


def test_remainder_by_subnormal_scalar_simd_nan():
    """start_repro_001: ``x.remainder(1e-310)`` of 8 float64 values (one AVX-512 vector,
    where the CPU has it) is NaN in PyTorch, exact for a strided x."""
    x = np.array([1.764, 0.4, 0.979, 2.241] * 2)
    for make in (lambda lib: lib.tensor(x), lambda lib: lib.tensor(np.repeat(x, 2))[::2]):
        outs = [make(lib).remainder(1e-310).numpy() for lib in (torch, autotensor)]
        _same(outs[1], outs[0], "remainder(1e-310)")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_simd_positions_follow_iteration_order(dtype):
    """Note [SIMD tie picks] with permuted layouts: TensorIterator runs its inner loop along
    the operands' fastest dim, so transposed operands take the SIMD loop too."""
    rng = np.random.default_rng(2)
    cases = [((24, 3), "t"), ((16, 2, 3), "p"), ((8, 5), "t1"), ((3, 1, 32), "p")]
    for shape, kind in cases:
        a = np.where(rng.random(shape) < 0.5, 0.0, -0.0)
        b = np.where(rng.random(shape) < 0.5, 0.0, -0.0)
        signs = []
        for lib in (torch, autotensor):
            ta, tb = (lib.tensor(x).to(getattr(lib, dtype)) for x in (a, b))
            if kind == "t":
                ta, tb = ta.t().contiguous().t(), tb.t().contiguous().t()
            elif kind == "t1":  # (only the first operand transposed)
                ta = ta.t().contiguous().t()
            else:
                ta, tb = (x.permute(2, 0, 1).contiguous().permute(1, 2, 0) for x in (ta, tb))
            for op in (lib.maximum, lib.minimum):
                signs.append(np.signbit(op(ta, tb).numpy()))
        for k in range(2):
            assert (signs[k] == signs[k + 2]).all(), (shape, kind, k)


# ---- logsumexp / log_softmax at special values and in 16-bit dtypes (start_repro_009) ----

RTOL = {"float64": 1e-13, "float32": 2e-6, "float16": 1e-3, "bfloat16": 8e-3}
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.5, -2.0]
LSE_OPS = {
    "logsumexp": lambda lib, x, d: lib.logsumexp(x, d),
    "logsumexp_keepdim": lambda lib, x, d: lib.logsumexp(x, d, keepdim=True),
    "softmax": lambda lib, x, d: lib.softmax(x, d),
    "log_softmax": lambda lib, x, d: lib.log_softmax(x, d),
    "logcumsumexp": lambda lib, x, d: lib.logcumsumexp(x, d),
    "softmin": lambda lib, x, d: lib.nn.functional.softmin(x, d),
}


def _lse_inputs():
    yield from (np.array(v) for v in SPECIAL)
    yield from (np.array(p) for p in itertools.product(SPECIAL, SPECIAL))
    yield from (np.array(p).reshape(1, 3) for p in itertools.product(SPECIAL, repeat=3))


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16"])
@pytest.mark.parametrize("name", sorted(LSE_OPS))
def test_logsumexp_family_at_special_values(name, dtype):
    """logsumexp of a 0-d -0.0 is +0.0 (PyTorch's log(sum(exp(x - m))) + m runs for 0-d
    inputs too); every pattern of signed zeros, infinities and NaN over rows of 1-3."""
    fn = LSE_OPS[name]
    for x in _lse_inputs():
        for d in ([0] if x.ndim <= 1 else [0, 1]):
            for strided in (False, True):
                outs = []
                for lib in (torch, autotensor):
                    t = lib.tensor(x).to(getattr(lib, dtype))
                    if strided and t.dim():
                        t = lib.stack([t, t], -1)[..., 0]
                    outs.append(fn(lib, t, d).double().numpy())
                _same(outs[1], outs[0], (name, dtype, x.tolist(), d, strided), RTOL[dtype])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", ["logsumexp", "log_softmax", "logcumsumexp"])
def test_16bit_logsumexp_log_softmax_bitwise(name, dtype):
    """float16/bfloat16: logsumexp rounds each step of PyTorch's composite; log_softmax's
    last-dim kernel keeps the row's sum and its log in the 16-bit dtype, other dims round
    once (bit for bit on random rows)."""
    x = np.random.default_rng(3).normal(0, 3, (300, 5)).astype(np.float32)
    for d in (0, 1):
        outs = [getattr(lib, name)(lib.tensor(x).to(getattr(lib, dtype)), d).float().numpy()
                for lib in (torch, autotensor)]
        assert (outs[0] == outs[1]).all(), (name, dtype, d)


# ---- matrix products: dtype errors and result dtypes (start_repro_007) ----

MM_DTYPES = ["bool", "uint8", "int64", "float16", "bfloat16", "float32", "float64",
             "complex128"]
MM_SHAPES = {1: (3,), 2: (3, 3), 3: (2, 3, 3), 4: (2, 2, 3, 3), "nf3": "nf3"}


def _mm_operand(lib, shape, dtype):
    if shape == "nf3":  # (a batch matmul cannot fold into one mm: it runs bmm)
        return _mm_operand(lib, (3, 2, 3), dtype).transpose(0, 1)
    x = np.arange(1, int(np.prod(shape)) + 1, dtype=np.float64).reshape(shape) % 3
    return lib.tensor(x).to(getattr(lib, dtype))


MM_OPS = {
    "matmul": (lambda lib, a, b: lib.matmul(a, b), [1, 2, 3, 4, "nf3"], [1, 2, "nf3"]),
    "mm": (lambda lib, a, b: lib.mm(a, b), [2], [2]),
    "bmm": (lambda lib, a, b: lib.bmm(a, b), [3, "nf3"], [3]),
    "mv": (lambda lib, a, b: lib.mv(a, b), [2], [1]),
    "dot": (lambda lib, a, b: lib.dot(a, b), [1], [1]),
    "addmm": (lambda lib, a, b: lib.addmm(a, a, b), [2], [2]),
    "addmm_self": (lambda lib, a, b: lib.addmm(b, a, a), [2], [2]),
    "addmv": (lambda lib, a, b: lib.addmv(b, a, b), [2], [1]),
    "addbmm": (lambda lib, a, b: lib.addbmm(a[0], a, b), [3], [3]),
    "baddbmm": (lambda lib, a, b: lib.baddbmm(a, a, b), [3], [3]),
    "baddbmm_self": (lambda lib, a, b: lib.baddbmm(b, a, a), [3], [3]),
    "addr": (lambda lib, a, b: lib.addr(lib.outer(a, a), a, b), [1], [1]),
}


def _outcome(fn, *args):
    try:
        r = fn(*args)
        return ("ok", str(r.dtype).split(".")[-1], tuple(r.shape)) if hasattr(r, "dtype") \
            else ("ok", r)
    except Exception as e:  # noqa: BLE001 (the error itself is compared)
        return type(e).__name__, str(e).split("\n")[0]


@pytest.mark.parametrize("name", sorted(MM_OPS))
def test_matrix_product_dtype_errors_like_torch(name):
    """Every dtype pair and rank: PyTorch's error type and message (bool products, mixed
    dtypes in addmm's order: self against mat2 first; baddbmm's input against batch1),
    or its result dtype (addr promotes its three operands)."""
    fn, ranks_a, ranks_b = MM_OPS[name]
    for ta, tb in itertools.product(MM_DTYPES, MM_DTYPES):
        for ra, rb in itertools.product(ranks_a, ranks_b):
            res = [_outcome(fn, lib, _mm_operand(lib, MM_SHAPES[ra], ta),
                            _mm_operand(lib, MM_SHAPES[rb], tb))
                   for lib in (torch, autotensor)]
            assert res[0] == res[1], (name, ta, tb, ra, rb, res)


def _addr_backward(lib, s, a, b):
    r = lib.addr(s, a, b)
    r.sum().backward()
    return r


def test_addr_gradient_of_mixed_dtypes_refuses_like_torch():
    """addr promotes its operands, but its gradient's mv refuses mixed dtypes, as PyTorch's."""
    for dts in [("float32", "float64", "float32"), ("float64", "float32", "float32"),
                ("float32", "float32", "float32")]:
        res = []
        for lib in (torch, autotensor):
            s, a, b = (lib.ones(sh, dtype=getattr(lib, dt), requires_grad=True)
                       for sh, dt in zip([(2, 2), (2,), (2,)], dts))
            out = _outcome(_addr_backward, lib, s, a, b)
            res.append((out, [None if x.grad is None else str(x.grad.dtype)[-7:]
                              for x in (s, a, b)]))
        assert res[0] == res[1], (dts, res)


# ---- the strides of size-1 dims (start_repro_007: matmul's fold test reads them) ----

LAYOUT_OPS = {
    "eq": lambda x, o: x.eq(o), "add": lambda x, o: x + o, "mul": lambda x, o: x * o,
    "div": lambda x, o: x / o, "lt": lambda x, o: x < o, "pow": lambda x, o: x ** o,
    "remainder": lambda x, o: x % o, "rsub": lambda x, o: o - x,
    "clamp": lambda x, o: x.clamp(min=o), "where": lambda x, o: x.where(x > 0, o),
    "exp": lambda x, o: x.exp(), "add_alpha": lambda x, o: x.add(o, alpha=2),
}


def _strides_of(fn, x, o):
    return fn(x, o).stride()


@pytest.mark.parametrize("dtype", ["float32", "float16", "int64", "bool"])
def test_size_one_dim_strides_like_torch(dtype):
    """TensorIterator's fast setup (operands of one shape) ignores the strides of size-1
    dims, its dim order (a broadcast or number operand) reads them: results keep them as
    PyTorch's do, so matmul of ``x.eq(1)`` folds (or runs bmm) as PyTorch's."""
    cases = [((2, 1, 1), (1, 0, 2)), ((1, 3), (1, 0)), ((3, 1, 2), (1, 0, 2)),
             ((2, 1), (1, 0)), ((1, 2, 3), (0, 2, 1)), ((2, 1, 3), (2, 1, 0))]
    for (shape, perm), other, name in itertools.product(
            cases, [1, 0.5, "0d", "row"], sorted(LAYOUT_OPS)):
        res = []
        for lib in (torch, autotensor):
            x = lib.tensor(np.arange(1, np.prod(shape) + 1).reshape(shape))
            x = x.to(getattr(lib, dtype)).permute(*perm)
            o = lib.tensor(2.0) if other == "0d" else lib.ones(x.shape[-1]) \
                if other == "row" else other
            res.append(_outcome(_strides_of, LAYOUT_OPS[name], x, o))
        assert res[0] == res[1], (shape, perm, other, name, res)


# ---- zero-tensor tangents (pending_stop21/end_repro_002: cos(sgn(x))'s tangent) ----

def _tangent_values(lib, y):
    t = lib.autograd.forward_ad.unpack_dual(y).tangent
    if t is None:
        return None
    if lib is torch and torch._is_zerotensor(t):  # (no storage: its values are +0.0)
        return np.zeros(tuple(t.shape))
    return t.detach().double().numpy()


SGN_CHAINS = {
    "cos": lambda s, x: s.cos(), "neg_exp": lambda s, x: (-s).exp(),
    "mul_neg": lambda s, x: s * -2.0, "div_neg": lambda s, x: s / -3.0,
    "add_dual": lambda s, x: s * 0.0 + x * -0.0, "mul_dual": lambda s, x: s * x,
    "sin_neg": lambda s, x: (s + 1.5).sin() * -1.0, "rsub_cos": lambda s, x: (1 - s).cos(),
    "sum": lambda s, x: (s * -1.0).sum(), "sign_cos": lambda s, x: x.sign().cos(),
    "abs_cos": lambda s, x: x.abs().cos(), "sgn_sgn": lambda s, x: s.sgn().cos(),
}


@pytest.mark.parametrize("name", sorted(SGN_CHAINS))
def test_sgn_tangent_is_a_zero_tensor(name):
    """sgn's tangent of a real input is PyTorch's zero tensor (Note [Zero-tensor tangents]
    in _ops/dispatch.py): +0.0 through products with negative numbers where it has one
    element; stored as zeros, and then signed as any product, where it has more."""
    for x, t in [(1.764, 1.624), ([1.764], [1.624]), ([[-0.5]], [[2.0]]),
                 ([1.764, -0.5], [1.624, 1.0]), ([0.0, -0.0, 2.0], [1.0, -1.0, 0.5])]:
        outs = []
        for lib in (torch, autotensor):
            fw = lib.autograd.forward_ad
            with fw.dual_level():
                d = fw.make_dual(lib.tensor(x, dtype=lib.float64),
                                 lib.tensor(t, dtype=lib.float64))
                outs.append(_tangent_values(lib, SGN_CHAINS[name](d.sgn(), d)))
        assert (outs[0] is None) == (outs[1] is None), (name, x)
        if outs[0] is not None:
            _same(outs[1], outs[0], (name, x))


# ---- cumprod's tangent with zeros (pending_stop21/end_repro_001) ----

@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_cumprod_tangent_with_zeros_like_torch(dtype):
    """PyTorch's cumprod_jvp: the generic formula before a slice's first zero, the cumprod
    with that zero replaced by its tangent from it on (signed zeros, infinities after the
    zero, NaN), along either dim of random 2-d tensors."""
    rng = np.random.default_rng(5)
    pool = np.array([0.0, -0.0, 0.0, 1.5, -2.0, 0.5, np.inf, np.nan, -1.0, 3.0])
    for _ in range(60):
        shape = tuple(rng.integers(1, 5, 2))
        x = rng.choice(pool, shape)
        t = rng.choice(np.array([0.0, -0.0, 1.0, -1.5, np.inf]), shape)
        for dim in (0, 1):
            outs = []
            for lib in (torch, autotensor):
                fw = lib.autograd.forward_ad
                dt = getattr(lib, dtype)
                with fw.dual_level():
                    d = fw.make_dual(lib.tensor(x, dtype=dt), lib.tensor(t, dtype=dt))
                    outs.append(_tangent_values(lib, d.cumprod(dim)))
            _same(outs[1], outs[0], (x.tolist(), t.tolist(), dim), 1e-13 if dtype ==
                  "float64" else 1e-6)


def test_relu_of_negative_zero_then_cumprod_tangent():
    """end_repro_001: relu keeps -0.0, its tangent is 0 there, cumprod's tangent is -0.0."""
    outs = []
    for lib in (torch, autotensor):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            d = fw.make_dual(lib.tensor([-0.417, -0.0]), lib.tensor([1.789, 0.437]))
            outs.append(_tangent_values(lib, d.relu().cumprod(0)))
    _same(outs[1], outs[0], "relu-cumprod")
