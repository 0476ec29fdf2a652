"""The fast array kernels of the nn benchmarks (issues 11 and 12) against math/PyTorch:
Note [Vectorised erf], Note [Blockwise GELU], Note [Norms by GEMV] and Note [Stride-1
convolution over flattened rows]. Each fast path also runs where its graph-mode formula
runs (create_graph=True), and both must agree."""
import math

import numpy as np
import pytest

import autotensor
from autotensor._ops import _specfun

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 0.84375, -0.84375, 1.25, 1 / 0.35, 6.0, -6.0,
           27.9, 28.0, -28.0, 1e-300, -1e-30, 5e-324]


def _points(dtype):
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.standard_normal(20000) * 2, rng.uniform(-7, 7, 20000),
                        rng.uniform(-30, 30, 2000),
                        10.0 ** rng.uniform(-40, 1, 2000) * rng.choice([-1, 1], 2000), SPECIAL])
    return x.astype(dtype)


def _ulps(got, want, dtype):
    ok = np.isfinite(want)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~ok & ~np.isnan(want)], want[~ok & ~np.isnan(want)])
    spacing = np.spacing(np.abs(want[ok]).astype(dtype)).astype(np.float64)
    spacing = np.maximum(spacing, np.finfo(dtype).smallest_subnormal)
    return np.max(np.abs(got[ok].astype(np.float64) - want[ok]) / spacing)


@pytest.mark.parametrize("dtype,erf_ulps,erfc_ulps", [(np.float64, 2, 5), (np.float32, 1, 1)])
def test_erf_erfc_within_ulps_of_math(dtype, erf_ulps, erfc_ulps):
    x = _points(dtype)
    x64 = x.astype(np.float64)
    got = _specfun.erf(x)
    assert got.dtype == dtype and got.shape == x.shape
    assert _ulps(got, np.array([math.erf(v) for v in x64]), dtype) <= erf_ulps
    got = _specfun.erfc(x)
    assert got.dtype == dtype
    assert _ulps(got, np.array([math.erfc(v) for v in x64]), dtype) <= erfc_ulps
    # blockwise (more than one block) equals elementwise, and signs of zero are kept
    big = np.resize(x, 3 * _specfun.BLOCK + 5)
    assert np.array_equal(_specfun.erf(big), np.concatenate([_specfun.erf(big[:7]),
                                                             _specfun.erf(big[7:])]),
                          equal_nan=True)
    assert np.signbit(_specfun.erf(np.array(-0.0, dtype)))


def test_float32_normal_cdf_error_bound():
    """GELU's float32 Phi as a logistic (Note [Float32 normal CDF as a logistic]): within
    1.5e-7 of the exact CDF on a dense grid (PyTorch's float32 erf-based one is off by up
    to 3.6e-7), in [0, 1], and 0 / 1 with no NaN far out and at +-inf."""
    x = np.concatenate([np.linspace(-10, 10, 400001), [-1e4, 1e4, -3e38, 3e38]])
    x = x.astype(np.float32)
    with np.errstate(over="ignore"):
        d, z = _specfun.normal_cdf_reciprocal(x)
    assert d.dtype == np.float32 and np.array_equal(z, x * x)
    phi = 1 / d
    want = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in x.astype(np.float64)])
    assert np.abs(phi.astype(np.float64) - want).max() <= 1.5e-7
    assert phi.min() >= 0 and phi.max() <= 1
    with np.errstate(over="ignore"):
        edge = 1 / _specfun.normal_cdf_reciprocal(np.float32([np.inf, -np.inf, np.nan]))[0]
    assert edge[0] == 1 and edge[1] == 0 and np.isnan(edge[2])


