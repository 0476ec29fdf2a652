"""Complex inputs where PyTorch 2.13 computes (logaddexp) or refuses with its own error
(rounding divisions, heaviside/isclose of mixed dtypes, clamp by a tensor, histc,
polygamma/mvlgamma, logaddexp2, the pointwise losses, binary_cross_entropy,
cosine_similarity, in-place fmod_/remainder_): the remaining calls of stop 20's complex
sweep (tests/fuzz/OPEN_FINDINGS.md, "Stop 21, helper lay6")."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

CASES = [
    'm.div(x, y, rounding_mode="floor")', 'm.div(x, y, rounding_mode="trunc")',
    'm.div(x, x, rounding_mode="floor")', 'm.div(y, x, rounding_mode="floor")',
    'm.div(x, 2, rounding_mode="floor")', 'y.clone().div_(x, rounding_mode="floor")',
    'x.clone().div_(y, rounding_mode="trunc")', 'x.clone().div_(2, rounding_mode="trunc")',
    'm.heaviside(x, y)', 'm.heaviside(y, x)', 'm.heaviside(x, x)', 'x.clone().heaviside_(y)',
    'm.heaviside(y, y.double())',
    'm.clamp_max(x, y)', 'm.clamp_min(x, y)', 'x.clamp_max(y)', 'x.clone().clamp_min_(y)',
    'x.clone().clamp_max_(y)', 'y.clone().clamp_min_(x)',
    'm.isclose(x, y)', 'm.isclose(y, x)', 'm.isclose(y, y.double())', 'm.allclose(y, y.double())',
    'm.isclose(x, x * 1.000001)',
    'm.histc(x)', 'm.histc(x, 10, 0, 1)',
    'm.polygamma(0, x)', 'm.polygamma(1, x)', 'm.polygamma(2, x)', 'x.polygamma(1)',
    'x.clone().polygamma_(1)', 'm.special.polygamma(3, x)',
    'm.mvlgamma(x, 1)', 'm.mvlgamma(x, 2)', 'x.clone().mvlgamma_(1)',
    'm.special.multigammaln(x, 1)',
    'm.logaddexp2(x, y)', 'm.logaddexp2(x, x)',
    'm.nn.functional.mse_loss(x, y)', 'm.nn.functional.mse_loss(y, x)',
    'm.nn.functional.mse_loss(x, x, reduction="none")',
    'm.nn.functional.smooth_l1_loss(x, x)', 'm.nn.functional.smooth_l1_loss(y, x)',
    'm.nn.functional.huber_loss(x, x)', 'm.nn.functional.huber_loss(y, x)',
    'm.nn.functional.binary_cross_entropy(x, x)',
    'm.nn.functional.binary_cross_entropy(y.sigmoid(), x)',
    'm.nn.functional.binary_cross_entropy(x, y)',
    'm.nn.functional.binary_cross_entropy(y, y.double())',
    'm.nn.functional.binary_cross_entropy(m.tensor([1, 0]), m.tensor([1, 0]))',
    'm.nn.functional.cosine_similarity(x[None], x[None])',
    'm.nn.functional.cosine_similarity(x[None], y[None])',
    'm.nn.functional.cosine_similarity(m.tensor([[1, 2]]), m.tensor([[1, 2]]))',
    'y.clone().fmod_(x)', 'y.clone().remainder_(x)', 'x.clone().fmod_(x)',
    'x.clone().remainder_(y)', 'x.clone().fmod_(2.0)', 'x.clone().remainder_(2)',
]


def _outcome(m, case):
    x = m.tensor([0.3 + 0.2j, -1.5 + 0.5j, 2.0 - 1.0j])
    y = m.tensor([0.5, 0.1, 1.5])
    try:
        r = eval(case, {"m": m, "x": x, "y": y})
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e).__name__.lstrip("_"), str(e))
    if isinstance(r, bool):
        return ("ok", r)
    v = r.detach().numpy()
    return ("ok", str(r.dtype).split(".")[-1], tuple(r.shape),
            (v if v.dtype == np.bool_ else np.round(v, 6)).tolist())


@pytest.mark.parametrize("case", CASES)
def test_complex_call_as_torch(case):
    assert _outcome(autotensor, case) == _outcome(torch, case)


_SPECIAL = [complex(np.inf, 0.5), complex(-np.inf, 1.0), complex(np.nan, 0.0),
            complex(0.0, np.nan), complex(np.inf, 0.0), complex(-np.inf, 0.0)]


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_logaddexp_complex_values(dtype):
    """PyTorch's _log_add_exp_helper, special values included (to 1e-12 in complex128; a
    few ulps in complex64, computed in complex128 here)."""
    rng = np.random.default_rng(21)
    a = rng.normal(size=40) * 3 + 1j * rng.normal(size=40) * 3
    b = rng.normal(size=40) * 3 + 1j * rng.normal(size=40) * 3
    a = np.concatenate([a, _SPECIAL * 2]).astype(dtype)
    b = np.concatenate([b, _SPECIAL + _SPECIAL[::-1]]).astype(dtype)
    got = autotensor.logaddexp(autotensor.tensor(a), autotensor.tensor(b)).numpy()
    want = torch.logaddexp(torch.tensor(a), torch.tensor(b)).numpy()
    assert got.dtype == want.dtype
    tol = 1e-12 if dtype == "complex128" else 1e-6
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_logaddexp_complex_gradients_as_torch():
    rng = np.random.default_rng(5)
    a = rng.normal(size=4) + 1j * rng.normal(size=4)
    b = rng.normal(size=4) + 1j * rng.normal(size=4)
    w = rng.normal(size=4) + 1j * rng.normal(size=4)
    grads = []
    for m in (autotensor, torch):
        x, y = m.tensor(a, requires_grad=True), m.tensor(b, requires_grad=True)
        r = m.logaddexp(x, y)
        assert type(r.grad_fn).__name__ == "LogaddexpBackward0"
        gx, gy = m.autograd.grad(r, (x, y), m.tensor(w))
        grads.append((gx.detach().numpy(), gy.detach().numpy()))
    for g, t in zip(grads[0], grads[1]):
        np.testing.assert_allclose(g, t, rtol=1e-12, atol=1e-12)


def test_logaddexp_complex_forward_ad_as_torch():
    rng = np.random.default_rng(6)
    a, b, t = (rng.normal(size=3) + 1j * rng.normal(size=3) for _ in range(3))
    outs = []
    for m in (autotensor, torch):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(m.tensor(a), m.tensor(t))
            outs.append(fw.unpack_dual(m.logaddexp(x, m.tensor(b))).tangent.numpy())
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-12, atol=1e-12)
