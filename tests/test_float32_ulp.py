"""float32 (and float16/bfloat16) transcendental values against PyTorch's, in ulps.

Note [Float32 transcendentals] in autotensor/_ops/raw.py says how each op is computed;
README "Numerics" has the table ``python -m tests.ulp`` prints. Each bound below is the
measured value (20,000 inputs of tests/ulp.py's domains, PyTorch 2.13 on an AVX-512 CPU)
with a margin, so that going back to NumPy's float32 kernels (10-48% of inputs differing)
fails. Where PyTorch's kernel is ported operation for operation (sigmoid, digamma, exp2's
SIMD loop), nothing may differ.
"""
import math

import numpy as np
import pytest

from tests.ulp import OPS, inputs, measure_one, ulp_distance

torch = pytest.importorskip("torch")

import autotensor  # noqa: E402

N = 20_000

# op (tests/ulp.py's name) -> (largest ulp distance, share of inputs that may differ);
# measured: exp 1%, expm1 0.1-0.6%, log 0.65%, tanh 0.02-0.1%, sin/cos 5% (MKL's float
# sin is not correctly rounded there), tan 18%, asin 3.6%, acos 6.8%, atan 2.4%; MKL's
# kernels differ by CPU (tests/_cpu.py): on an Intel Xeon tanh 0.37-0.61% and erfinv 0.58%,
# on AMD EPYC 0.02-0.1% and under 0.1%.
BOUNDS = {
    "exp (exp)": (1, 0.02), "exp (normal)": (1, 0.02), "exp2": (1, 0.001),
    "expm1 (exp)": (1, 0.01), "expm1 (normal)": (1, 0.003), "log": (1, 0.01),
    "log2": (1, 0.001), "log10": (1, 0.001), "log1p": (1, 0.002), "sin": (1, 0.07),
    "cos": (1, 0.07), "tan": (1, 0.21), "tanh (real)": (1, 0.005),
    "tanh (normal)": (1, 0.008), "sinh": (1, 0.004), "cosh": (1, 0.003),
    "asin": (1, 0.05), "acos": (1, 0.08), "atan": (1, 0.035), "atanh": (1, 0.002),
    "sigmoid (real)": (0, 0.0), "sigmoid (normal)": (0, 0.0), "digamma": (0, 0.0),
    "xlogy": (0, 0.0), "atan2": (1, 0.035), "erfcx": (0, 0.0), "log_ndtr": (0, 0.0),
    # MKL's float erf (2.4%), log (logit: 7%), glibc's sinf (sinc: 1%)
    "erf": (1, 0.035), "logit": (1, 0.09), "sinc": (2, 0.02),
    # not PyTorch's algorithm: glibc's float asinh, acosh, lgamma; MKL's erfc, erfinv
    "asinh": (1, 0.16), "acosh": (2, 0.1), "erfc": (1, 0.045), "erfinv": (1, 0.008),
    "lgamma": (100, 0.05),
}
_BY_NAME = {name: (domain, fn) for name, domain, fn in OPS}


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)  # (PyTorch's SIMD loop over whole vectors: no chunk tails)
    yield
    torch.set_num_threads(n)


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_float32_within_measured_ulps(name):
    domain, fn = _BY_NAME[name]
    worst, share = measure_one(name, domain, fn, np.dtype(np.float32), N, torch, autotensor)
    max_ulp, max_share = BOUNDS[name]
    assert worst <= max_ulp and share <= max_share, (name, worst, share)


