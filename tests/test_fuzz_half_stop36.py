"""Stop 36 (helper half36): float16/bfloat16 softmax, nansum/nanmean and the Huber and
smooth L1 losses bit for bit against PyTorch's CPU kernels (tests/fuzz/OPEN_FINDINGS.md,
Stop 36 (half-precision reductions and softmax)): Note [PyTorch's half softmax] in
_ops/raw.py, CastStoreAccumulate in Note [Cascade sum], Note [Half Huber and smooth L1
losses] in nn/functional.py, Note [Half Huber and smooth L1 backward] in _ops/nn_ops.py.
Every output element and gradient must have PyTorch's bits (one PyTorch thread)."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

from tests.reduction_sweep import sweep  # noqa: E402

_SIZES = (1, 2, 3, 5, 8, 9, 16, 17, 33, 64, 70)
_HALF = ("float16", "bfloat16")


@pytest.fixture(autouse=True)
def _one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


# (op, with gradients): the sweep's layouts (rows, columns, middle dims, two dims,
# transposed, sliced)
_CASES = [("softmax", True), ("nansum", False), ("nanmean", False),
          ("huber_sum", True), ("huber_mean", True),
          ("smoothl1_sum", True), ("smoothl1_mean", True)]


@pytest.mark.parametrize("dtype", _HALF)
@pytest.mark.parametrize("op,grad", _CASES, ids=[c[0] for c in _CASES])
def test_half_sweep_bit_for_bit(op, grad, dtype):
    counts = sweep({op}, (dtype,), grad, sizes=_SIZES)
    assert counts and sum(t for _, t in counts.values()) > 50
    bad = {k: v for k, v in counts.items() if v[0]}
    assert not bad, f"differing elements (of total): {bad}"


def _bits(t):
    return t.detach().float().numpy().view(np.uint32)


def _run(M, fn, arrays, dtype, grad):
    xs = [M.from_numpy(a).to(getattr(M, dtype)) for a in arrays]
    if grad:
        for x in xs:
            x.requires_grad_(True)
    out = fn(M, *xs)
    res = [_bits(out)]
    if grad:
        g = np.random.default_rng(7).standard_normal(tuple(out.shape))
        out.backward(M.from_numpy(g).to(out.dtype))
        res += [_bits(x.grad) for x in xs]
    return res


def _same(fn, arrays, dtype, grad=True):
    want = _run(torch, fn, arrays, dtype, grad)
    got = _run(autotensor, fn, arrays, dtype, grad)
    for i, (w, g) in enumerate(zip(want, got)):
        assert w.shape == g.shape
        assert (w == g).all(), f"output {i}: {(w != g).sum()} of {w.size} differ"


# softmax over the last dim: the float lanes' sum from a zero vector, glibc's expf past the
# last whole vector, times 1 / sum; rows long enough for several vectors and a tail (the
# float32 kernel's order, rounded, differs in a few outputs or gradients per size)
@pytest.mark.parametrize("dtype", _HALF)
def test_softmax_last_dim(dtype):
    for n in (13, 40, 100, 130, 160):  # (400 x 160: within raw.PORTED_MAX)
        x = np.random.default_rng(n).standard_normal((400, n)) * 3
        _same(lambda M, x: M.softmax(x, -1), [x], dtype)


# softmax over another dim: columns in steps of 2W (SLEEF's expf, x / sum), the scalar
# tail's exp stored in the dtype first (double rounding)
@pytest.mark.parametrize("dtype", _HALF)
@pytest.mark.parametrize("shape,dim", [((9, 200), 0), ((4, 17, 45), 1), ((2, 33, 70), 1),
                                       ((30, 5, 3), 1)])
def test_softmax_other_dim(dtype, shape, dim):
    x = np.random.default_rng(sum(shape)).standard_normal(shape) * 3
    _same(lambda M, x: M.softmax(x, dim), [x], dtype)


# nansum of two non-adjacent dims: each partial rounded to the dtype, then added to the
# output (Half's +=)
@pytest.mark.parametrize("dtype", _HALF)
@pytest.mark.parametrize("op", ["nansum", "nanmean"])
def test_nansum_two_dims(dtype, op):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 50, 5))
    x[rng.random(x.shape) < 0.2] = np.nan
    _same(lambda M, x: getattr(M, op)(x, (0, 2)), [x], dtype, grad=False)


# the losses: float16 huber and bfloat16 smooth L1 in float32 with one rounding, the other
# pair in 16-bit steps; their backward likewise (huber's scalar loop: a double delta)
@pytest.mark.parametrize("dtype", _HALF)
@pytest.mark.parametrize("loss", ["huber", "smooth_l1"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_half_losses(dtype, loss, reduction):
    for delta in (0.3, 0.7, 1.0):
        rng = np.random.default_rng(int(delta * 10))
        a, b = rng.standard_normal((8, 77)), rng.standard_normal((8, 77))
        if loss == "huber":
            fn = lambda M, x, y: M.nn.functional.huber_loss(  # noqa: E731
                x, y, reduction=reduction, delta=delta)
        else:
            fn = lambda M, x, y: M.nn.functional.smooth_l1_loss(  # noqa: E731
                x, y, reduction=reduction, beta=delta)
        _same(fn, [a, b], dtype)
