"""Stop 31, helper szero31: the signed zero of max/min reductions whose reduced values mix
-0.0 and +0.0, against PyTorch 2.13's x86 CPU build (tests/fuzz/OPEN_FINDINGS.md "Stop 31
(signed zeros of reductions; helper szero31)"): amax/amin (binary_kernel_reduce_vec, Note
[Signed zeros of amax and amin] in _ops/reduction.py), max()/min()/aminmax() without a dim
past the parallel grain (Note [Signed zeros of max() and min()]), aminmax along a dim, and
pending_stop30/fin_repro_002. Each scenario runs on both libraries; values are compared
with their sign bits."""

import pathlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402

DTYPES = ["float32", "float64", "float16", "bfloat16"]
SIZES = [1, 2, 3, 5, 8, 9, 16, 17, 31, 32, 33, 40, 64, 65, 70, 100, 130]


def _signed(values):
    """Values as float64 arrays with their sign bits, for exact comparison."""
    a = np.asarray(values, np.float64).reshape(-1)
    return a, np.signbit(a)


def _same(ours, theirs, what):
    (a, sa), (b, sb) = _signed(ours), _signed(theirs)
    assert np.array_equal(a, b, equal_nan=True), what
    differ = int((sa != sb).sum())
    assert differ == 0, f"{differ} of {a.size} signs differ: {what}"


def _zeros(rng, shape, negative):
    """Mostly zeros of both signs among values of one sign (negative: below 0, for max)."""
    n = int(np.prod(shape))
    x = np.where(rng.rand(n) < rng.choice([0.3, 0.9, 1.0]), 0.0, 1.0 + rng.rand(n))
    x = np.where((x == 0) & (rng.rand(n) < rng.choice([0.05, 0.5, 0.95])), -0.0, x)
    return (-x if negative else x).reshape(shape)


def _run(fn, x, dtype, perm=None, offset=False):
    """fn(lib, tensor) on both libraries (same dtype, permutation and offset view)."""
    out = []
    for lib in (torch, autotensor):
        t = lib.tensor(x).to(getattr(lib, dtype))
        if perm is not None:
            t = t.permute(*perm)
        if offset:
            t = t[..., 1:]
        r = fn(lib, t)
        rs = r if isinstance(r, (tuple, list)) else (r,)
        out.append(np.concatenate([np.asarray(v.double().tolist()).reshape(-1) for v in rs]))
    return out


def test_fin_repro_002_amax_of_zero_times_a_batch():
    """pending_stop30/fin_repro_002: amax() of 0 * v, v a float32 (2, 4, 4) batch: its 32
    elements are one vectorized step (4 vectors of 8 lanes); the lowest lane holding a zero
    wins, here +0.0 (ours was NumPy's -0.0)."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / "pending_stop30" /
                   "fin_repro_002.py")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["amax", "amin"])
def test_amax_amin_of_one_row(dtype, op):
    """A contiguous row: the scalar loop below 4W elements (the first zero), then 4
    accumulators of W lanes (the last zero of a lane, a3 before a0, the lowest lane) and
    the scalar tail; one zero against the others' sign at every position."""
    cases = 0
    for n in (2, 7, 31, 32, 33, 47, 63, 64, 65, 96, 129):
        for pos in range(n):
            for sign in (0.0, -0.0):
                x = np.full(n, 0.0 if np.signbit(sign) else -0.0)
                x[pos] = sign
                a, b = _run(lambda L, t: getattr(t, op)(), x, dtype)
                _same(b, a, (op, dtype, n, pos, sign))
                cases += 1
    assert cases == 2 * sum((2, 7, 31, 32, 33, 47, 63, 64, 65, 96, 129))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["amax", "amin"])
