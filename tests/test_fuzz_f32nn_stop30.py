"""Stop 30, helper f32nn30: float32 normalization layers and variance-type reductions
against PyTorch 2.13, bit for bit (tests/fuzz/OPEN_FINDINGS.md "Stop 30 (float32 norms and
reductions; helper f32nn30)"): var/std/var_mean/std_mean (Note [Variance kernels] in
_ops/reduction.py), layer_norm's statistics, output and forward tangents (Note [Layer
norm's moments] in _ops/nn_ops.py), and the stop-29 reproducers end_repro_005, 009, 014."""

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402


def _np(t):
    return t.detach().numpy().copy()


def _both(fn, *arrays):
    """fn run on torch and on autotensor with the same arrays; the results as arrays."""
    out = []
    for L in (torch, autotensor):
        r = fn(L, *[None if a is None else L.tensor(a) for a in arrays])
        out.append([_np(v) for v in (r if isinstance(r, (tuple, list)) else (r,))])
    return out


def _bitwise(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert np.array_equal(x, y, equal_nan=True), (x, y)


# ---- the reproducers -------------------------------------------------------------------
def test_end_repro_009_var_of_equal_huge_float32_values_is_zero():
    """pending_stop29/end_repro_009: three equal float32 values 3.05e13 per column; var(0)
    is WelfordOps in double (0), not a float32 two-pass (6.6e12)."""
    x = np.full((3, 2), 3.0484935e13, np.float32)
    for L in (torch, autotensor):
        assert _np(L.tensor(x).var(0)).tolist() == [0.0, 0.0]


def test_one_element_var_takes_the_float32_mean():
    """std_var_all_cpu: a one-element result's mean is the tensor's float32 mean(), so the
    variance of the same three values as one row is PyTorch's 6.6e12, not 0."""
    x = np.full(3, 3.0484935e13, np.float32)
    a, b = _both(lambda L, t: (t.var(), t.var(0), t.std()) + tuple(L.var_mean(t)), x)
    _bitwise(a, b)
    assert b[0] > 0 and b[3] == 0  # (var_mean: Welford's steps, 0)


@pytest.mark.parametrize("lines", [
    ([[-1.2990000247955322, -0.984000027179718]], [[1.16, -2.226]]),              # 005
    ([[-0.387, -0.156], [0.146, -0.005], [0.151, 0.94]],
     [[-0.981, 1.803], [-1.126, -0.774], [0.987, -0.806]]),                       # 014
])
def test_end_repro_005_014_layer_norm_tangents_of_two_element_rows(lines):
    """pending_stop29/end_repro_005, 014: the tangent of a two-element row's layer_norm is
    ill-conditioned; it matches once mean and rstd are RowwiseMoments' own roundings."""
    x, t = (np.array(v, np.float32) for v in lines)
    out = []
    for L in (torch, autotensor):
        fa = L.autograd.forward_ad
        with fa.dual_level():
            d = fa.make_dual(L.tensor(x), L.tensor(t))
            y = L.nn.functional.layer_norm(d, d.shape[-1:])
            out.append((_np(fa.unpack_dual(y).primal), _np(fa.unpack_dual(y).tangent)))
    _bitwise(out[0], out[1])


# ---- var / std / var_mean / std_mean ---------------------------------------------------
_SHAPES = [(), (1,), (2,), (3,), (7,), (3, 2), (2, 5), (4, 3, 5), (40,), (33, 3), (2, 60)]


def _var_cases(seed, dtypes, count):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        shape = _SHAPES[rng.integers(len(_SHAPES))]
        dt = dtypes[rng.integers(len(dtypes))]
        off = [0.0, 1e4, 1e12, 3.0][rng.integers(4)]
        x = rng.standard_normal(shape) * rng.choice([1, 1e-3, 1e3]) + off
        if rng.random() < 0.1:
            x = np.full(shape, off + 1.764)
        if np.dtype(dt).kind == "c":
            x = x + 1j * rng.standard_normal(shape)
        x = np.asarray(x).astype(dt)
        nd = len(shape)
        kind = rng.integers(3)
        dim = None if nd == 0 or kind == 0 else int(rng.integers(nd)) if kind == 1 else \
            tuple(int(v) for v in rng.choice(nd, int(rng.integers(1, nd + 1)), replace=False))
        yield (x, dim, bool(rng.integers(2)), [0, 1, 2, 0.5][rng.integers(4)],
               ["var", "std", "var_mean", "std_mean"][rng.integers(4)])


@pytest.mark.parametrize("dtypes", [(np.float32,), (np.float64,), (np.complex64,)],
                         ids=["float32", "float64", "complex64"])
def test_var_family_bit_for_bit(dtypes):
    """Random shapes, dims, keepdim, corrections, offsets (1e4, 1e12) and constant
    tensors: every result equals PyTorch's bits (float64 reductions of up to 128 elements
    run Welford's steps where |mean| > 10 std, the two-pass sum elsewhere: within a few ulps
    or two there; complex std is left out: its float32 root is PyTorch's MKL sqrt, not
    correctly rounded)."""
    for x, dim, keep, corr, op in _var_cases(30 + len(dtypes[0].__name__), dtypes, 400):
        if x.dtype.kind == "c" and op.startswith("std"):
            continue

        def fn(L, t, op=op, dim=dim, keep=keep, corr=corr):
            kw = dict(correction=corr, keepdim=keep)
            return getattr(L, op)(t, dim, **kw) if dim is not None else getattr(L, op)(t, **kw)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a, b = _both(fn, x)
        if x.dtype == np.float64:
            for u, v in zip(a if isinstance(a, tuple) else (a,), b if isinstance(b, tuple)
                            else (b,)):
                np.testing.assert_allclose(u, v, rtol=1e-13, atol=0)
        else:
            _bitwise(a, b)


def test_var_mean_mean_is_the_welford_mean():
    """var_mean's mean is WelfordOps' double mean cast once: not mean()'s float32 cascade
    sum / n (they differ for about half of these rows)."""
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((64, 37)) * 3 + 1e4).astype(np.float32)
    a, b = _both(lambda L, t: (L.var_mean(t, 1)[1], t.mean(1)), x)
    _bitwise(a[:1], b[:1])
    assert (a[0] != a[1]).any()