def test_gelu_float32_no_less_accurate_than_torch():
    """Max error of float32 GELU and its gradient against the float64 formula, over a
    dense grid: autotensor's is at most PyTorch's (the fast path is no cruder)."""
    torch = pytest.importorskip("torch")
    x = np.linspace(-8, 8, 400001).astype(np.float32)
    x64 = x.astype(np.float64)
    phi = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in x64])
    want = x64 * phi
    dwant = phi + x64 * np.exp(-x64 * x64 / 2) / math.sqrt(2 * math.pi)
    g = np.ones_like(x)
    for T in (autotensor, torch):
        y, gx = _gelu_case(T, x, g, "none")
        err = np.abs(y.astype(np.float64) - want) / np.maximum(np.abs(x64), 1)
        derr = np.abs(gx.astype(np.float64) - dwant)
        if T is autotensor:
            ours = err.max(), derr.max()
    assert ours[0] <= err.max() and ours[1] <= derr.max()
    assert ours[0] < 2e-7 and ours[1] < 2.5e-7


def _gelu_case(T, x, g, approximate, create_graph=False):
    t = T.tensor(x, requires_grad=True)
    y = T.nn.functional.gelu(t, approximate=approximate)
    (gx,) = T.autograd.grad(y, t, T.tensor(g), create_graph=create_graph)
    return y.detach().numpy(), gx.detach().numpy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_blockwise_matches_torch_and_graph_formula(dtype, approximate):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    n = _specfun.BLOCK + 1000  # two blocks
    x = (rng.standard_normal(n) * 3).astype(dtype)
    x[:9] = [0.0, -0.0, 40, -40, 1e-30, -7, 7, np.inf, -np.inf]
    g = rng.standard_normal(n).astype(dtype)
    y, gx = _gelu_case(autotensor, x, g, approximate)
    yt, gxt = _gelu_case(torch, x, g, approximate)
    # (float32, tanh form: the composed backward is up to ~4e-6 off PyTorch's fused kernel
    # where PyTorch's gradient is 0)
    tol = dict(rtol=1e-12, atol=1e-12) if dtype == np.float64 else dict(rtol=1e-5, atol=1e-5)
    assert y.dtype == dtype and gx.dtype == dtype
    np.testing.assert_allclose(y[:-2], yt[:-2], **tol)
    np.testing.assert_allclose(gx[:-2], gxt[:-2], **tol)
    # the graph-mode formula (create_graph) gives the raw kernel's gradient
    _, gx_graph = _gelu_case(autotensor, x, g, approximate, create_graph=True)
    np.testing.assert_allclose(gx_graph[:-2], gx[:-2], **tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,normalized,affine", [((4, 6, 16), (16,), True),
                                                     ((3, 5, 4), (5, 4), False),
                                                     ((7,), (7,), True)])
def test_layer_norm_fast_path_matches_torch_and_graph_formula(dtype, shape, normalized,
                                                               affine):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    w = rng.standard_normal(normalized).astype(dtype)
    b = rng.standard_normal(normalized).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    res = []
    for T, cg in ((autotensor, False), (torch, False), (autotensor, True)):
        ts = [T.tensor(a, requires_grad=True) for a in (x, w, b)]
        y = T.nn.functional.layer_norm(ts[0], normalized, *(ts[1:] if affine else (None, None)))
        wrt = ts if affine else ts[:1]
        grads = T.autograd.grad(y, wrt, T.tensor(g), create_graph=cg)
        res.append([y.detach().numpy()] + [t.detach().numpy() for t in grads])
    tol = dict(rtol=1e-10, atol=1e-10) if dtype == np.float64 else dict(rtol=1e-4, atol=1e-4)
    for a, t, c in zip(*res):
        assert a.dtype == dtype
        np.testing.assert_allclose(a, t, **tol)
        np.testing.assert_allclose(a, c, **tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_last_dim_fast_path_matches_torch(dtype):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((3, 4, 9)) * 5).astype(dtype)
    x[0, 0, :] = [-np.inf, 0, 1, 2, 3, 4, 5, 6, 7]
    g = rng.standard_normal(x.shape).astype(dtype)
    res = []
    for T in (autotensor, torch):
        for dim in (-1, 2, 1):
            t = T.tensor(x, requires_grad=True)
            y = t.softmax(dim)
            (gx,) = T.autograd.grad(y, t, T.tensor(g))
            res.append((y.detach().numpy(), gx.numpy()))
    tol = dict(rtol=1e-12, atol=1e-14) if dtype == np.float64 else dict(rtol=1e-5, atol=1e-6)
    for (a, ga), (t, gt) in zip(res[:3], res[3:]):
        np.testing.assert_allclose(a, t, **tol)
        np.testing.assert_allclose(ga, gt, **tol)