@pytest.mark.parametrize("name", ["exp (normal)", "expm1 (normal)", "log", "sin", "cos",
                                  "tanh (normal)", "atan", "sigmoid (normal)"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_computed_in_float32(name, dtype):
    """float16/bfloat16 as PyTorch: the float32 value, rounded once more."""
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes")
    domain, fn = _BY_NAME[name]
    x = inputs(domain, N, np.float32)
    t = torch.from_numpy(x).to(getattr(torch, dtype))
    expected = fn(torch, t).float().numpy()
    got = fn(autotensor, autotensor.from_numpy(x).to(getattr(autotensor, dtype))).float()
    d = ulp_distance(got.numpy(), expected)
    assert (d > 0).mean() <= 0.0005 and d.max() <= 1, (name, d.max(), (d > 0).mean())


@pytest.mark.parametrize("n", [1, 5, 16, 31, 32, 33, 48, 63, 64, 100, 1000, 40_000])
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_sigmoid_bit_exact(n, dtype):
    """PyTorch's sigmoid kernel ported (SLEEF's expf in its SIMD loop, glibc's in the
    scalar loop): every element's bits, at every length (the SIMD loop covers pairs of
    vectors, the rest is the scalar loop's), contiguous and strided."""
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes")
    rng = np.random.RandomState(n)
    x = (rng.standard_normal(2 * n) * 6).astype(np.float32)
    x[: min(n, 8)] = [0.0, -0.0, 88.5, -88.5, 103.9, -104.5, np.inf, np.nan][: min(n, 8)]
    for sl in (slice(0, n), slice(0, 2 * n, 2)):  # contiguous, then strided
        t = torch.from_numpy(x)[sl].to(getattr(torch, dtype))
        a = autotensor.from_numpy(x)[sl].to(getattr(autotensor, dtype))
        expected = torch.sigmoid(t).float().numpy()
        got = autotensor.sigmoid(a).float().numpy()
        nan = np.isnan(expected)  # (bfloat16: PyTorch's NaN bits are its cast's own)
        np.testing.assert_array_equal(np.isnan(got), nan)
        np.testing.assert_array_equal(got[~nan].view(np.int32), expected[~nan].view(np.int32))


def test_sigmoid_backward_and_tangent_use_the_same_values():
    x = np.linspace(-20, 20, 77).astype(np.float32)
    t = torch.from_numpy(x).requires_grad_()
    a = autotensor.from_numpy(x).requires_grad_()
    torch.sigmoid(t).sum().backward()
    autotensor.sigmoid(a).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy().view(np.int32), t.grad.numpy().view(np.int32))


def test_tanh_tangent_of_saturated_value_is_signed_zero():
    """Fuzz stop 22, start_repro_008: tanh(exp(2.241)) is 1.0 in float32 (NumPy's float32
    tanh gave 0.99999994), so its tangent t * (1 - y * y) is -0.0 for a negative t."""
    import torch.autograd.forward_ad as tfw

    import autotensor.autograd.forward_ad as afw
    primal = np.array([1.764, 0.4, 0.979, 2.241], np.float32)
    tangent = np.array([1.624, -0.612, -0.528, -1.073], np.float64)
    out = []
    for m, fw in ((torch, tfw), (autotensor, afw)):
        with fw.dual_level():
            v0 = fw.make_dual(m.tensor(primal), m.tensor(tangent, dtype=m.float32))
            v5 = v0.exp().tanh()
            p, t = fw.unpack_dual(v5)
            out.append((p.numpy().copy(), t.numpy().copy()))
    (tp, tt), (ap, at) = out
    np.testing.assert_array_equal(ap.view(np.int32), tp.view(np.int32))
    np.testing.assert_array_equal(at.view(np.int32), tt.view(np.int32))
    assert math.copysign(1, at[3]) == -1


@pytest.mark.parametrize("op", ["exp", "log", "sin", "cos", "tanh", "log1p", "expm1"])
def test_backward_formulas_use_the_same_kernels(op):
    """The backward formulas call raw.exp, raw.cos... (ExpBackward0's grad * result,
    SinBackward0's grad * cos(x)) and tanh_backward's fused 1 - y * y as PyTorch's."""
    x = inputs("normal", 4096, np.float32)
    if op in ("log", "log1p"):
        x = np.abs(x)
    t = torch.from_numpy(x).requires_grad_()
    a = autotensor.from_numpy(x).requires_grad_()
    getattr(torch, op)(t).backward(torch.ones(x.shape))
    getattr(autotensor, op)(a).backward(autotensor.ones(x.shape))
    d = ulp_distance(a.grad.numpy(), t.grad.numpy())
    # (only as many as the forward values differ; tanh's 1 - y * y turns a 1-ulp
    # difference of y near 1 into thousands of ulps of the gradient, so no ulp bound)
    assert (d > 0).mean() <= 0.07, (op, d.max(), (d > 0).mean())


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_digamma_bit_exact(dtype):
    """calc_digamma<float> ported with glibc's logf (Note [glibc's logf]): every bit,
    poles, reflection and the asymptotic range included."""
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes")
    rng = np.random.RandomState(1)
    x = np.concatenate([rng.standard_normal(20000) * 4, rng.standard_normal(2000) * 1e3,
                        np.exp(rng.uniform(-20, 40, 2000)),
                        [0.0, -0.0, -1, -2.5, np.inf, -np.inf, np.nan, 1e-45, -1e-45,
                         1e17, 1e18, 10, 9, -9.5]]).astype(np.float32)
    t = torch.from_numpy(x).to(getattr(torch, dtype))
    a = autotensor.from_numpy(x).to(getattr(autotensor, dtype))
    expected = torch.digamma(t).float().numpy()
    got = autotensor.digamma(a).float().numpy()
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan].view(np.int32), expected[~nan].view(np.int32))
    assert autotensor.digamma(autotensor.tensor(2.0)).item() == torch.digamma(
        torch.tensor(2.0)).item()  # (0-d)