# ---- layer_norm ------------------------------------------------------------------------
@pytest.mark.parametrize("N", [1, 2, 3, 7, 8, 9, 16, 17, 100, 128, 129, 255, 256, 300, 513,
                               1000, 2049, 4097])
def test_layer_norm_float32_statistics_and_output_bit_for_bit(N):
    """native_layer_norm's result, mean and rstd: the chunked Welford of 8 lanes, the
    binary counter's merges (several chunks from N = 256), the scalar tail, and the output
    fma of each affine variant."""
    rng = np.random.default_rng(N)
    R = max(1, min(12, 16384 // N))
    x = (rng.standard_normal((R, N)) * rng.choice([1, 1e-3, 1e3], (R, 1))
         + rng.choice([0, 1, 1e4], (R, 1))).astype(np.float32)
    w, b = (rng.standard_normal(N).astype(np.float32) for _ in range(2))
    for weight, bias in ((None, None), (w, None), (None, b), (w, b)):
        a, c = _both(lambda L, t, g, h: L.native_layer_norm(t, (N,), g, h, 1e-5),
                     x, weight, bias)
        _bitwise(a, c)


def test_layer_norm_float32_tangents_bit_for_bit():
    """Forward AD of float32 layer_norm (PyTorch's layer_norm_jvp from the saved mean and
    rstd) on short rows, where a tangent cancels, with and without affine tangents."""
    rng = np.random.default_rng(11)
    for trial in range(60):
        N = int(rng.choice([2, 3, 5, 9, 17]))
        x = (rng.standard_normal((3, N)) + rng.choice([0, 3, 1e4])).astype(np.float32)
        tx, w, tw, b, tb = (rng.standard_normal(s).astype(np.float32)
                            for s in ((3, N), N, N, N, N))
        out = []
        for L in (torch, autotensor):
            fa = L.autograd.forward_ad
            with fa.dual_level():
                d = fa.make_dual(L.tensor(x), L.tensor(tx))
                wd = fa.make_dual(L.tensor(w), L.tensor(tw)) if trial % 2 else L.tensor(w)
                bd = fa.make_dual(L.tensor(b), L.tensor(tb)) if trial % 3 else None
                y = L.nn.functional.layer_norm(d, (N,), wd, bd)
                out.append((_np(fa.unpack_dual(y).primal), _np(fa.unpack_dual(y).tangent)))
        _bitwise(out[0], out[1])


# ---- batch_norm ------------------------------------------------------------------------
def _bn_cases(seed, count):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n, c = int(rng.integers(1, 6)), int(rng.integers(1, 5))
        size = int(rng.choice([1, 2, 3, 20, 64]))
        if n * size == 1:
            continue
        x = (rng.standard_normal((n, c, size)) + rng.choice([0, 3, 1e4])).astype(np.float32)
        yield (x,) + tuple(rng.standard_normal(c).astype(np.float32) for _ in range(3)) + (
            (rng.random(c) + 0.5).astype(np.float32),)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_float32_bit_for_bit(training):
    """native_batch_norm's result, save_mean, save_invstd and the updated running
    statistics (double channel sums; the channels-last kernel of (N, C, 1) inputs; the
    fma output; Note [Batch norm's float32 statistics]), and the training tangent."""
    for x, w, b, rm, rv in _bn_cases(5, 120):
        out = []
        for L in (torch, autotensor):
            m, v = L.tensor(rm), L.tensor(rv)
            res = L.native_batch_norm(L.tensor(x), L.tensor(w), L.tensor(b), m, v, training,
                                      0.3, 1e-5)
            fa = L.autograd.forward_ad
            with fa.dual_level():
                d = fa.make_dual(L.tensor(x), L.tensor(np.cos(x)))
                y = L.nn.functional.batch_norm(d, L.tensor(rm), L.tensor(rv), L.tensor(w),
                                               L.tensor(b), training=training)
                tangent = fa.unpack_dual(y).tangent
            # (in evaluation the tangent is input_t * (1 / at::sqrt(running_var + eps)):
            # PyTorch's float32 sqrt is MKL's, not correctly rounded, so left out)
            out.append([_np(r) for r in res] + [_np(m), _np(v)] + (
                [_np(tangent)] if training else []))
        _bitwise(out[0], out[1])


def test_instance_norm_float32_values_bit_for_bit():
    """instance_norm is batch_norm of a (1, N * C, ...) view: the same kernel."""
    rng = np.random.default_rng(8)
    for _ in range(30):
        x = (rng.standard_normal((int(rng.integers(1, 4)), int(rng.integers(1, 4)),
                                  int(rng.choice([2, 5, 16]))))
             + rng.choice([0, 1e4])).astype(np.float32)
        a, b = _both(lambda L, t: L.nn.functional.instance_norm(t), x)
        _bitwise(a, b)


def test_group_norm_float32_bit_for_bit():
    """native_group_norm: RowwiseMoments per (sample, group), rstd in double, the fma
    output of each affine variant; and the forward tangent."""
    rng = np.random.default_rng(9)
    for trial in range(80):
        n, g, d = (int(v) for v in rng.integers(1, 4, 3))
        size = int(rng.choice([1, 2, 5, 16, 40]))
        c = g * d
        if d * size == 1:
            continue
        x = (rng.standard_normal((n, c, size)) + rng.choice([0, 3, 1e4])).astype(np.float32)
        w, b = (rng.standard_normal(c).astype(np.float32) for _ in range(2))
        weight, bias = (w if trial & 1 else None), (b if trial & 2 else None)
        out = []
        for L in (torch, autotensor):
            res = L.native_group_norm(L.tensor(x), None if weight is None else L.tensor(w),
                                      None if bias is None else L.tensor(b), n, c, size, g,
                                      1e-5)
            fa = L.autograd.forward_ad
            with fa.dual_level():
                dx = fa.make_dual(L.tensor(x), L.tensor(np.sin(x)))
                y = L.nn.functional.group_norm(dx, g, L.tensor(w), L.tensor(b))
                tangent = fa.unpack_dual(y).tangent
            out.append([_np(r) for r in res] + [_np(tangent)])
        _bitwise(out[0], out[1])


def test_layer_norm_float32_gradients_bit_for_bit():
    """layer_norm's backward (Note [Layer norm's backward]): the input's, weight's and
    bias' gradients, rows with and without a tail of a partial vector, one to six rows
    (split between two threads' running sums)."""
    rng = np.random.default_rng(12)
    for trial in range(80):
        N = int(rng.choice([1, 2, 3, 8, 9, 17, 33, 100]))
        x = (rng.standard_normal((int(rng.integers(1, 7)), N))
             + rng.choice([0, 3, 1e4])).astype(np.float32)
        dy = rng.standard_normal(x.shape).astype(np.float32)
        w, b = (rng.standard_normal(N).astype(np.float32) for _ in range(2))
        out = []
        for L in (torch, autotensor):
            t = L.tensor(x, requires_grad=True)
            ps = [L.tensor(w, requires_grad=True), L.tensor(b, requires_grad=True)] \
                if trial % 2 else []
            y = L.nn.functional.layer_norm(t, (N,), *ps)
            out.append([_np(v) for v in L.autograd.grad(y, [t] + ps, L.tensor(dy))])
        _bitwise(out[0], out[1])


def test_group_norm_float32_gradients_bit_for_bit():
    """group_norm's backward as group_norm_kernel.cpp computes it (channels past the last
    full vector of a group, images with a partial vector, several samples)."""
    rng = np.random.default_rng(13)
    for trial in range(60):
        n, g = int(rng.integers(1, 5)), int(rng.integers(1, 3))
        d, size = int(rng.choice([1, 2, 3, 9, 17])), int(rng.choice([1, 2, 5, 8, 17]))
        c = g * d
        if d * size == 1:
            continue
        x = (rng.standard_normal((n, c, size)) + rng.choice([0, 3, 1e4])).astype(np.float32)
        dy = rng.standard_normal(x.shape).astype(np.float32)
        w, b = (rng.standard_normal(c).astype(np.float32) for _ in range(2))
        out = []
        for L in (torch, autotensor):
            t = L.tensor(x, requires_grad=True)
            ps = [L.tensor(w, requires_grad=True), L.tensor(b, requires_grad=True)] \
                if trial % 2 else []
            y = L.nn.functional.group_norm(t, g, *ps)
            out.append([_np(v) for v in L.autograd.grad(y, [t] + ps, L.tensor(dy))])
        _bitwise(out[0], out[1])


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_float32_gradients_bit_for_bit(training):
    """batch_norm's backward on (N, C, S > 1) inputs (Note [Batch norm's backward])."""
    rng = np.random.default_rng(14)
    for trial in range(60):
        n, c = int(rng.integers(1, 5)), int(rng.integers(1, 4))
        size = int(rng.choice([2, 3, 8, 9, 17, 20]))
        x = (rng.standard_normal((n, c, size)) + rng.choice([0, 3, 1e4])).astype(np.float32)
        dy = rng.standard_normal(x.shape).astype(np.float32)
        w, b, rm = (rng.standard_normal(c).astype(np.float32) for _ in range(3))
        rv = (rng.random(c) + 0.5).astype(np.float32)
        out = []
        for L in (torch, autotensor):
            t = L.tensor(x, requires_grad=True)
            ps = [L.tensor(w, requires_grad=True), L.tensor(b, requires_grad=True)] \
                if trial % 2 else [None, None]
            y = L.nn.functional.batch_norm(t, L.tensor(rm), L.tensor(rv), *ps,
                                           training=training)
            out.append([_np(v) for v in L.autograd.grad(
                y, [t] + [p for p in ps if p is not None], L.tensor(dy))])
        _bitwise(out[0], out[1])


def test_norms_of_non_finite_and_overflowing_rows():
    """inf, NaN, signed zeros and rows whose squares overflow float32 (RowwiseMoments'
    merges of empty lanes turn an overflowing mean^2 into NaN), short rows and rows with
    lanes, forward and backward."""
    row = np.array([[1.0, np.inf, 2.0], [np.nan, 1, 2], [-np.inf, np.inf, 0],
                    [1e38, -1e38, 3e38], [0.0, -0.0, 0.0]], np.float32)
    fns = [lambda L, t: L.nn.functional.layer_norm(t, t.shape[-1:]),
           lambda L, t: L.nn.functional.group_norm(t[None], 1),
           lambda L, t: L.nn.functional.batch_norm(t[None], None, None, training=True),
           lambda L, t: L.var(t, 1), lambda L, t: L.var(t), lambda L, t: L.var_mean(t, 1)[1]]
    for x in (row, np.tile(row, (1, 7))):
        for fn in fns:
            out = []
            for L in (torch, autotensor):
                t = L.tensor(x, requires_grad=True)
                y = fn(L, t)
                out.append([_np(y), _np(L.autograd.grad(y.sum(), t)[0])])
            _bitwise(out[0], out[1])
