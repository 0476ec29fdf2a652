"""float16 / bfloat16 matrix products with a bias as PyTorch's CPU kernels round them
(Note [float16 products] in _ops/linalg.py): addmm / addmv / baddbmm / linear in float32 and
rounded once, addr in the dtype after each operation, addbmm rounded after each batch's
addmm_. Bit for bit against torch."""
import zlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")


def _case(T, dn, name):
    dt = getattr(T, dn)
    r = np.random.default_rng(zlib.crc32(name.encode()))
    t = lambda *s: T.tensor(r.standard_normal(s)).to(dt)  # noqa: E731
    if name == "addmm":
        return T.addmm(t(5, 6), t(5, 16), t(16, 6), beta=0.5, alpha=1.5)
    if name == "addmm_bias_row":
        return T.addmm(t(6), t(5, 16), t(16, 6))
    if name == "linear_3d":
        return T.nn.functional.linear(t(3, 5, 16), t(6, 16), t(6))
    if name == "addmv":
        return T.addmv(t(5), t(5, 16), t(16), beta=2, alpha=0.5)
    if name == "addr":
        return T.addr(t(5, 6), t(5), t(6), beta=2, alpha=0.5)
    if name == "baddbmm":
        return T.baddbmm(t(3, 5, 6), t(3, 5, 16), t(3, 16, 6), beta=0.5, alpha=2)
    if name == "baddbmm_big":
        return T.baddbmm(t(3, 12, 12), t(3, 12, 16), t(3, 16, 12))
    if name == "addbmm":
        return T.addbmm(t(5, 6), t(4, 5, 16), t(4, 16, 6), beta=0.5, alpha=2)
    if name == "addbmm_empty_batch":
        return T.addbmm(t(5, 6), t(0, 5, 16), t(0, 16, 6), beta=0.5)
    if name == "conv_tbc":
        return T.conv_tbc(t(7, 2, 8), t(3, 8, 5), t(5), 1)
    if name == "conv_tbc_crop":
        return T.conv_tbc(t(7, 2, 8), t(3, 8, 5), t(5), -1)
    if name == "cdist_mm":
        return T.cdist(t(30, 8), t(27, 8))
    if name == "cdist_mm_batched":
        return T.cdist(t(2, 30, 8), t(27, 8), compute_mode="use_mm_for_euclid_dist")
    x = t(5, 6)
    x.addmm_(t(5, 16), t(16, 6))
    return x


@pytest.mark.parametrize("dn", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", ["addmm", "addmm_bias_row", "linear_3d", "addmv", "addr",
                                  "baddbmm", "baddbmm_big", "addbmm", "addbmm_empty_batch",
                                  "addmm_", "conv_tbc", "conv_tbc_crop", "cdist_mm",
                                  "cdist_mm_batched"])
def test_half_products_bit_exact(name, dn):
    a = _case(autotensor, dn, name)
    t = _case(torch, dn, name)
    assert str(a.dtype) == str(t.dtype)
    np.testing.assert_array_equal(a.float().numpy(), t.float().numpy())


@pytest.mark.parametrize("name", ["conv_tbc", "conv_tbc_crop", "cdist_mm"])
def test_float64_kernels_as_pytorchs_algorithm(name):
    """conv_tbc (one addmm_ per tap) and cdist's mm path (aten's _euclidean_dist) follow
    PyTorch's algorithms in every dtype: float64 to 1e-12."""
    a = _case(autotensor, "float64", name)
    t = _case(torch, "float64", name)
    np.testing.assert_allclose(a.numpy(), t.numpy(), rtol=1e-12, atol=1e-12)


def test_addbmm_ignores_self_when_beta_is_zero():
    got = []
    for T in (autotensor, torch):
        s = T.full((2, 2), float("nan"))
        got.append(T.addbmm(s, T.ones(3, 2, 4), T.ones(3, 4, 2), beta=0).numpy())
    np.testing.assert_array_equal(*got)


@pytest.mark.parametrize("mode", ["linear", "bilinear", "bicubic", "trilinear"])
@pytest.mark.parametrize("dn", ["float16", "bfloat16"])
def test_half_interpolation_rounds_once(mode, dn):
    """float16/bfloat16 interpolation: PyTorch's kernels bit for bit (stop 37; before, the
    float32 result rounded once, within 16 ulps): weights in float (channels-last kernel)
    or stored in the half type (generic kernel), sums in float, rounded once."""
    nd = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}[mode]
    x = np.random.default_rng(3).standard_normal((1, 2) + (5,) * nd)
    dt = getattr(autotensor, dn)
    a = autotensor.nn.functional.interpolate(autotensor.tensor(x).to(dt), scale_factor=1.7,
                                             mode=mode)
    t = torch.nn.functional.interpolate(torch.tensor(x).to(getattr(torch, dn)),
                                        scale_factor=1.7, mode=mode).float().numpy()
    np.testing.assert_array_equal(a.float().numpy(), t)


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dn", ["float16", "bfloat16"])
def test_half_softmax_backward_in_float32(fn, dn):
    """softmax's / log_softmax's backward of a float16/bfloat16 output in float32, rounded
    once: PyTorch's kernel (over the last dim: bit for bit, it was up to 26 ulps off)."""
    got = []
    for T in (autotensor, torch):
        r = np.random.default_rng(0)
        x = T.tensor(r.standard_normal((3, 5, 7))).to(getattr(T, dn)).requires_grad_()
        y = getattr(x, fn)(-1)
        y.backward(T.tensor(r.standard_normal((3, 5, 7))).to(y.dtype))
        got.append((y.detach().float().numpy(), x.grad.float().numpy()))
    if fn == "softmax":
        np.testing.assert_array_equal(got[0][0], got[1][0])
    ulp = 2.0 ** (-10 if dn == "float16" else -7)
    # (half log_softmax's forward is 1-2 ulps off PyTorch's, so its gradient too: open)
    bound = 0 if fn == "softmax" else 16 * ulp
    err = np.abs(got[0][1] - got[1][1]) / np.maximum(np.abs(got[1][1]), 1e-3)
    assert np.max(err) <= bound