@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_backward_of_a_0d_tensor(name, dtype):
    """A 0-d input's softmax backward: NumPy's ufuncs return scalars for 0-d arrays, and
    log_softmax's backward crashed writing into one (found by the fuzzer)."""
    torch = pytest.importorskip("torch")
    got = []
    for T in (autotensor, torch):
        t = T.tensor(1.5, dtype=getattr(T, dtype), requires_grad=True)
        y = getattr(t, name)(0)
        y.backward(T.tensor(0.75, dtype=getattr(T, dtype)))
        got.append((y.item(), t.grad.item(), str(t.grad.dtype), tuple(t.grad.shape)))
    assert got[0] == got[1]

CONV_CASES = [
    (2, 1, 6, 5, {}), (2, 4, 8, 3, {"padding": 1}), (2, 4, 8, 3, {"padding": 2, "dilation": 2}),
    (2, 4, 8, 3, {"padding": 1, "groups": 2}), (2, 4, 4, 3, {"padding": 1, "groups": 4}),
    (1, 3, 5, 3, {"padding": 1}), (3, 2, 4, 3, {"padding": 1}),
    (2, 3, 5, (2, 3), {"padding": (0, 1)}), (2, 4, 8, 3, {"stride": 2, "padding": 1}),
    (2, 4, 8, 1, {}), (2, 4, 8, 5, {"padding": 3}), (2, 16, 16, 3, {"padding": 1}),
    (2, 32, 32, 3, {"padding": (1, 2), "groups": 2, "dilation": (1, 2)}),
    (2, 4, 8, 3, {"stride": (2, 1), "padding": 1, "groups": 2}),
    (1, 16, 32, 3, {"padding": 2}), (1, 3, 6, 4, {"padding": 2, "dilation": 2, "groups": 3}),
    # larger images: more columns than one chunk holds
    (2, 16, 16, 3, {"padding": 1}, 24), (2, 4, 16, 3, {"padding": 1, "groups": 2}, 24),
    (1, 16, 32, 5, {"padding": 2, "dilation": 2}, 600),
]


# (the transposed fast path is stride 1, 1-d and 2-d: other cases are not generated)
CONV_FAST_CASES = [(case, transposed) for transposed in (False, True) for case in CONV_CASES
                   if not (transposed and (case[0] == 3 or "stride" in case[4]))]


