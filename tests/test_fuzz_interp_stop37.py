"""Stop 37, helper interp37: interpolate / upsample values and gradients bit for bit with
PyTorch 2.13's CPU kernels in all four floating dtypes (tests/fuzz/OPEN_FINDINGS.md "Stop 37
(interpolation kernels; helper interp37)"; Notes [Linear upsampling forward order],
[Bicubic upsampling order], [Nearest upsampling indices] and [Antialiased upsampling
order] in _ops/nn_ops.py).

- linear / bilinear / trilinear: the source index floored as a float (floorf, also for
  float64), the channels-last kernel's vector body and scalar tail (by channel count and
  dtype) and the generic kernel's nesting (lambdas in the half type);
- bicubic: the generic kernel's order and cubic coefficients as built, the backward unfused;
- nearest / nearest-exact: each kernel's index rule, the backward's own map and order;
- antialias=True (float32/float64): the separable passes' weights and step order, the
  backward's order, and the vertical pass's row repeat at width 1.

Random shapes, channels-last and contiguous inputs, C up to 20 (the vector bodies), sizes
and scale factors (with recompute_scale_factor), both align_corners."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402

NSP = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3, "bilinear_aa": 2,
       "bicubic_aa": 2}


def _case(rng, nsp, big=False, corners=True):
    c = int(rng.integers(1, 6)) if rng.random() < 0.6 else int(rng.integers(6, 21))
    hi = 5 if nsp == 3 else 7
    shape = (int(rng.integers(1, 3)), c) + tuple(int(v) for v in rng.integers(1, hi, nsp))
    kw = {}
    if big:   # (a 2-d output with H + W > 128: the generic kernels)
        shape = shape[:2] + tuple(int(v) for v in rng.integers(20, 40, nsp))
        kw["size"] = [int(v) for v in rng.integers(65, 100, nsp)]
    elif rng.random() < 0.5:
        kw["size"] = [int(v) for v in rng.integers(1, 10 if nsp < 3 else 6, nsp)]
    else:
        kw["scale_factor"] = [float(np.round(rng.uniform(0.3, 3.2), int(rng.integers(0, 4))))
                              or 1.0 for _ in range(nsp)]
        if rng.random() < 0.3:
            kw["recompute_scale_factor"] = True
    if corners:
        kw["align_corners"] = bool(rng.random() < 0.5)
    return shape, kw, nsp > 1 and rng.random() < 0.4


def _run(T, x, g, kw, cl, mode, dtype):
    if mode.endswith("_aa"):
        mode, kw = mode[:-3], dict(kw, antialias=True)
    t = T.tensor(x).to(getattr(T, dtype))
    if cl:
        t = t.contiguous(memory_format=T.channels_last if t.dim() == 4 else T.channels_last_3d)
    t.requires_grad_(True)
    y = T.nn.functional.interpolate(t, mode=mode, **kw)
    g = np.random.default_rng(g).standard_normal(tuple(y.shape))
    y.backward(T.tensor(g).to(y.dtype))
    return y.detach().double().numpy(), t.grad.double().numpy()


def _same(a, b):
    return a.shape == b.shape and bool(((a == b) | (np.isnan(a) & np.isnan(b))).all())


def _check(mode, dtype, seed, n, big=False):
    rng = np.random.default_rng(seed)
    nsp = NSP.get(mode)
    for _ in range(n):
        shape, kw, cl = _case(rng, nsp or (2 if big else int(rng.integers(1, 4))), big,
                              corners=mode in NSP)
        x, g = rng.standard_normal(shape), int(rng.integers(2 ** 31))
        try:
            ty, tg = _run(torch, x, g, kw, cl, mode, dtype)
        except RuntimeError:        # (an empty output: both refuse)
            with pytest.raises(RuntimeError):
                _run(autotensor, x, g, kw, cl, mode, dtype)
            continue
        ay, ag = _run(autotensor, x, g, kw, cl, mode, dtype)
        assert _same(ay, ty), ("forward", shape, kw, cl)
        assert _same(ag, tg), ("backward", shape, kw, cl)


# (float32 linear was exact before and is kept as a regression check; every other
# combination differed)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("mode", ["linear", "bilinear", "trilinear"])
def test_linear_modes_bit_for_bit(mode, dtype):
    _check(mode, dtype, 37, 40)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_bilinear_generic_kernel_bit_for_bit(dtype):
    """Outputs with H + W > 128 take aten's generic (nested per dim) kernel."""
    _check("bilinear", dtype, 370, 4, big=True)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_bicubic_bit_for_bit(dtype):
    _check("bicubic", dtype, 371, 40)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_bicubic_generic_sizes_bit_for_bit(dtype):
    _check("bicubic", dtype, 372, 3, big=True)


# (nearest-exact float32 was exact before, in these cases too: a regression check)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("mode", ["nearest", "nearest-exact"])
def test_nearest_bit_for_bit(mode, dtype):
    _check(mode, dtype, 373, 30)
    _check(mode, dtype, 374, 3, big=True)