def test_amax_amin_over_dims_and_layouts(dtype, op):
    """Random shapes, dims (one, several, all), keepdim, permuted and offset views: the
    TensorIterator's order (reduced dims first, by strides; coalesced), inner rows,
    outer reductions in column blocks of 4W with their remainder, basic loops."""
    rng = np.random.RandomState(31 + DTYPES.index(dtype))
    for _ in range(120):
        nd = rng.randint(1, 5)
        shape = [int(rng.choice(SIZES)) for _ in range(nd)]
        while np.prod(shape) > 20000:
            shape[int(np.argmax(shape))] //= 2
        x = _zeros(rng, shape, negative=op == "amax")
        perm = [int(p) for p in rng.permutation(nd)] if rng.rand() < 0.5 else None
        mode = rng.randint(3)
        dim = () if mode == 0 else int(rng.randint(nd)) if mode == 1 else tuple(
            int(a) for a in rng.choice(nd, rng.randint(1, nd + 1), replace=False))
        keepdim = bool(rng.rand() < 0.3)
        offset = bool(rng.rand() < 0.2 and shape[perm[-1] if perm else -1] > 2)
        a, b = _run(lambda L, t, op=op, dim=dim, keepdim=keepdim: getattr(t, op)(dim, keepdim),
                    x, dtype, perm, offset)
        _same(b, a, (op, dtype, shape, perm, dim, keepdim, offset))


@pytest.mark.parametrize("dtype", DTYPES)
def test_amax_amin_columns_of_an_outer_reduction(dtype):
    """amax(0) of (rows, cols): the columns in full blocks of 4W keep the LAST zero down
    the rows (vectorized_outer_reduction), the remaining columns the first."""
    rng = np.random.RandomState(7)
    for rows, cols in ((2, 32), (3, 70), (5, 64), (9, 130), (4, 17)):
        x = np.where(rng.rand(rows, cols) < 0.2, 0.0, -0.0)
        x[0] = 0.0  # (the first row against the last zero of each column)
        for op in ("amax", "amin"):
            a, b = _run(lambda L, t, op=op: getattr(t, op)(0), x, dtype)
            _same(b, a, (dtype, rows, cols, op))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["amax", "amin", "max", "min", "aminmax"])
