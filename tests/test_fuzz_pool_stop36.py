"""Stop 36, helper pool36: pooling and upsampling values bit for bit with PyTorch 2.13's
CPU kernels, infs and NaNs included (tests/fuzz/OPEN_FINDINGS.md "Stop 36 (pooling and
upsampling order; helper pool36)").

Random shapes, output sizes, kernels, strides, paddings, scale factors, layouts
(contiguous and channels-last) and dtypes (float32, float64, float16, bfloat16) run on
torch and on autotensor; values and gradients must agree bit for bit (NaN where NaN, the
sign of zero included): adaptive_avg_pool1d/2d/3d (Note [Adaptive average pooling
order]), avg_pool2d (ceil_mode, divisor_override, count_include_pad) and its backward,
and the float32 / half gradients of linear, bilinear and trilinear interpolation (Note
[Linear upsampling backward order])."""

import pathlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402

DTYPES = ["float32", "float64", "float16", "bfloat16"]


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    eq = (a == b) & (np.signbit(a) == np.signbit(b)) | (np.isnan(a) & np.isnan(b))
    return a.shape == b.shape and bool(eq.all())


def _run(t, xn, gn, dt, channels_last, call):
    x = t.tensor(xn).to(getattr(t, dt))
    if channels_last:
        x = x.contiguous(memory_format=t.channels_last if x.dim() == 4 else
                         t.channels_last_3d)
    x.requires_grad_(True)
    y = call(t.nn.functional, x)
    g, = t.autograd.grad(y, x, t.tensor(gn).to(getattr(t, dt)))
    assert tuple(y.stride()) == tuple(_strides(y)), (y.stride(), _strides(y))
    return y.detach().double().numpy(), g.detach().double().numpy()


def _strides(y):
    """PyTorch's strides for y's shape and layout (contiguous or channels-last)."""
    return (torch.empty(tuple(y.shape)) if y.is_contiguous() else torch.empty(
        tuple(y.shape)).contiguous(memory_format=torch.channels_last if y.dim() == 4 else
                                   torch.channels_last_3d)).stride()


def _check(xn, dt, channels_last, call, seed):
    ysh = tuple(call(torch.nn.functional, torch.tensor(xn)).shape)
    rs = np.random.RandomState(seed)
    gn = rs.randn(*ysh).astype(np.float32)
    if seed % 5 == 0 and gn.size:
        gn.flat[rs.randint(gn.size)] = np.inf
    yt, gt = _run(torch, xn, gn, dt, channels_last, call)
    ya, ga = _run(autotensor, xn, gn, dt, channels_last, call)
    assert _same(yt, ya), (yt, ya)
    assert _same(gt, ga), (gt, ga)


def _input(rs, shape, seed):
    xn = (rs.randn(*shape) * 3).astype(np.float32)
    if seed % 4 == 0:
        xn.flat[rs.randint(xn.size)] = [np.inf, -np.inf, np.nan][seed % 3]
    if seed % 7 == 0:
        xn[...] = -0.0
    return xn


def test_reproducer_adaptive_avg_pool1d_inf():
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / "pending_stop36" /
                   "c_repro_006.py")


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("nd", [1, 2, 3])
def test_adaptive_avg_pool_bitwise(nd, dt):
    rs = np.random.RandomState(nd * 10 + DTYPES.index(dt))
    for seed in range(24):
        sp = tuple(int(v) for v in rs.randint(1, 8, nd))
        out = tuple(int(v) for v in rs.randint(1, 7, nd))
        if out == (1,) * nd:   # (PyTorch's mean)
            out = (2,) + out[1:]
        xn = _input(rs, (2, 3) + sp, seed)
        fn = f"adaptive_avg_pool{nd}d"
        arg = out[0] if nd == 1 else out
        _check(xn, dt, nd > 1 and seed % 2 == 1,
               lambda F, x, fn=fn, arg=arg: getattr(F, fn)(x, arg), seed)


def test_adaptive_avg_pool_inf_is_not_nan():
    xn = np.array([[[1.764, np.inf, 2.0, -1.0, 0.5]]], dtype=np.float32)
    for dt in DTYPES:
        _check(xn, dt, False, lambda F, x: F.adaptive_avg_pool1d(x, 3), 1)


@pytest.mark.parametrize("dt", DTYPES)
def test_avg_pool2d_bitwise(dt):
    rs = np.random.RandomState(100 + DTYPES.index(dt))
    done = 0
    for seed in range(80):
        k = tuple(int(v) for v in rs.randint(1, 4, 2))
        kw = dict(kernel_size=k, stride=tuple(int(v) for v in rs.randint(1, 4, 2)),
                  padding=tuple(int(rs.randint(0, kk // 2 + 1)) for kk in k),
                  ceil_mode=bool(rs.randint(2)), count_include_pad=bool(rs.randint(2)),
                  divisor_override=[None, None, 3, 5][rs.randint(4)])
        xn = _input(rs, (2, 3) + tuple(rs.randint(3, 9, 2)), seed)
        try:
            torch.nn.functional.avg_pool2d(torch.tensor(xn), **kw)
        except RuntimeError:
            continue
        _check(xn, dt, seed % 2 == 1, lambda F, x, kw=kw: F.avg_pool2d(x, **kw), seed)
        done += 1
    assert done > 40


@pytest.mark.parametrize("dt", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("mode", ["linear", "bilinear", "trilinear"])
def test_linear_interpolate_backward_bitwise(mode, dt):
    """The gradients (the forward values are not claimed: see OPEN_FINDINGS)."""
    nd = ["linear", "bilinear", "trilinear"].index(mode) + 1
    rs = np.random.RandomState(200 + nd * 10 + DTYPES.index(dt))
    for seed in range(16):
        kw = dict(mode=mode, align_corners=bool(rs.randint(2)))
        if rs.randint(2):
            kw["size"] = tuple(int(v) for v in rs.randint(1, 9, nd))
        else:
            kw["scale_factor"] = tuple(float(v) for v in
                                       rs.choice([0.5, 1.5, 2.0, 1.7, 3.0, 0.75], nd))
        xn = (rs.randn(2, 3, *rs.randint(1, 7, nd)) * 3).astype(np.float32)
        try:
            ysh = tuple(torch.nn.functional.interpolate(torch.tensor(xn), **kw).shape)
        except RuntimeError:   # (an empty output)
            continue
        gn = rs.randn(*ysh).astype(np.float32)
        if seed % 5 == 0:
            gn.flat[rs.randint(gn.size)] = np.inf
        cl = nd > 1 and seed % 2 == 1
        # (a float64 call first: its cached source indices must not serve float32)
        _run(autotensor, xn, gn, "float64", cl, lambda F, x, kw=kw: F.interpolate(x, **kw))
        _, gt = _run(torch, xn, gn, dt, cl, lambda F, x, kw=kw: F.interpolate(x, **kw))
        _, ga = _run(autotensor, xn, gn, dt, cl, lambda F, x, kw=kw: F.interpolate(x, **kw))
        assert _same(gt, ga), (kw, gt, ga)