def test_nearest_same_size_with_scale_factor():
    """nearest_idx copies when the sizes agree, whatever the scale (the channels-last
    kernel, and every backward); the generic kernel applies the scale."""
    x = np.arange(2 * 18 * 6 * 3, dtype=np.float32).reshape(2, 18, 6, 3)
    got = [T.nn.functional.interpolate(T.tensor(x), scale_factor=(0.53, 1.04),
                                       mode="nearest").numpy() for T in (torch, autotensor)]
    np.testing.assert_array_equal(got[1], got[0])


def test_linear_float64_source_index_floored_as_float():
    """1/3 * 4.5 - 0.5 fused is 1 - 2**-53; floorf rounds it to 1.0 first (lambda 0), so
    the inf at index 0 does not reach output 4 (interp36's open case)."""
    x = np.array([[[np.inf, 1.0]]])
    got = [T.nn.functional.interpolate(T.tensor(x), size=6, mode="linear").numpy()
           for T in (torch, autotensor)]
    assert _same(got[1], got[0]), got


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bicubic_forward_ad_bit_for_bit(dtype):
    """PyTorch's tangent is upsample_bicubic2d(self_t): the forward kernel on it."""
    rng = np.random.default_rng(375)
    x, v = rng.standard_normal((2, 3, 4, 5)), rng.standard_normal((2, 3, 4, 5))
    got = []
    for T in (torch, autotensor):
        import importlib
        fwAD = importlib.import_module(T.__name__ + ".autograd.forward_ad")
        with fwAD.dual_level():
            d = fwAD.make_dual(T.tensor(x).to(getattr(T, dtype)),
                               T.tensor(v).to(getattr(T, dtype)))
            y = T.nn.functional.interpolate(d, size=(7, 3), mode="bicubic")
            got.append(fwAD.unpack_dual(y).tangent.numpy())
    np.testing.assert_array_equal(got[1], got[0])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mode", ["bilinear_aa", "bicubic_aa"])
def test_antialias_bit_for_bit(mode, dtype):
    _check(mode, dtype, 376, 40)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_antialias_downscale_bit_for_bit(dtype):
    """Downscaling: many taps per output (the 16-byte groups and the fused remainder)."""
    rng = np.random.default_rng(377)
    for k in range(6):
        mode = ("bilinear", "bicubic")[k % 2]
        x = rng.standard_normal((2, 3, int(rng.integers(20, 60)), int(rng.integers(20, 60))))
        size = [int(v) for v in rng.integers(1, 15, 2)]
        kw = dict(size=size, align_corners=bool(k % 3 == 0))
        got = [_run(T, x, 7 + k, kw, k % 2 == 0, mode + "_aa", dtype)
               for T in (torch, autotensor)]
        assert _same(got[1][0], got[0][0]) and _same(got[1][1], got[0][1]), (k, size)


def test_antialias_width_one_repeats_first_row():
    """aten's vertical pass at output width 1 (contiguous input) gives every row row 0's
    value; a channels-last input with C > 1 does not."""
    x = np.random.default_rng(378).standard_normal((1, 2, 6, 3))
    for cl in (False, True):
        got = [_run(T, x, 5, dict(size=[7, 1]), cl, "bilinear_aa", "float64")[0]
               for T in (torch, autotensor)]
        np.testing.assert_array_equal(got[1], got[0])


@pytest.mark.parametrize("dtype", ["float64", "float16"])
def test_bilinear_one_thread_three_channels(dtype):
    """With one thread aten sends C == 3 to the channels-last kernel at any output size."""
    rng = np.random.default_rng(379)
    saved = torch.get_num_threads(), autotensor.get_num_threads()
    torch.set_num_threads(1)
    autotensor.set_num_threads(1)
    try:
        for k in range(3):
            x = rng.standard_normal((1, 3, 30, 40))
            kw = dict(size=[90, 70], align_corners=bool(k % 2))
            got = [_run(T, x, k, kw, False, "bilinear", dtype)[0] for T in (torch, autotensor)]
            assert _same(got[1], got[0]), k
    finally:
        torch.set_num_threads(saved[0])
        autotensor.set_num_threads(saved[1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_lanczos_bit_for_bit(dtype):
    """Lanczos weights: sinc(x) in scalar_t (float32: glibc's sinf), sinc(x / 3) in double."""
    rng = np.random.default_rng(380)
    for k in range(6):
        x = rng.standard_normal((2, 3, int(rng.integers(1, 50)), int(rng.integers(1, 50))))
        kw = dict(size=[int(v) for v in rng.integers(1, 40, 2)])
        got = [_run(T, x, k, kw, k % 2 == 0, "lanczos_aa", dtype) for T in (torch, autotensor)]
        assert _same(got[1][0], got[0][0]) and _same(got[1][1], got[0][1]), (k, x.shape, kw)
