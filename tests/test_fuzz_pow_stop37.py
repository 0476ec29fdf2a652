"""Stop 37 (helper pow37): float64 pow bit for bit against PyTorch's CPU kernels: glibc's
pow in cpu_kernel_vec's scalar loop (tails, small, strided and doubly broadcast operands),
SLEEF's Sleef_powd8_u10 in its SIMD loop (Note [SLEEF's pow] in _ops/_specfun.py), for
pow.Tensor_Tensor, pow.Tensor_Scalar, pow.Scalar, in place, and in pow's gradients
(PowBackward0/1: x ** (e - 1)) and tangents. NumPy's own AVX-512 power gave another
double on ~5% of elements (OPEN_FINDINGS.md, Stop 37 (pow; helper pow37))."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 5e-324, 1e-310, 1e308,
                     1e-300, 1e300, 0.5, -2.0])


def _operands(n, seed):
    """n bases and exponents: (0, 10) to (-3, 3), a fifth negative bases to integral
    exponents, wide magnitudes, and special values."""
    rng = np.random.default_rng(seed)
    x = rng.random(n) * 10
    e = rng.random(n) * 6 - 3
    neg = rng.random(n) < 0.2
    x[neg] = -x[neg]
    e[neg] = np.round(e[neg] * 3)
    wide = rng.random(n) < 0.1
    x[wide] = np.exp(rng.uniform(-700, 700, wide.sum()))
    e[wide] = rng.uniform(-1, 1, wide.sum())
    m = rng.random(n) < 0.06
    x[m] = rng.choice(_SPECIAL, m.sum())
    m = rng.random(n) < 0.04
    e[m] = rng.choice(np.r_[_SPECIAL, 3.0, -3.0, 2.0, 0.5], m.sum())
    return x, e


def _bits(t):
    a = np.ascontiguousarray(np.asarray(t.detach().numpy(), np.float64))
    return a.view(np.int64)


def scenario(mod, kind, n, seed):
    if kind == "transposed":
        n = 4 * max(n // 4, 1)
    x, e = _operands(n, seed)
    X = mod.tensor(x, dtype=mod.float64)
    E = mod.tensor(e, dtype=mod.float64)
    if kind == "tensor":
        return mod.pow(X, E)
    if kind == "strided":
        return mod.pow(mod.tensor(np.repeat(x, 2), dtype=mod.float64)[::2], E)
    if kind == "transposed":
        a = mod.tensor(x.reshape(4, -1), dtype=mod.float64).t()
        return mod.pow(a, mod.tensor(e.reshape(-1, 4), dtype=mod.float64))
    if kind == "broadcast":  # (a 0-d exponent: SIMD loop with a broadcast operand)
        return mod.pow(X, E[:1].reshape(()) * 0 + 1.37)
    if kind == "expanded":  # (two broadcast operands: the scalar loop; NumPy's power of
        # 0.084 ** -1.5 is an ulp below glibc's)
        base = mod.tensor([0.084], dtype=mod.float64).expand(n)
        return mod.pow(base, mod.tensor(-1.5, dtype=mod.float64))
    if kind.startswith("scalar"):
        return X ** float(kind[6:])
    if kind == "base":
        return 2.5 ** E
    if kind == "inplace":
        X.pow_(-1.5)
        return X
    if kind == "float_power":  # (a float32 tensor cast to double)
        with np.errstate(all="ignore"):
            return mod.float_power(mod.tensor(x.astype(np.float32)), 1.37)
    raise ValueError(kind)


_SIZES = [1, 2, 7, 15, 16, 17, 31, 32, 33, 47, 64, 100, 1000, 4099]
_KINDS = ["tensor", "strided", "transposed", "broadcast", "expanded", "scalar1.7",
          "scalar-1.5", "scalar-3", "scalar4", "scalar0.3", "scalar123.5", "base", "inplace",
          "float_power"]


@pytest.mark.parametrize("kind", _KINDS)
def test_pow_float64_bits(kind):
    differ = {}
    for n in _SIZES:
        a = _bits(scenario(autotensor, kind, n, n))
        b = _bits(scenario(torch, kind, n, n))
        assert a.shape == b.shape
        if (a != b).any():
            differ[n] = int((a != b).sum())
    assert not differ


def test_pow_float64_ported_max():
    """65,536 elements: PyTorch's threads cut the runs, each piece with a scalar tail."""
    for kind in ("tensor", "scalar-1.5"):
        a = _bits(scenario(autotensor, kind, 1 << 16, 3))
        b = _bits(scenario(torch, kind, 1 << 16, 3))
        assert (a != b).sum() == 0


