"""Stop 36, helper interp36: interpolate's linear / bilinear / trilinear forward in
PyTorch 2.13's CPU kernel order (Note [Linear upsampling forward order] in
_ops/nn_ops.py; tests/fuzz/OPEN_FINDINGS.md "Stop 36 (linear interpolation forward;
helper interp36)").

1-d, 2-d and 3-d float32 values bit for bit (contiguous and channels-last); float32 infs
give NaN exactly where PyTorch's 0 * inf does
(every mode), with the other values within an ulp. (float64's source index still differs
in rare ties: OPEN_FINDINGS.)"""

import pathlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402
from tests.fuzz.core import run_reproducer  # noqa: E402

REPRO = pathlib.Path(__file__).parent / "fuzz" / "pending_stop36"
MODES = {1: "linear", 2: "bilinear", 3: "trilinear"}


def _interp(t, xn, size, mode, align_corners, scale=None):
    x = t.tensor(xn)
    if scale is not None:
        y = t.nn.functional.interpolate(x, scale_factor=scale, mode=mode,
                                        align_corners=align_corners)
    else:
        y = t.nn.functional.interpolate(x, size=size, mode=mode, align_corners=align_corners)
    return y.numpy()


def _cases(seed, nd, n, dtype, infs=False):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        ins = [int(v) for v in rng.integers(1, 7, nd)]
        outs = [int(v) for v in rng.integers(1, 13, nd)]
        x = rng.standard_normal([2, int(rng.integers(1, 4))] + ins).astype(dtype)
        if infs:
            x[rng.random(x.shape) < 0.3] = np.inf
            x[rng.random(x.shape) < 0.1] = -np.inf
        scale = None if rng.random() < 0.7 else [float(rng.uniform(1.0, 3.5))] * nd
        yield x, outs, bool(rng.integers(2)), scale


@pytest.mark.parametrize("seed", range(4))
def test_linear_float32_bit_for_bit(seed):
    for x, size, ac, scale in _cases(seed, 1, 60, np.float32):
        want = _interp(torch, x, size, "linear", ac, scale)
        got = _interp(autotensor, x, size, "linear", ac, scale)
        assert got.shape == want.shape
        assert (got.view(np.int32) == want.view(np.int32)).all(), (x, size, ac, scale)


@pytest.mark.parametrize("channels_last", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_bilinear_float32_bit_for_bit(seed, channels_last):
    for x, size, ac, scale in _cases(10 + seed, 2, 50, np.float32):
        if channels_last:
            x = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
        want = _interp(torch, x, size, "bilinear", ac, scale)
        got = _interp(autotensor, x, size, "bilinear", ac, scale)
        assert got.shape == want.shape
        assert (got.view(np.int32) == want.view(np.int32)).all(), (x.shape, size, ac, scale)


@pytest.mark.parametrize("channels_last", [False, True])
@pytest.mark.parametrize("seed", range(2))
def test_trilinear_float32_bit_for_bit(seed, channels_last):
    for x, size, ac, scale in _cases(20 + seed, 3, 40, np.float32):
        if channels_last:
            x = np.ascontiguousarray(x.transpose(0, 2, 3, 4, 1)).transpose(0, 4, 1, 2, 3)
        want = _interp(torch, x, size, "trilinear", ac, scale)
        got = _interp(autotensor, x, size, "trilinear", ac, scale)
        assert got.shape == want.shape
        assert (got.view(np.int32) == want.view(np.int32)).all(), (x.shape, size, ac, scale)


@pytest.mark.parametrize("dtype", ["float32"])
@pytest.mark.parametrize("nd", [1, 2, 3])
def test_infs_give_nan_where_torch_does(nd, dtype):
    for x, size, ac, scale in _cases(nd, nd, 40, dtype, infs=True):
        want = _interp(torch, x, size, MODES[nd], ac, scale)
        got = _interp(autotensor, x, size, MODES[nd], ac, scale)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_reproducer_inf_to_three():
    run_reproducer(REPRO / "d_repro_005.py")
