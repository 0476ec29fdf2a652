"""Stop 34, helper half34: float16 and bfloat16 forward values, gradients and forward-AD
tangents bit-identical to PyTorch 2.13's CPU results.

Each case runs one scenario on autotensor and on torch: the op on a tensor of N(0, 4)
values (positive where the op needs it), backward with an N(0, 1) cotangent, and the op on
a dual with an N(0, 1) tangent; results are compared as uint16 bits (NaN positions must
agree; NaN payloads are not compared: README "Numerics"). The classes fixed: rsqrt's SIMD
loop in float32 (its scalar tail rounds the sqrt first), glu in float32, prod multiplying
in the half type (Note [Half products]), a formula's Python number read in float32 by mul
and div (Note [Half scalars in formulas]: log2, log10, exp2, deg2rad, erf, sinc, lerp,
var), bfloat16's sigmoid_backward in float32 rounded once, var/std tangents as PyTorch's
rule (var_backward of the tangent, then the sum)."""

import zlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402

DTYPES = ("float16", "bfloat16")
# (expr of x, input kind: "n" normal, "p" positive, "u" in (-0.9, 0.9); with a tangent)
CASES = {
    "rsqrt": ("x.rsqrt()", "p", True),
    "glu": ("F.glu(x, 0)", "n", False),  # (glu_jvp has no half kernel: both refuse)
    "glu_dim1": ("F.glu(x.reshape(4, -1), 1)", "n", False),
    "prod": ("x.prod()", "p1", True),
    "prod_dim": ("x.reshape(4, -1).prod(1)", "p1", True),
    "prod_dim0": ("x.reshape(4, -1).prod(0)", "p1", True),
    "log2": ("x.log2()", "p", True),
    "log10": ("x.log10()", "p", True),
    "exp2": ("x.exp2()", "n", True),
    "deg2rad": ("x.deg2rad()", "n", True),
    "rad2deg": ("x.rad2deg()", "n", True),
    "erf": ("x.erf()", "n", True),
    "erfc": ("x.erfc()", "n", True),
    "sinc": ("x.sinc()", "n", True),
    "lerp": ("x.lerp(x.flip(0), 0.3)", "n", True),
    "asinh": ("x.asinh()", "n", True),
    "sigmoid": ("x.sigmoid()", "n", True),
    "logit_sigmoid": ("x.sigmoid().logit()", "n", True),
    "var": ("x.var()", "n", True),
    "std": ("x.std()", "n", True),
    "var_dim": ("x.reshape(4, -1).var(1)", "n", True),
    "std_dim": ("x.reshape(4, -1).std(0)", "n", True),
}
SIZES = (64, 96, 200)


def _inputs(kind, n, seed):
    rng = np.random.default_rng(seed)
    p = (rng.standard_normal(n) * 2).astype(np.float32)
    if kind == "p":
        p = np.abs(p) + np.float32(0.01)
    elif kind == "p1":  # (products of many values: near 1, so they neither vanish nor overflow)
        p = (rng.standard_normal(n) * 0.3 + 1).astype(np.float32)
    elif kind == "u":
        p = np.tanh(p).astype(np.float32) * np.float32(0.9)
    t = rng.standard_normal(n).astype(np.float32)
    g = rng.standard_normal(n).astype(np.float32)
    return p, t, g


def _bits(lib, y):
    y = y.detach().contiguous()
    return y.reshape(-1).view(lib.int16).numpy().astype(np.uint16)


def _scenario(lib, expr, dtype, p, t, g, tangent):
    F = lib.nn.functional  # noqa: F841 (read by the expression)
    dt = getattr(lib, dtype)
    x = lib.tensor(p, dtype=dt, requires_grad=True)
    y = eval(expr)
    y.backward(lib.tensor(g[:y.numel()].reshape(tuple(y.shape)), dtype=dt))
    out = [_bits(lib, y), _bits(lib, x.grad)]
    if tangent:
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(lib.tensor(p, dtype=dt), lib.tensor(t, dtype=dt))
            out.append(_bits(lib, fw.unpack_dual(eval(expr)).tangent))
    return out


