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