@pytest.mark.parametrize("n", [2, 7, 40, 1000])
def test_logit_strided_bit_exact(n):
    """A non-contiguous float32 input takes PyTorch's own loops (a contiguous one MKL's
    log): glibc's logf in the scalar loop (a strided inner dim), SLEEF's logf in the SIMD
    loop (rows of a wider tensor), both ported."""
    x = inputs("unit", 64 * n, np.float32)
    for take in (lambda m, v: m.from_numpy(v)[: 2 * n : 2],
                 lambda m, v: m.from_numpy(v).reshape(n, 64)[:, :40]):
        expected = torch.logit(take(torch, x)).numpy()
        got = autotensor.logit(take(autotensor, x)).numpy()
        np.testing.assert_array_equal(got.view(np.int32), expected.view(np.int32))


def test_exp2_simd_loop_bit_exact():
    """PyTorch's float32 exp2 of whole vector pairs is SLEEF's exp2f, ported (the scalar
    loop's glibc exp2f is float64 rounded here: 0.03% differ)."""
    x = np.concatenate([inputs("normal", 4064, np.float32) * 8, np.array(
        [np.nan, np.inf, -np.inf, 0, -0.0, 127.9, 128, -149.5, -150, -151, 1e-45, 300,
         -300, 0.5, -126.5, 127.4] * 2, np.float32)])
    expected = torch.exp2(torch.from_numpy(x)).numpy()
    got = autotensor.exp2(autotensor.from_numpy(x)).numpy()
    np.testing.assert_array_equal(got.view(np.int32), expected.view(np.int32))


@pytest.mark.parametrize("shape", [(5,), (7, 3), (4, 15), (4, 16), (4, 17), (30, 50),
                                   (2, 3, 128), (10, 1000)])
def test_softmax_lastdim_bit_exact(shape):
    """PyTorch's float32 softmax over the last dim (SLEEF's exp of x - max, the row sum in
    its SIMD lanes, times 1 / sum) and its backward ((grad - sum(grad * y)) * y, the sum's
    tail fused), log_softmax's backward (grad - exp(y) * sum(grad), fused): every bit, up
    to raw.PORTED_MAX elements (Note [PyTorch's float32 softmax])."""
    from autotensor._ops import raw
    rng = np.random.RandomState(len(shape) * 100 + shape[-1])
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    t = torch.from_numpy(x).requires_grad_()
    a = autotensor.from_numpy(x).requires_grad_()
    y = torch.softmax(t, -1)
    ya = autotensor.softmax(a, -1)
    np.testing.assert_array_equal(ya.detach().numpy().view(np.int32),
                                  y.detach().numpy().view(np.int32))
    y.backward(torch.from_numpy(g))
    ya.backward(autotensor.from_numpy(g))
    np.testing.assert_array_equal(a.grad.numpy().view(np.int32), t.grad.numpy().view(np.int32))
    out = torch.log_softmax(torch.from_numpy(x), -1)
    expected = torch.ops.aten._log_softmax_backward_data(torch.from_numpy(g), out, -1,
                                                         torch.float32).numpy()
    got = raw.log_softmax_backward_data(g, out.numpy(), -1)
    np.testing.assert_array_equal(got.view(np.int32), expected.view(np.int32))
    t = torch.from_numpy(x).requires_grad_()  # log_softmax (SLEEF's log too) and its grad
    a = autotensor.from_numpy(x).requires_grad_()
    y, ya = torch.log_softmax(t, -1), autotensor.log_softmax(a, -1)
    np.testing.assert_array_equal(ya.detach().numpy().view(np.int32),
                                  y.detach().numpy().view(np.int32))
    y.backward(torch.from_numpy(g))
    ya.backward(autotensor.from_numpy(g))
    np.testing.assert_array_equal(a.grad.numpy().view(np.int32), t.grad.numpy().view(np.int32))