@pytest.mark.parametrize("case,transposed", CONV_FAST_CASES, ids=str)
def test_convolution_fast_paths_match_torch(case, transposed):
    """Stride-1 convolutions over flattened rows, the input gradient through the flipped
    kernel, the weight gradient by offset, and the reordered transposed GEMM: values and
    all gradients against torch in float64, and the graph-mode formulas agree."""
    torch = pytest.importorskip("torch")
    nsp, cin, cout, k, kw = case[:5]
    size = case[5] if len(case) > 5 else 7
    rng = np.random.default_rng(4)
    ks = k if isinstance(k, tuple) else (k,) * nsp
    groups = kw.get("groups", 1)
    x = rng.standard_normal((3, cin) + (size,) * nsp)
    wshape = (cin, cout // groups) + ks if transposed else (cout, cin // groups) + ks
    w = rng.standard_normal(wshape)
    b = rng.standard_normal(cout)
    name = f"conv_transpose{nsp}d" if transposed else f"conv{nsp}d"
    res = []
    for T, cg in ((autotensor, False), (torch, False), (autotensor, True)):
        ts = [T.tensor(a, requires_grad=True) for a in (x, w, b)]
        y = getattr(T.nn.functional, name)(*ts, **kw)
        g = np.random.default_rng(5).standard_normal(tuple(y.shape))
        grads = T.autograd.grad(y, ts, T.tensor(g), create_graph=cg)
        res.append([y.detach().numpy()] + [t.detach().numpy() for t in grads])
    for a, t, c in zip(*res):
        np.testing.assert_allclose(a, t, rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(a, c, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("cols_bytes", [1, 40000, 100000])
@pytest.mark.parametrize("case", [CONV_CASES[i] for i in (1, 2, 3, 7, 11, 16)], ids=str)
def test_convolution_column_chunks_match_torch(case, cols_bytes, monkeypatch):
    """The stride-1 path's chunks of images (Note [Stride-1 convolution over flattened
    rows]): one image per chunk, and two or more with a shorter last chunk, give torch's
    values and gradients (float64)."""
    from autotensor._ops import nn_ops
    monkeypatch.setattr(nn_ops, "_COLS_BYTES", cols_bytes)
    test_convolution_fast_paths_match_torch(case, False)
    if case[0] != 3:
        test_convolution_fast_paths_match_torch(case, True)


@pytest.mark.parametrize("shift_cols", [1, 200, 2048])
@pytest.mark.parametrize("case,transposed", CONV_FAST_CASES, ids=str)
def test_convolution_shifted_rows_path_matches_torch(case, transposed, shift_cols,
                                                     monkeypatch):
    """Note [Stride-1 convolution by shifted rows], forced on every stride-1 case (1-d,
    2-d, 3-d, groups, dilation, padding 0 and wider than the kernel), with one image a
    chunk and several (a shorter last one): values and all gradients as torch's
    (float64), the graph-mode formulas agree, and the path was taken."""
    from autotensor._ops import nn_ops
    monkeypatch.setattr(nn_ops, "_SHIFT_MIN_ROWS", 1)
    monkeypatch.setattr(nn_ops, "_SHIFT_COLS", shift_cols)
    monkeypatch.setattr(nn_ops, "_DENSE_MAX", 0)  # (not the small-image path)
    calls = []
    for name in ("_conv_s1_shifted", "_conv_weight_grad_shifted"):
        real = getattr(nn_ops, name)
        monkeypatch.setattr(nn_ops, name,
                            lambda *a, _real=real, _n=name: calls.append(_n) or _real(*a))
    test_convolution_fast_paths_match_torch(case, transposed)
    k = case[3]
    if "stride" not in case[4] and (k[-1] if isinstance(k, tuple) else k) > 1:
        assert calls


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_convolution_resnet_layer_shifted_rows_matches_torch(dtype):
    """A ResNet layer (64 -> 64 channels, 3 x 3, padding 1) takes the shifted-rows path
    at the default thresholds in all three of its GEMM kinds; values and gradients as
    torch's to its dtype's rounding."""
    torch = pytest.importorskip("torch")
    from autotensor._ops import nn_ops
    assert nn_ops._shift_ok(64, (3, 3)) and not nn_ops._shift_ok(6, (5, 5))
    rng = np.random.default_rng(8)
    x = rng.standard_normal((3, 64, 10, 9)).astype(dtype)
    w = (rng.standard_normal((64, 64, 3, 3)) * 0.05).astype(dtype)
    g = rng.standard_normal((3, 64, 10, 9)).astype(dtype)
    res = []
    for T in (autotensor, torch):
        xt, wt = T.tensor(x, requires_grad=True), T.tensor(w, requires_grad=True)
        y = T.nn.functional.conv2d(xt, wt, padding=1)
        y.backward(T.tensor(g))
        res.append([a.detach().numpy() for a in (y, xt.grad, wt.grad)])
    tol = 1e-12 if dtype == np.float64 else 2e-6
    for a, t in zip(*res):
        assert a.dtype == dtype
        np.testing.assert_allclose(a, t, rtol=tol, atol=tol * np.abs(t).max())


DENSE_CASES = [(case, transposed) for case, transposed in CONV_FAST_CASES
               if "groups" not in case[4] and "stride" not in case[4]]


@pytest.mark.parametrize("case,transposed", DENSE_CASES, ids=str)
def test_convolution_dense_small_image_path_matches_torch(case, transposed, monkeypatch):
    """Note [Small-image convolution as one dense matrix], forced on every stride-1,
    one-group case (1-d, 2-d, 3-d, dilation, padding wider than the kernel): values and
    all gradients as torch's (float64), and the path was taken."""
    from autotensor._ops import nn_ops
    monkeypatch.setattr(nn_ops, "_DENSE_RATIO", 1e9)
    monkeypatch.setattr(nn_ops, "_DENSE_MAX", 1 << 30)
    calls = []
    real = nn_ops._dense_matrix
    monkeypatch.setattr(nn_ops, "_dense_matrix", lambda *a: calls.append(1) or real(*a))
    test_convolution_fast_paths_match_torch(case, transposed)
    assert calls


@pytest.mark.parametrize("bad", [None, np.inf, -np.inf, np.nan])
def test_convolution_digits_layer_small_images_match_torch(bad):
    """The digits model's 16 -> 32 convolution on 4 x 4 images (the dense path at the
    default thresholds) in float32, with an inf or NaN pixel in the input and in the
    incoming gradient (those take the flattened-rows path: M's zeros would spread NaN)."""
    torch = pytest.importorskip("torch")
    from autotensor._ops import nn_ops
    assert nn_ops._dense_ok((4, 4), (3, 3), (1, 1), (1, 1), 16, 32)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((64, 16, 4, 4)).astype(np.float32)
    w = rng.standard_normal((32, 16, 3, 3)).astype(np.float32) * 0.1
    g = rng.standard_normal((64, 32, 4, 4)).astype(np.float32)
    if bad is not None:
        x[3, 5, 0, 2] = bad
        g[6, 1, 3, 3] = bad
    res = []
    for T in (autotensor, torch):
        xt, wt = T.tensor(x, requires_grad=True), T.tensor(w, requires_grad=True)
        y = T.nn.functional.conv2d(xt, wt, padding=1)
        y.backward(T.tensor(g))
        res.append([a.detach().numpy() for a in (y, xt.grad, wt.grad)])
    for a, t in zip(*res):
        assert a.dtype == np.float32
        np.testing.assert_array_equal(np.isnan(a), np.isnan(t))
        np.testing.assert_allclose(a, t, rtol=2e-5, atol=2e-5 * np.nanmax(np.abs(
            np.where(np.isinf(t), 0, t))))


def test_convolution_float32_stays_float32():
    x = autotensor.randn(2, 16, 6, 6, requires_grad=True)
    w = autotensor.randn(16, 16, 3, 3, requires_grad=True)
    y = autotensor.nn.functional.conv2d(x, w, padding=1)
    y.sum().backward()
    assert y.dtype == x.grad.dtype == w.grad.dtype == autotensor.float32


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,kw", [
    ((2, 3, 8, 8), {"kernel_size": 2}), ((2, 3, 9, 7), {"kernel_size": 2}),
    ((2, 3, 9, 9), {"kernel_size": 3}), ((2, 3, 9, 9), {"kernel_size": 3, "stride": 2}),
    ((1, 3, 10, 12), {"kernel_size": (2, 3)}), ((2, 3, 8, 8), {"kernel_size": 2, "stride": 1}),
    ((2, 3, 9, 7), {"kernel_size": 2, "ceil_mode": True})], ids=str)
def test_max_pool_tiled_and_bincount_backward_match_torch(dtype, shape, kw):
    """Non-overlapping windows take the running-maximum path; every window, overlapping or
    not, picks PyTorch's index: the first maximum, the LAST NaN (its val > max ||
    isnan(val)); the backward scatters by bincount."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(6)
    x = rng.standard_normal(shape).astype(dtype)
    x[0, 0, 0, :3] = [np.nan, 1.0, np.nan]
    x[0, 1, :2, :2] = 5.0
    x[-1, -1, 1, 1] = np.inf
    x[-1, 0, 0, :] = -np.inf
    res = []
    for T in (autotensor, torch):
        t = T.tensor(x, requires_grad=True)
        y, idx = T.nn.functional.max_pool2d(t, return_indices=True, **kw)
        g = np.arange(y.numel(), dtype=dtype).reshape(tuple(y.shape)) + 1
        (gx,) = T.autograd.grad(y, t, T.tensor(g))
        res.append((y.detach().numpy(), idx.numpy(), gx.numpy()))
    (a, ia, ga), (b, ib, gb) = res
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ia, ib)
    np.testing.assert_array_equal(ga, gb)
    assert ga.dtype == dtype


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("kernel", [2, 3, (2, 3), (1, 4)])
def test_max_pool_tiled_without_nan_matches_torch(dtype, kernel):
    """Without a NaN the tiled path answers itself (maximum, then the first offset equal
    to it): ties, -0.0 next to 0.0 and infinities give PyTorch's values (sign of zero
    included) and indices."""
    torch = pytest.importorskip("torch")
    from autotensor._ops import nn_ops
    rng = np.random.default_rng(8)
    x = rng.integers(-2, 3, (3, 4, 12, 12)).astype(dtype)  # many ties
    if dtype != np.int64:
        x[0, 0, 0, :4] = [-0.0, 0.0, 0.0, -0.0]
        x[0, 0, 1, :4] = [-0.0, -0.0, -0.0, -0.0]
        x[1, 2, 5, 5] = np.inf
        x[2, 3, :3, :3] = -np.inf
    k = (kernel, kernel) if isinstance(kernel, int) else kernel
    assert nn_ops._max_pool_tiled(x.reshape(-1, 12, 12), k) is not None
    res = []
    for T in (autotensor, torch):
        y, idx = T.nn.functional.max_pool2d(T.tensor(x), kernel, return_indices=True)
        res.append((y.numpy(), idx.numpy()))
    (a, ia), (b, ib) = res
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))  # bits: -0.0 too
    np.testing.assert_array_equal(ia, ib)


@pytest.mark.parametrize("case", ["max_pool1d", "adaptive_max_pool1d", "adaptive_max_pool2d",
                                  "max_pool3d", "adaptive_max_pool3d"])
def test_max_pools_take_the_windows_last_nan(case):
    """Every max-pool kernel picks the window's last NaN, as PyTorch's `val > max ||
    isnan(val)` loop does (one rule, `_window_argmax`)."""
    torch = pytest.importorskip("torch")
    nan = float("nan")
    data = {"max_pool1d": ([[[1., nan, 3., nan]]], (4,)),
            "adaptive_max_pool1d": ([[[1., nan, 3., nan]]], (1,)),
            "adaptive_max_pool2d": ([[[[1., nan], [nan, 2.]]]], (1,)),
            "max_pool3d": ([[[[[nan, 1.], [nan, 2.]], [[3., nan], [5., 6.]]]]], (2,)),
            "adaptive_max_pool3d": ([[[[[nan, 1.], [nan, 2.]], [[3., nan], [5., 6.]]]]], (1,))}
    x, args = data[case]
    ours = getattr(autotensor.nn.functional, case)(autotensor.tensor(x), *args,
                                                   return_indices=True)[1]
    theirs = getattr(torch.nn.functional, case)(torch.tensor(x), *args,
                                                return_indices=True)[1]
    assert ours.tolist() == theirs.tolist()


def test_convolution_scratch_is_per_thread():
    """Note [Convolution scratch]: threads running convolutions of the same shapes at once
    (the same scratch keys) each get their own buffers, and results are never scratch."""
    import sys
    import threading
    rng = np.random.default_rng(6)
    xs = [rng.standard_normal((4, 16, 24, 24)).astype(np.float32) for _ in range(4)]
    w = autotensor.tensor(rng.standard_normal((16, 16, 3, 3)).astype(np.float32))
    F = autotensor.nn.functional
    want = [F.conv2d(autotensor.tensor(x), w, padding=1).numpy() for x in xs]
    got, errors = {}, []

    def run(i):
        try:
            for _ in range(20):
                y = F.conv2d(autotensor.tensor(xs[i]), w, padding=1).numpy()
                got.setdefault(i, []).append(y)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors
    for i, ys in got.items():
        for y in ys:
            np.testing.assert_array_equal(y, want[i])
    # a result does not share memory with the next call's scratch
    a = F.conv2d(autotensor.tensor(xs[0]), w, padding=1).numpy()
    F.conv2d(autotensor.tensor(xs[1]), w, padding=1)
    np.testing.assert_array_equal(a, want[0])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n,rows,width", [(1120, 1000, 128), (2000, 400, 64), (500, 400, 48)])
def test_index_add_by_rounds_bit_equal_to_add_at(dtype, n, rows, width):
    """index_add along dim 0 with wide rows goes by rounds of distinct indices: the same
    bits as np.add.at (each row summed in index order, from self's row), and an embedding's
    weight gradient as torch's."""
    from autotensor._ops import raw
    rng = np.random.default_rng(1)
    idx = rng.integers(0, rows, n)
    src = (rng.standard_normal((n, width)) * 10.0 ** rng.uniform(-3, 3, (n, 1))).astype(dtype)
    x = rng.standard_normal((rows, width)).astype(dtype)
    want = x.copy()
    np.add.at(want, idx, src)
    assert raw._index_add_rounds(x.copy(), idx, src)        # the fast path is taken
    np.testing.assert_array_equal(raw.index_add(x, 0, idx, src), want)
    np.testing.assert_array_equal(raw.index_add(x, 0, idx, src, alpha=2.0),
                                  _add_at(x, idx, src * 2.0))
    torch = pytest.importorskip("torch")
    grads = []
    for m in (autotensor, torch):
        w = m.tensor(x, requires_grad=True)
        out = m.nn.functional.embedding(m.tensor(idx), w)
        out.backward(m.tensor(src))
        grads.append(w.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-6 if dtype == "float32" else 1e-13,
                               atol=1e-5 if dtype == "float32" else 1e-12)


def _add_at(x, idx, src):
    out = x.copy()
    np.add.at(out, idx, src)
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.bool_, np.complex64])
def test_matmul_inner_dim_one_is_the_broadcast_product(dtype):
    """raw.matmul takes (..., m, 1) @ (..., 1, n) as a broadcast multiply (einsum's backward
    bmm): the same values, dtype and shape as the GEMM, batch dims broadcast alike."""
    from autotensor._ops import raw
    rng = np.random.default_rng(5)
    for sa, sb in [((256, 512, 1), (256, 1, 1)), ((256, 1, 1), (256, 1, 512)),
                   ((3, 1, 4, 1), (5, 1, 2)), ((4, 1), (2, 1, 3)), ((0, 3, 1), (1, 2))]:
        a = (rng.standard_normal(sa) * 3).astype(dtype)
        b = (rng.standard_normal(sb) * 3).astype(dtype)
        want = np.matmul(a, b)
        got = raw.matmul(a, b)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    # a transposed (non-contiguous) operand, as the backward passes it
    a = rng.standard_normal((8, 1, 6)).astype(np.float32).transpose(0, 2, 1)
    b = rng.standard_normal((8, 1, 1)).astype(np.float32)
    np.testing.assert_array_equal(raw.matmul(a, b), np.matmul(a, b))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_slabs_match_torch(dtype, training):
    """Note [Batch norm in slabs]: images of ~100 KB make several slabs of two images and
    a last of one; forward, running statistics and all three gradients as PyTorch's."""
    torch = pytest.importorskip("torch")
    from autotensor._ops import nn_ops
    rng = np.random.default_rng(4)
    shape = (7, 25 if dtype == np.float32 else 13, 32, 32)
    assert len(nn_ops._slabs(np.empty(shape[:2] + (1024,), dtype))) == 4
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(dtype)
    w, b = (rng.standard_normal(shape[1]).astype(dtype) for _ in range(2))
    g = rng.standard_normal(shape).astype(dtype)
    res = []
    for T in (autotensor, torch):
        ts = [T.tensor(a, requires_grad=True) for a in (x, w, b)]
        rm, rv = T.tensor(np.full(shape[1], 0.1, dtype)), T.tensor(np.full(shape[1], 1.5, dtype))
        y = T.nn.functional.batch_norm(ts[0], rm, rv, ts[1], ts[2], training=training)
        grads = T.autograd.grad(y, ts, T.tensor(g))
        res.append([y.detach().numpy(), rm.numpy(), rv.numpy()] + [t.numpy() for t in grads])
    tol = dict(rtol=1e-10, atol=1e-10) if dtype == np.float64 else dict(rtol=1e-4, atol=1e-4)
    for a, t in zip(*res):
        assert a.dtype == dtype
        np.testing.assert_allclose(a, t, **tol)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_channel_planes_same_bits_as_columns(training, monkeypatch):
    """The per-channel operands of batch norm's slabs as whole (C, S) planes (taken for 7
    images of 100 KB) give the same bits as the broadcast (C, 1) columns."""
    from autotensor._ops import nn_ops
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((7, 25, 32, 32)) * 2 + 0.5).astype(np.float32)
    g = rng.standard_normal(x.shape).astype(np.float32)
    w, b = (rng.standard_normal(25).astype(np.float32) for _ in range(2))
    assert nn_ops._per_channel(w, x.reshape(7, 25, -1)).shape == (25, 1024)

    def run():
        rm, rv = np.full(25, 0.1, np.float32), np.full(25, 1.5, np.float32)
        out = nn_ops.batch_norm_kernel(x, w, b, rm, rv, training, 0.1, 1e-5)
        back = nn_ops._batch_norm_backward_raw(g, x, w, rm, rv, training, 1e-5, *out[1:])
        return [np.asarray(a) for a in (*out, rm, rv, *back)]
    planes = run()
    monkeypatch.setattr(nn_ops, "_per_channel", lambda v, x3, dt=None: (
        v if dt is None else v.astype(dt, copy=False))[:, None])
    for a, c in zip(planes, run()):
        assert a.dtype == c.dtype and np.array_equal(a, c)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gelu_of_large_and_infinite_inputs_as_torch(dtype):
    """The float32 erf's ratio clamps |x / sqrt 2| at 4 (it overflowed from |x| ~ 1e5 and
    gave NaN): values and gradients of +-1e4..1e30 as PyTorch's, also in a block that
    holds a NaN; +inf gives PyTorch's NaN in float32, inf in float64."""
    torch = pytest.importorskip("torch")
    x = np.zeros(_specfun.BLOCK + 100, dtype)
    special = [np.inf, -np.inf, 1e7, -1e7, 1e4, -1e4, 3e5, -3e5, 1e30, -1e30, 5.0, -5.0]
    x[:len(special)] = special
    x[_specfun.BLOCK:_specfun.BLOCK + len(special)] = special
    x[_specfun.BLOCK + len(special)] = np.nan
    g = np.ones_like(x)
    y, gx = _gelu_case(autotensor, x, g, "none")
    yt, gxt = _gelu_case(torch, x, g, "none")
    np.testing.assert_allclose(y, yt, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(gx, gxt, rtol=1e-6, atol=1e-6)
