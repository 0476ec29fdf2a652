"""float32/float64 sums in aten's order (Note [Cascade sum] in autotensor/_ops/sum_kernel.py):
bit for bit PyTorch's over shapes x reduced dims x layouts, signed zeros, mean, and the sums
inside backward (a broadcast bias's gradient)."""
import itertools

import numpy as np
import pytest

import autotensor
from autotensor._ops.sum_kernel import cascade_sum

torch = pytest.importorskip("torch")

SHAPES = [(), (1,), (5,), (16,), (37,), (300,), (3000,), (4, 9), (9, 4), (3, 40), (40, 3),
          (64, 70), (70, 64), (1, 50), (50, 1), (2, 3, 40), (40, 3, 2), (5, 17, 19),
          (3, 1, 33), (8, 8, 8, 8), (200, 150), (7, 5000), (5000, 7)]


def _layouts(a):
    yield "contiguous", a
    if a.ndim >= 2:
        yield "transposed", a.T
    if a.ndim >= 1 and a.shape[0] > 2:
        yield "strided", a[::2]


def _same(ours, theirs):
    if ours.dtype.kind == "c":
        return ours.dtype == theirs.dtype and _same(ours.real, theirs.real) and \
            _same(ours.imag, theirs.imag)
    return (ours.shape == theirs.shape and ours.dtype == theirs.dtype and
            np.array_equal(ours, theirs) and np.array_equal(np.signbit(ours),
                                                             np.signbit(theirs)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_sum_is_pytorchs_bit_for_bit(shape, dtype):
    rng = np.random.default_rng(len(shape) * 1000 + int(np.prod(shape)))
    checked = 0
    for r in range(len(shape) + 1):
        for axes in itertools.combinations(range(len(shape)), r):
            for kind in ("normal", "zeros"):
                a = rng.standard_normal(shape).astype(dtype)
                if kind == "zeros":  # mostly -0.0: the accumulators' +0.0 shows
                    a = np.where(rng.random(shape) < 0.8, -0.0, a).astype(dtype)
                for name, x in _layouts(a):
                    dims = axes if r else None
                    theirs = (torch.from_numpy(x).sum(dim=dims) if dims else
                              torch.from_numpy(x).sum()).numpy()
                    t = autotensor.tensor(x) if name == "contiguous" else \
                        autotensor.tensor(a)
                    if name == "transposed":
                        t = t.T
                    elif name == "strided":
                        t = t[::2]
                    ours = (t.sum(dim=dims) if dims else t.sum()).numpy()
                    if x.size >= 32768 and ours.size == 1:  # (PyTorch's threads split it)
                        np.testing.assert_allclose(ours, theirs,
                                                   rtol=1e-5 if dtype == "float32" else 1e-12)
                        continue
                    assert _same(ours, theirs), (name, axes, kind)
                    checked += 1
    assert checked


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_mean_is_pytorchs_sum_then_division(dtype):
    rng = np.random.default_rng(7)
    for shape, dims in [((37,), None), ((64, 70), 1), ((70, 64), 0), ((5, 17, 19), (0, 2)),
                        ((8, 8, 8, 8), (1, 3)), ((3000,), None)]:
        a = rng.standard_normal(shape).astype(dtype)
        ours = autotensor.tensor(a).mean(dim=dims) if dims is not None else \
            autotensor.tensor(a).mean()
        theirs = torch.from_numpy(a).mean(dim=dims) if dims is not None else \
            torch.from_numpy(a).mean()
        assert _same(ours.numpy(), theirs.numpy()), (shape, dims)


def test_backward_sums_are_pytorchs():
    """A broadcast bias's gradient is sum_to's sum: the same bits as PyTorch's."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((33, 12, 7)).astype("float32")
    b = rng.standard_normal((12, 1)).astype("float32")
    w = rng.standard_normal((33, 12, 7)).astype("float32")

    def grad(mod):
        bt = mod.tensor(b, requires_grad=True)
        ((mod.tensor(x) + bt) * mod.tensor(w)).sum().backward()
        return bt.grad.numpy()
    assert _same(grad(autotensor), grad(torch))


def test_large_sums_keep_numpys_order_within_rounding():
    """Beyond 65,536 elements (and single-output sums from 32,768, which PyTorch splits
    between its threads) the sum is NumPy's pairwise one: within float32 rounding."""
    a = np.random.default_rng(0).standard_normal((300, 300)).astype("float32")
    assert cascade_sum(a, (0, 1)) is None
    np.testing.assert_allclose(autotensor.tensor(a).sum().item(),
                               torch.from_numpy(a).sum().item(), rtol=1e-5)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(5,), (16,), (37,), (300,), (4, 9), (9, 4), (3, 40), (40, 3),
                                   (64, 70), (70, 64), (2, 3, 40), (5, 17, 19), (8, 8, 8, 8),
                                   (20, 12), (12, 20), (200, 150)], ids=str)
def test_reduced_float_sum_is_pytorchs_bit_for_bit(shape, dtype):
    """float16/bfloat16: float32 accumulation with their load and store policies, and the
    float32 buffer of two reduced innermost dims."""
    rng = np.random.default_rng(int(np.prod(shape)))
    for r in range(1, len(shape) + 1):
        for axes in itertools.combinations(range(len(shape)), r):
            a = rng.standard_normal(shape).astype("float32")
            x, t = autotensor.tensor(a).to(getattr(autotensor, dtype)), \
                torch.from_numpy(a).to(getattr(torch, dtype))
            for name, (xv, tv) in {"contiguous": (x, t), "strided": (x[::2], t[::2]),
                                   "transposed": (x.transpose(0, -1), t.transpose(0, -1))
                                   }.items():
                ours = xv.sum(dim=axes).float().numpy()
                theirs = tv.sum(dim=axes).float().numpy()
                assert np.array_equal(ours, theirs), (name, axes)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_sum_and_mean_are_pytorchs_bit_for_bit(dtype):
    """The real and imaginary parts in the float order with half the lanes; the mean's
    division by the count as c10::complex's (NumPy's complex division)."""
    rng = np.random.default_rng(11)
    for shape in [(3,), (17,), (300,), (4, 9), (64, 70), (70, 64), (5, 17, 19), (8, 8, 8, 8)]:
        for r in range(1, len(shape) + 1):
            for axes in itertools.combinations(range(len(shape)), r):
                a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
                for lib_a in ((autotensor.tensor(a), torch.from_numpy(a)),):
                    for view in (lambda t: t, lambda t: t[::2], lambda t: t.permute(
                            *reversed(range(t.dim())))):
                        for op in ("sum", "mean"):
                            ours, theirs = (getattr(view(t), op)(dim=axes).numpy()
                                            for t in lib_a)
                            assert _same(ours, theirs), (shape, axes, op)
