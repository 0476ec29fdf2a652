"""Stop 35 (helper red35): reductions bit for bit against PyTorch's CPU kernels, in their
order (tests/reduction_sweep.py sweeps every layout; tests/fuzz/OPEN_FINDINGS.md, Stop 35
(reduction order)). Each op runs on both modules over rows, columns, several dims, all
dims, transposed and sliced layouts; every output element (and gradient, where named)
must have PyTorch's bits."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

from tests.reduction_sweep import sweep  # noqa: E402

_SIZES = (1, 2, 3, 5, 8, 9, 16, 17, 33, 64, 70)

# (op, dtypes, with gradients)
_CASES = [
    # WelfordOps in the iterator's order (float64 took a two-pass sum)
    ("var", ("float64",), True), ("var_c0", ("float64",), True),
    ("std", ("float64",), True), ("std_c0", ("float64",), True),
    ("var_mean", ("float64", "float32", "float16", "bfloat16"), False),
    ("std_mean", ("float64", "float32", "float16", "bfloat16"), True),
    # NormOneOps / NormOps: sequential sums, glibc's pow (Note [p-norm order])
    ("norm_1", ("float64", "float32"), True), ("norm_3", ("float64",), True),
    ("norm_0.5", ("float64", "float32"), False),
    ("dist_1", ("float64", "float32"), True), ("dist_3", ("float64", "float32"), True),
    ("normalize_1", ("float64", "float32"), True), ("pairwise_1", ("float64", "float32"), True),
    ("normalize_3", ("float64",), True), ("pairwise_3", ("float64",), True),
    # the cascade sum, NaNs as 0, in the input's layout
    ("nansum", ("float64", "float32"), False), ("nanmean", ("float64", "float32"), False),
    # binary_kernel_reduce_vec's lanes
    ("prod", ("float64", "float32", "float16", "bfloat16"), True),
    # the losses' sums and mean, and huber/smooth L1's backward kernels
    ("mse_sum", ("float64", "float32"), True), ("mse_mean", ("float64", "float32"), True),
    ("huber_sum", ("float64", "float32"), True), ("huber_mean", ("float64", "float32"), True),
    ("smoothl1_sum", ("float64", "float32"), True),
    ("smoothl1_mean", ("float64", "float32"), True),
    # float32 softmax over a non-last dim, and its backward
    ("softmax", ("float32",), True), ("log_softmax", ("float32",), True),
    # trace's double accumulator, sum(dtype=) of a strided tensor
    ("trace", ("float32", "float64"), False), ("sum_f64", ("float64",), False),
    # the cdist kernel's order (p != 2, or r <= 25 below), pdist's lanes
    ("cdist_1", ("float64", "float32"), True), ("cdist_3", ("float64",), False),
    ("pdist_1", ("float64", "float32"), True), ("pdist_2", ("float64", "float32"), True),
]


@pytest.mark.parametrize("op,dtypes,grad", _CASES, ids=[c[0] for c in _CASES])
def test_reduction_bit_for_bit(op, dtypes, grad):
    counts = sweep({op}, dtypes, grad, sizes=_SIZES)
    assert counts and sum(t for _, t in counts.values()) > 50
    bad = {k: v for k, v in counts.items() if v[0]}
    assert not bad, f"differing elements (of total): {bad}"


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("p", [1.0, 2.0])
def test_cdist_kernel_bit_for_bit(dtype, p):
    """cdist's own kernel (r1, r2 <= 25 for p = 2): per pair a sequential sum; the 2-norm's
    last m % 2 (double) or m % 4 (float) squares fused as GCC compiled it; the finish's
    1 / p in double."""
    rng = np.random.default_rng(35)
    differ = total = 0
    for r1 in (1, 3, 7, 25):
        for m in (1, 2, 3, 4, 5, 7, 8, 13, 17, 33):
            x = rng.standard_normal((2, r1, m)).astype(dtype)
            y = rng.standard_normal((2, 4, m)).astype(dtype)
            g = rng.standard_normal((2, r1, 4)).astype(dtype)
            outs = []
            for mod in (torch, autotensor):
                a = mod.from_numpy(x.copy()).requires_grad_()
                b = mod.from_numpy(y.copy()).requires_grad_()
                out = mod.cdist(a, b, p=p)
                out.backward(mod.from_numpy(g.copy()))  # (the backward kernel's order too)
                outs.append([out.detach().numpy(), a.grad.numpy(), b.grad.numpy()])
            for want, got in zip(*outs):
                differ += int((want != got).sum())
                total += want.size
    assert differ == 0, f"{differ} of {total} distances and gradients differ"


def test_var_of_a_long_float64_row_takes_welford():
    """A float64 row of 140 elements (two dims of 2 x 70): Welford's steps, not the two-pass
    sum (var_mean's mean is Welford's too)."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        x = rng.standard_normal((3, 2, 70)) * 3 + 1
        want = torch.var_mean(torch.from_numpy(x), dim=(1, 2))
        got = autotensor.var_mean(autotensor.from_numpy(x), dim=(1, 2))
        for w, g in zip(want, got):
            np.testing.assert_array_equal(g.numpy(), w.numpy())