def _nan(bits, dtype):
    if dtype == "float16":
        return np.isnan(bits.view(np.float16))
    return ((bits & 0x7F80) == 0x7F80) & ((bits & 0x007F) != 0)


# (cases whose values agreed on the base commit too, left out: float16's sigmoid_backward
# rounds each step to float16, as autotensor did; a bfloat16 var's tangent rounded from
# the weights of ones happened to agree on these draws)
_AGREED_BEFORE = {("sigmoid", "float16"), ("logit_sigmoid", "float16"),
                  ("var", "bfloat16", 64), ("var", "bfloat16", 96),
                  ("var_dim", "bfloat16", 96)}
PARAMS = [(c, d, n) for c in sorted(CASES) for d in DTYPES for n in SIZES
          if (c, d) not in _AGREED_BEFORE and (c, d, n) not in _AGREED_BEFORE]


@pytest.mark.parametrize("case,dtype,n", PARAMS)
def test_half_bits(case, dtype, n):
    expr, kind, tangent = CASES[case]
    p, t, g = _inputs(kind, n, zlib.crc32(f"{case} {n}".encode()))
    want = _scenario(torch, expr, dtype, p, t, g, tangent)
    got = _scenario(autotensor, expr, dtype, p, t, g, tangent)
    for what, a, b in zip(("forward", "gradient", "tangent"), got, want):
        nan = _nan(b, dtype)
        assert (_nan(a, dtype) == nan).all(), f"{case} {dtype} {what}: NaN positions differ"
        bad = a[~nan] != b[~nan]
        assert not bad.any(), f"{case} {dtype} {what}: {bad.sum()} of {bad.size} differ"


@pytest.mark.parametrize("dtype", DTYPES)
def test_rsqrt_scalar_tail(dtype):
    """The scalar tail (past the last whole 32-lane vector) rounds the sqrt to the half
    type first: lengths 31, 33, 63 and a strided input (the scalar loop throughout)."""
    rng = np.random.default_rng(4)
    for n in (31, 33, 63, 1000):
        p = np.abs(rng.standard_normal(n) * 3).astype(np.float32) + np.float32(1e-3)
        a, b = (lib.tensor(p, dtype=getattr(lib, dtype)) for lib in (torch, autotensor))
        want, got = _bits(torch, a.rsqrt()), _bits(autotensor, b.rsqrt())
        assert (want == got).all(), f"rsqrt n={n}: {(want != got).sum()} differ"
        want, got = _bits(torch, a[::2].rsqrt()), _bits(autotensor, b[::2].rsqrt())
        assert (want == got).all(), f"rsqrt strided n={n}: {(want != got).sum()} differ"


@pytest.mark.parametrize("dtype", DTYPES)
def test_prod_shapes(dtype):
    """Note [Half products]: rows of 4 vectors or more (vectorized_inner_reduction), short
    rows, outer reductions, whole tensors."""
    rng = np.random.default_rng(5)
    for shape, dim in (((1000,), None), ((130,), 0), ((5, 100), 1), ((100, 5), 0),
                       ((3, 4, 70), 2), ((3, 4, 70), 1), ((20, 20), None), ((300, 7), 1)):
        p = (rng.standard_normal(shape) * 0.4 + 1).astype(np.float32)
        a, b = (lib.tensor(p, dtype=getattr(lib, dtype)) for lib in (torch, autotensor))
        want = _bits(torch, a.prod() if dim is None else a.prod(dim))
        got = _bits(autotensor, b.prod() if dim is None else b.prod(dim))
        assert (want == got).all(), f"prod {shape} dim={dim}: {(want != got).sum()} differ"


# (float16's sqrt NaN, 0xfe00, was NumPy's already: not a case)
@pytest.mark.parametrize("expr,dtype", [(e, d) for e in ("x.pow(2.5)", "x.pow(x.abs() + 0.5)",
                                                         "x.log1p()") for d in DTYPES]
                         + [("x.sqrt()", "bfloat16")])