def grad_scenario(mod, n, scalar):
    rng = np.random.default_rng(n)
    x = mod.tensor(rng.random(n) * 4 + 0.05, dtype=mod.float64, requires_grad=True)
    e = mod.tensor(rng.random(n) * 6 - 3, dtype=mod.float64, requires_grad=True)
    y = x ** -1.7 if scalar else x ** e
    g = mod.tensor(rng.random(n) + 0.5, dtype=mod.float64)
    grads = mod.autograd.grad(y, (x,) if scalar else (x, e), g)
    return [y] + list(grads)


@pytest.mark.parametrize("scalar", [True, False])
def test_pow_float64_backward(scalar):
    """The value and the base's gradient bit for bit; the exponent's, grad * (x ** e *
    log(x)), within an ulp: PyTorch's float64 log is MKL's (README "Numerics")."""
    for n in (5, 40, 333, 2000):
        ours, theirs = grad_scenario(autotensor, n, scalar), grad_scenario(torch, n, scalar)
        for a, b in zip(ours[:2], theirs[:2]):
            assert (_bits(a) != _bits(b)).sum() == 0
        for a, b in zip(ours[2:], theirs[2:]):
            np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=3e-16)


def jvp_scenario(mod):
    """fin30_repro_004's program: pow_(-1.5) of a dual tensor, then a gradient of
    sin(t * t) (the tangent amplifies an ulp of x ** -2.5)."""
    fwAD = mod.autograd.forward_ad
    with fwAD.dual_level():
        v = mod.tensor([[0.286, -0.157], [0.16, 0.084]], dtype=mod.float64)
        v = fwAD.make_dual(v, mod.tensor([[0.088, -0.527], [-0.19, 0.462]],
                                         dtype=mod.float64))
        v.pow_(-1.5)
        out = mod.func.grad(lambda t: mod.sin(t * t).sum())(v)
        p, t = fwAD.unpack_dual(out)
        return p, t


def test_pow_float64_tangent():
    for a, b in zip(jvp_scenario(autotensor), jvp_scenario(torch)):
        assert (_bits(a) != _bits(b)).sum() == 0


def scenario32(mod, kind, n, seed):
    """float32: SLEEF's powf in the SIMD loop (32 elements a step), glibc's powf in
    pow.Tensor_Tensor's scalar loop, the double pow rounded in pow.Tensor_Scalar's."""
    x, e = _operands(n, seed)
    with np.errstate(all="ignore"):
        x, e = x.astype(np.float32), e.astype(np.float32)
    X = mod.tensor(x, dtype=mod.float32)
    E = mod.tensor(e, dtype=mod.float32)
    if kind == "tensor":
        return mod.pow(X, E)
    if kind == "strided":
        return mod.pow(mod.tensor(np.repeat(x, 2), dtype=mod.float32)[::2], E)
    if kind == "broadcast":
        return mod.pow(X, mod.tensor(-1.37, dtype=mod.float32))
    if kind.startswith("scalar"):
        return X ** float(kind[6:])
    if kind == "base":
        return 2.5 ** E
    if kind == "inplace":
        X.pow_(-1.5)
        return X
    raise ValueError(kind)


def _bits32(t):
    return np.ascontiguousarray(np.asarray(t.detach().numpy(), np.float32)).view(np.int32)


@pytest.mark.parametrize("kind", ["tensor", "strided", "broadcast", "scalar1.7",
                                  "scalar-1.5", "scalar0.3", "base", "inplace"])
def test_pow_float32_bits(kind):
    differ = {}
    for n in _SIZES + [1 << 14]:
        a = _bits32(scenario32(autotensor, kind, n, n))
        b = _bits32(scenario32(torch, kind, n, n))
        if (a != b).any():
            differ[n] = int((a != b).sum())
    assert not differ
