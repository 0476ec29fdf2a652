"""Stop 33 (helper erf33): float32 erfcx and log_ndtr as PyTorch's CPU kernels compute them
(Note [Faddeeva's erfcx] in autotensor/_ops/_erfcx.py, Note [glibc's erfcf and log1pf] in
autotensor/_ops/_specfun.py), their gradients and tangents, against PyTorch."""
import ctypes
import pathlib
import platform
import re

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")


def _sweep():
    """A dense grid over the interesting range, the branch points and special values, and
    random float32 bit patterns over the whole range."""
    rng = np.random.default_rng(33)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, -1e-40,
                        1.1754944e-38, -1.1754944e-38, 1e-30, -1e-30, 3e-8, -3e-8, 5e7,
                        5.0000004e7, 1e8, 1e20, 3.4e38, -3.4e38, -1e20, -26.7, -26.699999,
                        -26.700001, -6.1, -6.0999999, -6.1000004, 50, 50.000004, 49.999996,
                        -1, -1.0000001, -0.99999994, -1.4142135, -1.4142137], np.float32)
    scaled = rng.standard_normal(50000) * 10.0 ** rng.uniform(-40, 38, 50000)
    bits = rng.integers(0, 2 ** 32, 100000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return np.concatenate([np.linspace(-30, 30, 400001, dtype=np.float32), special,
                           scaled.astype(np.float32), bits[np.isfinite(bits)]])


def _differ(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return ~((a == b) & (np.signbit(a) == np.signbit(b)) | np.isnan(a) & np.isnan(b))


@pytest.mark.parametrize("name", ["erfcx", "log_ndtr"])
def test_float32_forward_is_pytorchs_bit_for_bit(name):
    """Faddeeva's 100-piece erfcx in float with PyTorch's mix of float and double, and
    log_ndtr with glibc's logf, erfcf and log1pf (30% and 32% of these inputs differed by
    an ulp when both were computed in float64 and rounded)."""
    x = _sweep()
    ours = getattr(autotensor.special, name)(autotensor.tensor(x)).numpy()
    theirs = getattr(torch.special, name)(torch.from_numpy(x)).numpy()
    bad = _differ(ours, theirs)
    assert not bad.any(), (bad.sum(), x[bad][:5], ours[bad][:5], theirs[bad][:5])


@pytest.mark.parametrize("name", ["erfcx", "log_ndtr"])
def test_float64_within_an_ulp_or_two(name):
    """float64 runs the same algorithm in double (it was up to 2e-15 and 1e-12 away)."""
    x = np.concatenate([np.linspace(-30, 30, 200001), _sweep().astype(np.float64)])
    ours = getattr(autotensor.special, name)(autotensor.tensor(x)).numpy()
    theirs = getattr(torch.special, name)(torch.from_numpy(x)).numpy()
    finite = np.isfinite(theirs) & (theirs != 0)
    assert not _differ(ours[~finite], theirs[~finite]).any()
    rel = np.abs(ours[finite] - theirs[finite]) / np.abs(theirs[finite])
    assert rel.max() <= 1e-15, (rel.max(), x[finite][rel.argmax()])


def _derivatives(m, name, dtype, x, g, tangent):
    """The value, its tangent, the gradient (create_graph) and the gradient's tangent
    (forward over reverse)."""
    fw = m.autograd.forward_ad
    with fw.dual_level():
        v = fw.make_dual(m.tensor(x.astype(dtype), requires_grad=True),
                         m.tensor(tangent.astype(dtype)))
        y = getattr(m.special, name)(v)
        grad, = m.autograd.grad(y, [v], m.tensor(g.astype(dtype)), create_graph=True)
        return [t.detach().numpy() for t in fw.unpack_dual(y) + fw.unpack_dual(grad)]


def _ulps(a, b):
    def ordered(v):
        i = v.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)
    both = np.isfinite(a) & np.isfinite(b)
    assert not _differ(a[~both], b[~both]).any()
    return np.abs(ordered(a[both]) - ordered(b[both])).max()


@pytest.mark.parametrize("name", ["erfcx", "log_ndtr"])
def test_float32_gradients_and_tangents(name):
    """The backward formulas (2 x erfcx(x) - 2 / sqrt(pi), exp(-(log_ndtr(x) + x^2 / 2)) /
    sqrt(2 pi)) read the value: erfcx's derivatives are PyTorch's bit for bit; log_ndtr's
    go through float32 exp, PyTorch's MKL's (Note [Float32 transcendentals] in raw.py), so
    within 2 ulps where its exp is not correctly rounded (they were up to ~250 ulps away
    near x = -30, where the exponent cancels: the reproducers below)."""
    rng = np.random.default_rng(5)
    x = np.concatenate([np.linspace(-30, 30, 20001, dtype=np.float32), np.array(
        [0, -0.0, 1e-30, 60, 1e8, -1e8, np.inf, -np.inf, np.nan], np.float32)])
    g, tangent = rng.standard_normal((2, x.size)).astype(np.float32)
    ours = _derivatives(autotensor, name, np.float32, x, g, tangent)
    theirs = _derivatives(torch, name, np.float32, x, g, tangent)
    assert not _differ(ours[0], theirs[0]).any()
    if name == "erfcx":
        for a, b in zip(ours, theirs):
            assert not _differ(a, b).any()
    else:  # (the gradient's tangent cancels to ~x^2 ulps of exp: the reproducers' tolerance)
        assert _ulps(ours[1], theirs[1]) <= 2 and _ulps(ours[2], theirs[2]) <= 2


@pytest.mark.parametrize("name", ["erfcx", "log_ndtr"])
def test_float64_gradients_and_tangents(name):
    rng = np.random.default_rng(6)
    x = np.linspace(-30, 30, 20001)
    g, tangent = rng.standard_normal((2, x.size))
    ours = _derivatives(autotensor, name, np.float64, x, g, tangent)
    theirs = _derivatives(torch, name, np.float64, x, g, tangent)
    for a, b in zip(ours[:3], theirs[:3]):
        np.testing.assert_allclose(a, b, rtol=1e-14, atol=0)


def _libm(name):
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("not glibc")
    if tuple(int(p) for p in platform.libc_ver()[1].split(".")[:2]) >= (2, 41):
        pytest.skip("glibc 2.41 has CORE-MATH's correctly rounded erfcf and log1pf")
    fn = getattr(ctypes.CDLL("libm.so.6"), name)
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return np.vectorize(lambda v: fn(float(v)), otypes=[np.float32])


@pytest.mark.parametrize("name", ["erfcf", "log1pf"])
def test_glibc_float_ports_equal_libm(name):
    """The ports are glibc's own functions, not just close to them (libm via ctypes here
    only: the package computes in NumPy)."""
    from autotensor._ops import _specfun
    x = np.concatenate([_sweep()[::4], np.linspace(-1, 1, 200001, dtype=np.float32),
                        -np.logspace(-40, 0, 50000, dtype=np.float32)])
    ours = getattr(_specfun, name)(x)
    bad = _differ(ours, _libm(name)(x))
    assert not bad.any(), (bad.sum(), x[bad][:5])


def test_erfcx_table_is_aten_s():
    """The 100 pieces' coefficients are those of ATen's erfcx_y100 (the header PyTorch's
    wheel installs), each parsed to the same double."""
    from autotensor._ops import _erfcx
    header = pathlib.Path(torch.__file__).parent / "include/ATen/native/Math.h"
    if not header.exists():
        pytest.skip("no ATen headers")
    body = header.read_text().split("erfcx_y100(T y100)", 1)[1].split("calc_erfcx", 1)[0]
    cases = re.findall(r"case (\d+): \{\s*T t = 2\*y100 - (\d+);\s*return (.*?);\s*\}", body)
    assert [(int(c), int(o)) for c, o, _ in cases] == [(k, 2 * k + 1) for k in range(100)]
    table = [[float(v) for v in re.findall(r"\d\.\d+e[-+]?\d+", expr)] for _, _, expr in cases]
    assert np.array_equal(np.array(table), _erfcx._ERFCX_Y100[:100])


@pytest.mark.parametrize("path", ["pending_stop32/fin_repro_002.py",
                                  "pending_stop32/rev2_repro_002.py"])
def test_fuzzer_reproducers(path):
    """log_ndtr's tangent (forward mode) and gradient at float32 points where its value was
    an ulp off: the gradient's exponent cancels, so the ulp grew to 4e-6."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)