def test_half_nan_bits(expr, dtype):
    """Note [Half NaN bits]: the NaNs an op makes, bit for bit, in PyTorch's SIMD loop
    (64 elements a step) and its scalar tail; N(0, 4) inputs, about half of them invalid."""
    rng = np.random.default_rng(6)
    for n in (5, 64, 96, 130):
        p = (rng.standard_normal(n) * 2).astype(np.float32)
        got, want = ((_bits(lib, eval(expr, {"x": lib.tensor(p, dtype=getattr(lib, dtype))})))
                     for lib in (autotensor, torch))
        assert (got == want).all(), f"{expr} n={n}: {(got != want).sum()} of {n} differ"


@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_var_tangent_full_precision(dtype):
    """var/std tangents as PyTorch's rule, (2 / dof * self_t) * (self - mean) summed: the
    weights of ones times self_t differed in 45 of 80 float32 and float64 tangents too."""
    rng = np.random.default_rng(9)
    for trial in range(5):
        p, t = rng.standard_normal(37) * 2, rng.standard_normal(37)
        for expr in ("x.var()", "x.std()", "x.reshape(1, 37).var(1)", "x.var(correction=0)"):
            got, want = [], []
            for lib, sink in ((autotensor, got), (torch, want)):
                fw = lib.autograd.forward_ad
                with fw.dual_level():
                    x = fw.make_dual(lib.tensor(p, dtype=getattr(lib, dtype)),
                                     lib.tensor(t, dtype=getattr(lib, dtype)))
                    sink.append(fw.unpack_dual(eval(expr)).tangent.numpy().reshape(-1))
            assert (got[0] == want[0]).all(), f"{expr}: {got[0]} != {want[0]}"


@pytest.mark.parametrize("dtype,n", [("bfloat16", 257), ("float16", 3001)])
def test_mean_backward_count(dtype, n):
    """mean's backward divides by the count read in float32 (257 is 256 in bfloat16, 3001
    is 3000 in float16: NumPy's rule rounded the count first)."""
    got, want = [], []
    for lib, sink in ((autotensor, got), (torch, want)):
        dt = getattr(lib, dtype)
        x = lib.ones(n, dtype=dt, requires_grad=True)
        x.mean().backward(lib.tensor(1.7, dtype=dt))
        y = lib.ones(3, n, dtype=dt, requires_grad=True)
        y.mean(1).backward(lib.full((3,), 1.3, dtype=dt))
        sink.extend([_bits(lib, x.grad), _bits(lib, y.grad)])
    for a, b in zip(got, want):
        assert (a == b).all(), f"{(a != b).sum()} of {a.size} differ"


# (float16's traces of 8 and 4 values agreed on base too: bfloat16 only for those)
@pytest.mark.parametrize("expr,dtype", [
    ("x.reshape(8, 8).trace()", "bfloat16"), ("x.reshape(16, 4).trace()", "bfloat16")] + [
    (e, d) for e in ("x.reshape(8, 8).renorm(2, 0, 1.0)", "x.reshape(4, 16).renorm(1, 1, 0.5)",
                     "x.reshape(8, 8).renorm(3, 1, 2.0)") for d in DTYPES])
def test_trace_renorm(expr, dtype):
    """trace sums the diagonal in float32 in order (aten's trace_cpu); renorm's norm and
    scale factor are float32, the factor stored in the half type before self * factor;
    forward values and tangents (trace's is the trace of the tangent)."""
    for seed in range(4):
        p, t, g = _inputs("n", 64, 100 + seed)
        want = _scenario(torch, expr, dtype, p, t, g, "trace" in expr)
        got = _scenario(autotensor, expr, dtype, p, t, g, "trace" in expr)
        for what, a, b in zip(("forward", "gradient", "tangent"), got, want):
            assert (a == b).all(), f"{what}: {(a != b).sum()} of {a.size} differ"