def test_one_output_past_the_grain(dtype, op):
    """More than GRAIN_SIZE (32768) elements to one output: at::get_num_threads() chunks
    (two_pass_reduction for amax/amin, at::parallel_reduce for the all-reduces), each
    reduced from its own start, the first chunk holding a zero gives it."""
    if torch.get_num_threads() != autotensor.get_num_threads():
        pytest.skip("PyTorch and autotensor run different thread counts here, and the "
                    "chunks past the grain follow the thread count")
    rng = np.random.RandomState(5)
    for n in (32768, 32769, 40000, 65537, 100003):
        for _ in range(3):
            x = -1.0 - rng.rand(n)
            half = -(-n // 2)
            pos = np.concatenate([rng.choice(n, 3, replace=False),
                                  [half - 1 - rng.randint(40), half + rng.randint(40)]])
            x[pos] = np.where(rng.rand(pos.size) < 0.5, -0.0, 0.0)
            if op in ("amin", "min") or (op == "aminmax" and rng.rand() < 0.5):
                x = -x
            a, b = _run(lambda L, t: L.aminmax(t) if op == "aminmax" else getattr(t, op)(),
                        x, dtype)
            _same(b, a, (op, dtype, n, sorted(pos.tolist())))


@pytest.mark.parametrize("dtype", DTYPES)
def test_many_outputs_past_the_grain(dtype):
    """Many outputs and more than GRAIN_SIZE elements: parallel_dim_reduction splits kept
    columns at 128-byte multiples, which keeps the column blocks of a single thread."""
    rng = np.random.RandomState(11)
    for shape, dim, perm in (((300, 200), 0, None), ((200, 300), 1, None),
                             ((70, 33, 40), 1, (2, 0, 1)), ((1000, 65), (0,), (1, 0)),
                             ((257, 130), 0, (1, 0))):
        x = _zeros(rng, shape, negative=True)
        for op in ("amax", "amin"):
            v = x if op == "amax" else -x
            a, b = _run(lambda L, t, op=op, dim=dim: getattr(t, op)(dim), v, dtype, perm)
            _same(b, a, (dtype, shape, dim, perm, op))


@pytest.mark.parametrize("dtype", DTYPES)
def test_aminmax(dtype):
    """aminmax without a dim: the all-reduce of max() and min() (reduce2_all, the same
    lanes); along a dim: a scalar loop keeping the first zero (ours: NumPy's)."""
    rng = np.random.RandomState(3)
    for _ in range(60):
        nd = rng.randint(1, 4)
        shape = [int(rng.choice(SIZES)) for _ in range(nd)]
        x = _zeros(rng, shape, negative=rng.rand() < 0.5)
        perm = [int(p) for p in rng.permutation(nd)]
        dim = int(rng.randint(nd))
        keepdim = bool(rng.rand() < 0.5)
        a, b = _run(lambda L, t: L.aminmax(t), x, dtype, perm)
        _same(b, a, ("all", dtype, shape, perm))
        a, b = _run(lambda L, t, dim=dim, keepdim=keepdim: L.aminmax(t, dim=dim, keepdim=keepdim),
                    x, dtype, perm)
        _same(b, a, (dim, dtype, shape, perm, keepdim))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_max_min_with_a_dim_and_their_indices(dtype):
    """max(dim)/min(dim): the first of equal values, value and index (unchanged; a guard)."""
    rng = np.random.RandomState(4)
    for _ in range(40):
        shape = [int(rng.choice(SIZES)) for _ in range(2)]
        x = _zeros(rng, shape, negative=True)
        for op, v in (("max", x), ("min", -x)):
            a, b = _run(lambda L, t, op=op: tuple(getattr(t, op)(1)), v, dtype)
            _same(b, a, (op, dtype, shape))


def test_gradients_and_tangents_of_tied_zeros():
    """Which zero is kept does not reach the derivatives: amax/amin/max()/aminmax share
    the gradient evenly among the values equal to the result (== ignores the sign), and
    their tangents read the same mask; both agree with PyTorch, signs included."""
    rng = np.random.RandomState(9)
    x = _zeros(rng, (4, 40), negative=True)
    x[:, 0] = 0.0
    x[:, 1] = -0.0
    g = rng.randn(4, 40)
    results = []
    for L in (torch, autotensor):
        fa = L.autograd.forward_ad
        out = []
        for fn in (lambda t: t.amax(), lambda t: t.amax(1), lambda t: (-t).amin(0),
                   lambda t: t.max(), lambda t, L=L: L.aminmax(t, dim=1)[1]):
            t = L.tensor(x, requires_grad=True)
            r = fn(t)
            (gr,) = L.autograd.grad(r.sum(), t)
            with fa.dual_level():
                d = fa.make_dual(L.tensor(x), L.tensor(g))
                tangent = fa.unpack_dual(fn(d)).tangent
            out += [r.detach().numpy().reshape(-1), gr.numpy().reshape(-1),
                    tangent.numpy().reshape(-1)]
        results.append(np.concatenate(out))
    _same(results[1], results[0], "values, gradients, tangents")


# ---- ties of the selecting and sorting ops (found on the way) --------------------------
def _tied_rows(rng, rows, n, kind):
    if kind == "zeros":
        x = np.where(rng.rand(rows, n) < 0.7, 0.0, rng.randint(-3, 3, (rows, n)).astype(float))
        return np.where((x == 0) & (rng.rand(rows, n) < 0.5), -0.0, x)
    if kind == "ints":
        return rng.randint(0, 4, (rows, n)).astype(float)
    x = rng.randn(rows, n)
    x[rng.rand(rows, n) < 0.1] = np.nan
    return x


def _compare_rows(fn, dtypes, seed, count=40):
    rng = np.random.RandomState(seed)
    for it in range(count):
        dtype = dtypes[it % len(dtypes)]
        n = int(rng.choice([10, 16, 17, 20, 33, 64, 65, 130, 300]))
        kind = ("zeros", "ints", "nan")[it % 3]
        x = _tied_rows(rng, int(rng.choice([1, 3])), n, kind)
        if dtype in ("int64", "uint8", "bool"):
            x = np.nan_to_num(np.abs(x))
        desc = bool(rng.rand() < 0.5)
        k = int(rng.choice([1, 2, 3, 5]))
        a, b = _run(lambda L, t, desc=desc, k=k: fn(L, t, desc, k), x, dtype)
        keep = ~np.isnan(a)  # (a NaN's sign is not compared)
        assert np.array_equal(a, b, equal_nan=True), (dtype, n, kind, desc, k)
        assert np.array_equal(np.signbit(a[keep]), np.signbit(b[keep])), (dtype, n, kind, desc)


@pytest.mark.parametrize("op", ["sort", "argsort", "msort", "sort_stable"])
def test_sort_of_ties_is_std_sort(op):
    """sort(stable=False) is std::sort of (value, index) pairs with KeyValueComp (NaN
    largest): stable up to 16 elements (its insertion sort), not past them, so the indices
    of equal values and the order of -0.0 and +0.0 are its steps' (ours were a stable
    sort's); stable=True is std::stable_sort, ours."""
    fns = {"sort": lambda L, t, desc, k: tuple(t.sort(-1, descending=desc)),
           "argsort": lambda L, t, desc, k: t.argsort(-1, descending=desc),
           "msort": lambda L, t, desc, k: L.msort(t.t()),
           "sort_stable": lambda L, t, desc, k: tuple(t.sort(dim=-1, descending=desc,
                                                             stable=True))}
    _compare_rows(fns[op], DTYPES + ["int64", "uint8", "bool"], 17)


def test_sort_of_a_stride_0_dim_is_left_as_it_is():
    """sort_kernel returns early for a stride-0 dim: indices 0..n-1 (not std::sort's)."""
    a, b = _run(lambda L, t: t.expand(20).sort(), np.zeros(1), "float32")
    _same(b, a, "expanded")


@pytest.mark.parametrize("sorted_", [True, False])
def test_topk_of_ties_is_partial_sort_or_nth_element(sorted_):
    """topk_impl_loop: std::partial_sort when k * 64 <= n, else std::nth_element at k - 1
    and (sorted) std::sort of the first k - 1: which of equal values are kept and in which
    order (values' signed zeros, indices); unsorted, nth_element's order."""
    _compare_rows(lambda L, t, desc, k: tuple(t.topk(k, -1, largest=desc, sorted=sorted_)),
                  DTYPES + ["int64", "uint8"], 23 + sorted_, count=60)


def test_kthvalue_median_quantile_of_tied_zeros():
    """kthvalue's value is the element at its quick select's index (the index was right,
    the value came from a stable order: its zero's sign); quantile sorts with std::sort;
    median keeps nth_element's zero (unchanged: a guard)."""
    _compare_rows(lambda L, t, desc, k: tuple(t.kthvalue(k, -1)) + tuple(t.median(-1)) +
                  (t.quantile(0.3, -1),), ["float32", "float64"], 29, count=60)


@pytest.mark.parametrize("dtype", DTYPES)
def test_unique_of_both_zeros_and_nans(dtype):
    """unique(): std::sort of (value, index) pairs (NaN largest), then runs: the zero kept
    is the first of std::sort's run (ours: NumPy's), each NaN is its own value (ours were
    collapsed into one), the inverse indices of the NaNs follow the sort's steps."""
    rng = np.random.RandomState(37)
    for it in range(40):
        n = int(rng.choice([1, 3, 8, 16, 17, 20, 33, 64, 100, 500]))
        x = np.where(rng.rand(n) < 0.5, 0.0, -0.0)
        x[rng.rand(n) < 0.3] = 1.0
        if it % 2:
            x[rng.rand(n) < 0.1] = np.nan
        a, b = _run(lambda L, t: L.unique(t, return_inverse=True, return_counts=True),
                    x, dtype)
        keep = ~np.isnan(a)
        assert np.array_equal(a, b, equal_nan=True), (dtype, n, x.tolist())
        assert np.array_equal(np.signbit(a[keep]), np.signbit(b[keep])), (dtype, n)
