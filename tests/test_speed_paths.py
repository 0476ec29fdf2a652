"""Fast paths taken for speed (issue 14) give the same bits as the plain path they replace,
and the same values as PyTorch, including at inf, nan and -0.0."""
import numpy as np
import pytest

import autotensor
from autotensor._ops import raw

SPECIAL = [np.inf, -np.inf, np.nan, -0.0, 0.0, 1.5, -2.5]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "broadcast", "0-d", "empty"])
def test_where_zero_masks_bits_like_np_where(dtype, layout):
    """Note [Masking by bits]: where(cond, a, 0) equals np.where bit for bit."""
    rng = np.random.default_rng(0)
    shape = {"0-d": (), "empty": (0, 3)}.get(layout, (4, 7))
    a = rng.standard_normal(shape).astype(dtype)
    a.flat[:min(a.size, len(SPECIAL))] = SPECIAL[:min(a.size, len(SPECIAL))]
    cond = np.asarray(rng.random(shape) > 0.5)
    if layout == "transposed":
        a, cond = a.T, cond.T
    elif layout == "broadcast":
        a = np.broadcast_to(a[:1], shape)
    got, want = raw.where(cond, a, 0), np.where(cond, a, 0)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()
    assert raw.where(cond, 0, a).tobytes() == np.where(cond, 0, a).tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_relu_backward_special_gradients_like_torch(dtype):
    torch = pytest.importorskip("torch")
    x = np.array([-1.0, 2.0, 0.0, 3.0, -4.0, 5.0, -0.0, 6.0], dtype=dtype)
    g = np.array([np.nan, np.nan, np.inf, -np.inf, -0.0, -0.0, 7.0, -3.0], dtype=dtype)
    grads = []
    for T in (autotensor, torch):
        t = T.tensor(x.tolist(), dtype=getattr(T, dtype), requires_grad=True)
        T.relu(t).backward(T.tensor(g.tolist(), dtype=getattr(T, dtype)))
        grads.append(np.array(t.grad.tolist(), dtype=dtype))
    assert grads[0].tobytes() == grads[1].tobytes(), grads


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(), (5,), (3, 4)])
def test_tanh_sigmoid_backward_in_one_buffer_same_bits(dtype, shape):
    """tanh/sigmoid backward computed in one buffer: the bits of the plain expressions
    (float16 tanh_backward: in float32, rounded once, as PyTorch's kernel; float32's 1 - y * y
    one fused multiply-add as in PyTorch's: the float64 product of floats is exact)."""
    rng = np.random.default_rng(1)
    y = np.asarray(np.tanh(rng.standard_normal(shape))).astype(dtype)
    g = np.asarray(rng.standard_normal(shape)).astype(dtype)
    if g.size:
        g.flat[0], y.flat[-1] = np.nan, -0.0
    g32, y32 = (g.astype(np.float32), y.astype(np.float32)) if dtype == np.float16 else (g, y)
    one_minus = 1 - y32 * y32 if dtype == np.float64 else (
        1 - y32.astype(np.float64) ** 2).astype(np.float32)
    for got, want in ((raw.tanh_backward(g, y), np.asarray(g32 * one_minus).astype(dtype)),
                      (raw.sigmoid_backward(g, y), np.asarray(g * (1 - y) * y))):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nll_loss_common_case_same_bits_as_general_path(dtype):
    """nll_loss without weights or ignored targets (the indexing fast path) gives the bits
    of the general path (taken with explicit unit weights), and its gradient."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((9, 5)).astype(dtype)
    t = rng.integers(0, 5, 9)
    outs = []
    for weight in (None, autotensor.ones(5, dtype=getattr(autotensor, dtype))):
        xt = autotensor.tensor(x, requires_grad=True)
        loss = autotensor.nn.functional.nll_loss(xt, autotensor.tensor(t), weight=weight)
        loss.backward()
        outs.append((loss.detach().numpy().tobytes(), xt.grad.numpy().tobytes()))
    assert outs[0] == outs[1]
    for bad in (5, -1):
        tb = t.copy()
        tb[4] = bad
        with pytest.raises(IndexError, match=f"Target {bad} is out of bounds."):
            autotensor.nn.functional.nll_loss(autotensor.tensor(x), autotensor.tensor(tb))


def test_first_forward_ad_and_inference_mode_in_a_fresh_process():
    """Note [Sticky mode flags]: the first dual level and the first inference mode of a
    process are seen by the no-graph paths that ran before them."""
    import subprocess
    import sys
    code = (
        "import autotensor as T, autotensor.autograd.forward_ad as fwAD\n"
        "x = T.ones(3)\n"
        "with T.no_grad():\n"
        "    (x.sin() * 2.0 + x).exp()\n"  # no-graph paths run before any level is open
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(x, T.full((3,), 2.0))\n"
        "    y = (d.sin() * 2.0 + d).exp()\n"
        "    tan = fwAD.unpack_dual(y).tangent\n"
        "    assert tan is not None, 'no tangent'\n"
        "    want = (x.sin() * 2 + x).exp() * (x.cos() * 2 + 1) * 2\n"
        "    assert T.allclose(tan, want), (tan, want)\n"
        "with T.inference_mode():\n"
        "    z = x.sin() * 2.0\n"
        "assert z.is_inference() and not x.sin().is_inference()\n"
        "print('ok')\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr[-2000:]


@pytest.mark.parametrize("fn", ["log_softmax", "softmax"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", ["normal", "large", "very_negative", "mixed_rows", "special"])
def test_log_softmax_without_the_shift_matches_torch(dtype, case, fn):
    """Note [log_softmax without the shift]: the unshifted fast path where every row's
    sum of exp is in range, the shifted formula where one is not (overflow, underflow,
    inf, NaN), over the last dim and another; log_softmax and softmax."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((40, 300)) * 3
    big = 1e3 if dtype == np.float64 else 100.0
    if case == "large":
        x += big
    elif case == "very_negative":
        x -= 10 * big
    elif case == "mixed_rows":
        x[5] += big
        x[7] -= 10 * big
    elif case == "special":
        x[1, 3], x[2, :] = np.inf, -np.inf
        x[4, 7], x[6, 1], x[6, 2] = np.nan, np.inf, -np.inf
    x = x.astype(dtype)
    for dim in (1, 0, -1):
        got = getattr(autotensor, fn)(autotensor.tensor(x), dim).numpy()
        want = getattr(torch, fn)(torch.tensor(x), dim).numpy()
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        tol = 1e-5 if dtype == np.float32 else 1e-12
        scale = max(1.0, abs(x[np.isfinite(x)]).max())   # (x - lse cancels digits)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("scale", [1, 10])