def test_softmax_special_values_and_large_input():
    x = np.array([[0, 1, np.inf, 2], [np.nan, 1, 2, 3], [-np.inf] * 4, [1e30, -1e30, 5, 5],
                  [-1e30] * 4], np.float32)
    for fn in ("softmax", "log_softmax"):
        expected = getattr(torch, fn)(torch.from_numpy(x), -1).numpy()
        got = getattr(autotensor, fn)(autotensor.from_numpy(x), -1).numpy()
        np.testing.assert_array_equal(got, expected)
    # past raw.PORTED_MAX elements the fast path (NumPy's exp and sums): a few ulps
    x = inputs("normal", 1 << 17, np.float32).reshape(-1, 128)
    d = ulp_distance(autotensor.softmax(autotensor.from_numpy(x), -1).numpy(),
                     torch.softmax(torch.from_numpy(x), -1).numpy())
    assert d.max() <= 32, d.max()  # (measured: 21)


@pytest.mark.parametrize("n", [1, 5, 31, 32, 33, 100, 4096])
def test_silu_and_its_backward_bit_exact(n):
    """SiLU's kernel x / (1 + exp(-x)) and silu_backward's dy * s * (1 + x * (1 - s)) with
    PyTorch's exp per loop (as sigmoid's) and its fused inner multiply-add."""
    rng = np.random.RandomState(n)
    x = (rng.standard_normal(n) * 4).astype(np.float32)
    x[: min(n, 5)] = [0.0, -0.0, 100.0, -100.0, np.nan][: min(n, 5)]
    g = rng.standard_normal(n).astype(np.float32)
    t = torch.from_numpy(x).requires_grad_()
    a = autotensor.from_numpy(x).requires_grad_()
    y, ya = torch.nn.functional.silu(t), autotensor.nn.functional.silu(a)
    np.testing.assert_array_equal(ya.detach().numpy().view(np.int32),
                                  y.detach().numpy().view(np.int32))
    y.backward(torch.from_numpy(g))
    ya.backward(autotensor.from_numpy(g))
    np.testing.assert_array_equal(a.grad.numpy().view(np.int32), t.grad.numpy().view(np.int32))


@pytest.mark.parametrize("fn", ["sigmoid", "silu", "exp2", "softmax", "log_softmax"])
def test_past_ported_size_fast_path_within_ulps(fn):
    """Above raw.PORTED_MAX elements the NumPy expressions stay (Note [Size of the ported
    kernels]): a few ulps from PyTorch's (measured: sigmoid and SiLU 4, softmax 21)."""
    from autotensor._ops import raw
    x = inputs("normal", 2 * raw.PORTED_MAX, np.float32).reshape(-1, 128)
    f = {"sigmoid": lambda m, t: m.sigmoid(t), "silu": lambda m, t: m.nn.functional.silu(t),
         "exp2": lambda m, t: m.exp2(t), "softmax": lambda m, t: m.softmax(t, -1),
         "log_softmax": lambda m, t: m.log_softmax(t, -1)}[fn]
    got, expected = f(autotensor, autotensor.from_numpy(x)).numpy(), f(torch, torch.from_numpy(
        x)).numpy()
    if fn == "log_softmax":  # (outputs near 0: absolute error, 8 ulps of the largest |x|)
        assert np.abs(got - expected).max() <= 8 * np.spacing(np.float32(np.abs(x).max()))
        return
    d = ulp_distance(got, expected)
    assert d.max() <= 32 and (d > 0).mean() <= 0.9, (fn, d.max(), (d > 0).mean())
