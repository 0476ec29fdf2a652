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
    t = lambda *s: T.tensor(r.standard_normal(s).astype(np.float32)).to(dt)  # noqa: E731
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
    x = t(5, 6)
    x.addmm_(t(5, 16), t(16, 6))
    return x


@pytest.mark.parametrize("dn", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", ["addmm", "addmm_bias_row", "linear_3d", "addmv", "addr",
                                  "baddbmm", "baddbmm_big", "addbmm", "addbmm_empty_batch",
                                  "addmm_"])
def test_half_products_bit_exact(name, dn):
    a = _case(autotensor, dn, name)
    t = _case(torch, dn, name)
    assert str(a.dtype) == str(t.dtype)
    np.testing.assert_array_equal(a.float().numpy(), t.float().numpy())


def test_addbmm_ignores_self_when_beta_is_zero():
    got = []
    for T in (autotensor, torch):
        s = T.full((2, 2), float("nan"))
        got.append(T.addbmm(s, T.ones(3, 2, 4), T.ones(3, 4, 2), beta=0).numpy())
    np.testing.assert_array_equal(*got)