def test_softmax_without_the_shift_no_less_accurate_than_torch(scale):
    """The unshifted float32 softmax (Note [log_softmax without the shift]) against the
    float64 value: its largest relative error is at most PyTorch's shifted kernel's."""
    torch = pytest.importorskip("torch")
    x = (np.random.default_rng(4).standard_normal((64, 4, 64, 64)) * scale).astype(np.float32)
    x64 = x.astype(np.float64)
    want = np.exp(x64 - x64.max(-1, keepdims=True))
    want /= want.sum(-1, keepdims=True)
    errs = [np.max(np.abs(y.astype(np.float64) - want) / want)
            for y in (autotensor.softmax(autotensor.tensor(x), -1).numpy(),
                      torch.softmax(torch.tensor(x), -1).numpy())]
    assert errs[0] <= errs[1]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_log_softmax_backward_equal_row_sums_same_bits(dtype):
    """log_softmax's backward with every row's gradient sum equal (cross-entropy's
    nll_loss with the mean) broadcasts one element: the same bits as the column. (More
    rows than float32's exact kernel takes: Note [PyTorch's float32 softmax].)"""
    rng = np.random.default_rng(0)
    n = raw.PORTED_MAX // 50 + 1
    out = np.log(rng.dirichlet(np.ones(50), n)).astype(dtype)
    for grad in (np.zeros((n, 50), dtype), rng.standard_normal((n, 50)).astype(dtype)):
        if not grad.any():
            grad[np.arange(n), rng.integers(0, 50, n)] = dtype(-1 / n)
        want = grad - np.exp(out) * raw._sum_last(grad, keepdims=True)   # the column
        got = raw.log_softmax_backward_data(grad, out, 1)
        assert got.dtype == dtype and np.array_equal(got, want)
