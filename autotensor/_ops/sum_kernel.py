"""PyTorch's CPU sum of float32/float64 tensors, bit for bit (aten/src/ATen/native/cpu/
SumKernel.cpp).

Note [Cascade sum]
~~~~~~~~~~~~~~~~~~
aten does not sum in NumPy's pairwise order. Its TensorIterator first orders the dims
(reduced dims innermost, then by the input's strides) and merges the mergeable ones; the
innermost two become a 2-D loop, the rest are iterated, each call adding its partial sums
into the output (which starts at 0). The loop (``cascade_sum``) then takes one of four
paths: a contiguous reduced row is read as vectors of ``W`` lanes (``vectorized_inner_sum``:
four interleaved accumulators, "ilp", over the vectors, each a ``multi_row_sum``; then the
scalar tail and the lanes, in order); contiguous outputs sum columns 4 * W at a time
(``vectorized_outer_sum``: multi_row_sum per column) and the remaining columns by
``row_sum`` (the four interleaved accumulators); the scalar paths likewise with 4 columns.
``multi_row_sum`` is a cascade: sequential sums of chunks of ``2**max(4, ceil(log2(n)) // 4)``
elements, themselves summed in chunks on up to four levels. Each step below is that order
as NumPy operations over all rows and lanes at once: a sequential sum is a cumulative sum's
last element (``np.cumsum`` adds in order; ``np.sum`` would not).

``W`` is the vector width of PyTorch's kernel: 8 float32 / 4 float64 lanes (256-bit
vectors), measured on x86-64 with AVX-512 (0 differences over 1,156 row sums; 16/8 lanes
differ in 85% of them). float16/bfloat16 accumulate in float32: a vector load is 16 of
them pre-added into 8 float lanes (InnerSumCastLoadPolicy), each partial sum is rounded to
float16 and added into the float16 output (CastStoreAccumulate's ``*out += partial``: c10::Half's
+= takes a Half), rounded again (nansum of two non-adjacent dims: 145 of 2,160 sweep outputs
took the unrounded partial, now 0), and where the two innermost loop
dims are both reduced ``sum_out`` sums a float32 copy instead (should_use_acc_buffer).
Complex sums add their real and imaginary parts in the same order, with half as many lanes
(a vector holds 4 complex64). Reductions of 32,768 elements or more into one output are
split between PyTorch's threads (``two_pass_reduction``), whose count the result depends
on: those keep NumPy's pairwise sum (integer sums are exact in any order). The emulation
costs 10-60 us a call (a few dozen NumPy operations; NumPy's sum: 1-30 us), so, like the
ported elementwise kernels (``raw.PORTED_MAX``), it runs on arrays of up to 65,536
elements (tests, fuzzing, small models); larger ones keep NumPy's sum, within float32
rounding of PyTorch's.
"""
from .._backend import np
from ._specfun import _fma
from .layout import _perm

GRAIN_SIZE = 32768  # aten's internal::GRAIN_SIZE: below it a reduction runs in one thread
MAX_SIZE = 1 << 16  # beyond, NumPy's pairwise sum (speed: Note [Cascade sum])
_WIDTH = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_COMPLEX = (np.dtype(np.complex64), np.dtype(np.complex128))
_plans = {}


def _ceil_log2(n):
    return 0 if n <= 1 else int(n - 1).bit_length()


def _split(x, axis, n, step):
    """x's first n * step elements along ``axis`` as (n, step) there (a view: no copy)."""
    return x[(slice(None),) * axis + (slice(0, n * step),)].reshape(
        x.shape[:axis] + (n, step) + x.shape[axis + 1:])


def _from(x, axis, start):
    return x[(slice(None),) * axis + (slice(start, None),)]


def _seq(a, axis):
    """a[0] + a[1] + ... along ``axis``, one rounding per addition, in order (every such
    axis here is short: a chunk, 2**level_power, or a vector's lanes and tail)."""
    n = a.shape[axis]
    pre = (slice(None),) * axis
    if n == 1:
        return a[pre + (0,)]
    if n > 2 and a.size <= 2048:  # one call (np.cumsum adds in order; np.sum would not)
        return np.cumsum(a, axis=axis)[pre + (n - 1,)]
    s = a[pre + (0,)] + a[pre + (1,)]
    for i in range(2, n):
        np.add(s, a[pre + (i,)], out=s)
    return s


def _seq0(a, axis):
    """0 + a[0] + a[1] + ...: as _seq, and a sum of -0.0s is +0.0 (the accumulator's 0)."""
    if a.shape[axis] == 0:
        return np.zeros(a.shape[:axis] + a.shape[axis + 1:], a.dtype)
    s = _seq(a, axis)
    return s + s.dtype.type(0)


def multi_row_sum(x, axis):
    """aten's multi_row_sum along ``axis`` of x: every other position is a row."""
    size = x.shape[axis]
    step = 1 << max(4, _ceil_log2(size) // 4)
    nc = size // step
    if nc == 0:
        return _seq0(x, axis)
    chunks = _seq0(_split(x, axis, nc, step), axis + 1)            # level 0
    n1 = nc // step
    # the accumulators of levels 0 (the tail), 1, 2 and 3, added in that order at the end;
    # an empty level is an exact 0 there (every sum here starts from +0.0), so it is skipped
    accs = [_from(x, axis, nc * step), _from(chunks, axis, n1 * step)]
    if n1:
        g1 = _seq0(_split(chunks, axis, n1, step), axis + 1)       # level 1's flushes
        n2 = n1 // step
        accs.append(_from(g1, axis, n2 * step))
        if n2:
            accs.append(_seq0(_split(g1, axis, n2, step), axis + 1))
    total = None
    for acc in accs:
        if acc.shape[axis]:
            acc = _seq0(acc, axis)
            total = acc if total is None else total + acc
    return total


def row_sum(x, axis):
    """aten's row_sum along ``axis`` of x: four interleaved multi_row_sums (elements
    i * 4 + k), the tail into the first, then the other three into it."""
    size_ilp = x.shape[axis] // 4
    if size_ilp == 0:  # (the four accumulators stay 0: 0 + the tail, + 0 + 0 + 0)
        return _seq0(x, axis)
    part = multi_row_sum(_split(x, axis, size_ilp, 4), axis)        # 4 at ``axis``
    pre = (slice(None),) * axis
    tail = _from(x, axis, size_ilp * 4)
    if not tail.shape[axis]:
        return ((part[pre + (0,)] + part[pre + (1,)]) + part[pre + (2,)]) + part[pre + (3,)]
    return _seq(np.concatenate((part[pre + (slice(0, 1),)], tail, part[pre + (slice(1, 4),)]),
                               axis=axis), axis)


def _inner_sums(rows, width, vec):
    """vectorized_inner_sum of each row of ``rows`` (R, n), n >= vec: vectors of ``vec``
    elements, ``width`` accumulator lanes (float16/bfloat16: 16 elements loaded into 8
    float32 lanes, by InnerSumCastLoadPolicy: neighbours (0 + v[2i]) + v[2i+1] for float16,
    halves v[i] + v[i+8] for bfloat16)."""
    n_vec = rows.shape[1] // vec
    vectors = _split(rows, 1, n_vec, vec)
    if vec != width:
        vectors = vectors.astype(np.float32)
        if rows.dtype == np.float16:
            vectors = (vectors[..., 0::2] + np.float32(0)) + vectors[..., 1::2]
        else:
            vectors = vectors[..., :width] + vectors[..., width:]
    lanes = row_sum(vectors, 1)                               # (R, width)
    tail = rows[:, n_vec * vec:].astype(lanes.dtype, copy=False)
    # 0 + the scalar tail + each lane, in order
    return _seq0(np.concatenate((tail, lanes), axis=1), 1)


def _iterator_dims(shape, strides, reduced):
    """TensorIterator's loop dims for the reduction: (sizes, output strides, input strides),
    innermost first, after reorder_dimensions (the output, whose reduced dims have stride
    0, decides first: reduced dims innermost) and coalesce_dimensions."""
    nd = len(shape)
    out_strides = [0] * nd
    acc = 1
    for d in reversed(range(nd)):
        if not reduced[d]:
            out_strides[d] = acc
            acc *= shape[d]
    operands = (out_strides, strides)
    perm = _perm(shape, operands, reduction=True)  # innermost first
    sizes = [shape[p] for p in perm]
    sts = [[st[p] for p in perm] for st in operands]
    prev = 0
    for d in range(1, nd):
        if sizes[prev] == 1 or sizes[d] == 1 or all(sizes[prev] * st[prev] == st[d]
                                                   for st in sts):
            if sizes[prev] == 1:
                for st in sts:
                    st[prev] = st[d]
            sizes[prev] *= sizes[d]
        else:
            prev += 1
            if prev != d:
                for st in sts:
                    st[prev] = st[d]
                sizes[prev] = sizes[d]
    n = prev + 1 if nd else 0
    return sizes[:n], sts[0][:n], sts[1][:n], perm


def _plan(shape, strides, axes):
    """What depends only on the geometry: the loop dims, the 2-D path and where each
    partial sum goes."""
    reduced = [d in axes for d in range(len(shape))]
    out_shape = tuple(s for d, s in enumerate(shape) if not reduced[d])
    sizes, ost, ist, perm = _iterator_dims(list(shape), list(strides), reduced)
    # a's dims in the iterator's order, outermost first: reshaped to (calls, rows, reduced)
    # without a copy (the merged dims are adjacent in memory)
    transpose = tuple(reversed(perm))
    two_reduced = len(sizes) >= 2 and ost[0] == 0 and ost[1] == 0
    while len(sizes) < 2:
        sizes, ost, ist = sizes + [1], ost + [0], ist + [0]
    if ost[0] != 0:  # nothing reduced (the reduced dims have size 1): out = 0 + x
        return out_shape, None
    # the partial sums, one per (call, row) in iteration order, and their outputs
    dest = np.zeros(tuple(reversed(sizes[1:])), np.int64)
    for k, d in enumerate(reversed(range(1, len(sizes)))):
        sh = [1] * dest.ndim
        sh[k] = sizes[d]
        dest = dest + (np.arange(sizes[d], dtype=np.int64) * ost[d]).reshape(sh)
    dest = dest.reshape(-1)
    n_out = int(np.prod(out_shape, dtype=np.int64))
    if n_out == len(dest) and (dest == np.arange(n_out)).all():
        gather = None  # each output gets one partial, in order
    else:
        order = np.argsort(dest, kind="stable")
        gather = (order.reshape(n_out, -1), dest[order].reshape(n_out, -1)[:, 0])
    return out_shape, (transpose, sizes, ist, gather, n_out, two_reduced)


def _small_full_sum(values, width, zero):
    """The same order on Python scalars for a full sum of at most 64 contiguous elements
    (fewer than 16 vectors per interleaved accumulator: every multi_row_sum is one
    sequential sum), where NumPy calls would cost more than the arithmetic."""
    n = len(values)
    if n < width:
        seqs, tail = [values], []
    else:
        n_vec = n // width
        seqs = [values[lane:n_vec * width:width] for lane in range(width)]
        tail = values[n_vec * width:]
    lanes = []
    for seq in seqs:  # row_sum: four interleaved accumulators from 0, the tail into the first
        size_ilp = len(seq) // 4
        part = []
        for k in range(4):
            acc = zero
            for v in seq[k:size_ilp * 4:4]:
                acc = acc + v
            part.append(acc)
        acc = part[0]
        for v in seq[size_ilp * 4:]:
            acc = acc + v
        lanes.append(((acc + part[1]) + part[2]) + part[3])
    total = zero
    for v in tail:
        total = total + v
    for v in lanes:
        total = total + v
    return total + zero


def cascade_sum(a, axes, acc_buffer=True):
    """``a.sum(axis=axes)`` (axes: a tuple of distinct dims; all for a full sum) as aten's
    CPU kernel, or None where it is not emulated (Note [Cascade sum]). ``acc_buffer``:
    sum_out's float32 buffer for half types (nansum's kernel has none)."""
    if a.size == 0 or a.size > MAX_SIZE:
        return None
    if a.dtype.kind == "c":  # (complex: the real and imaginary parts in the same order)
        width = _WIDTH.get(np.dtype(a.real.dtype)) // 2
        re = _cascade(a.real, axes, _plan_of(a, axes), width, width, False)
        if re is None:
            return None
        out = np.empty(re.shape, a.dtype)
        out.real = re
        out.imag = _cascade(a.imag, axes, _plan_of(a, axes), width, width, False)
        return out
    half = a.itemsize == 2 and a.dtype.kind in "fV"  # float16, bfloat16: float32 sums
    width = 8 if half else _WIDTH.get(a.dtype)
    if width is None:
        return None
    vec = 16 if half else width  # elements per vector load (Vectorized<scalar_t>::size())
    return _cascade(a, axes, _plan_of(a, axes), width, vec, half, acc_buffer)


def _plan_of(a, axes):
    key = (a.shape, a.strides, axes, a.itemsize)
    plan = _plans.get(key)
    if plan is None:
        item = a.itemsize
        if any(s % item for s in a.strides):
            return None
        plan = _plan(a.shape, tuple(s // item for s in a.strides), axes)
        if len(_plans) > 4096:
            _plans.clear()
        _plans[key] = plan
    return plan


def _cascade(a, axes, plan, width, vec, half, acc_buffer=True):
    """The sum of ``a`` (a float array; complex: one of its parts) by ``plan``, the
    geometry of the summed tensor."""
    if plan is None:
        return None
    if not half and a.size <= 64 and len(axes) == a.ndim and a.flags.c_contiguous:
        zero = a.dtype.type(0)
        return np.asarray(_small_full_sum(list(a.reshape(-1)), width, zero), a.dtype)
    out_shape, loop = plan
    if loop is None:
        if half:  # (float16 + float16: in float32, rounded)
            return np.reshape((a.astype(np.float32) + np.float32(0)).astype(a.dtype), out_shape)
        return np.reshape(a + a.dtype.type(0), out_shape)
    transpose, sizes, ist, gather, n_out, two_reduced = loop
    if n_out == 1 and a.size >= GRAIN_SIZE:
        return None  # (split between threads: Note [Cascade sum])
    if half and two_reduced and acc_buffer:
        # (sum_out's should_use_acc_buffer: the float32 sum, rounded)
        out = cascade_sum(a.astype(np.float32), axes)
        return None if out is None else out.astype(a.dtype)
    size0, size1 = sizes[0], sizes[1]
    block = a.transpose(transpose).reshape((-1, size1, size0))  # (calls, rows, reduced)
    s0, s1 = ist[0], ist[1]
    if s0 == 1 and size0 >= vec:  # vectorized_inner_sum
        parts = _inner_sums(block.reshape(-1, size0), width, vec)
    else:
        if half:
            block = block.astype(np.float32)
        if s1 == 1 and size1 >= vec:  # vectorized_outer_sum
            split = (size1 // (4 * width)) * 4 * width
        elif s0 < s1:  # scalar_inner_sum
            split = 0
        else:  # scalar_outer_sum
            split = (size1 // 4) * 4
        if split == size1:
            parts = multi_row_sum(block, 2)
        elif split == 0:
            parts = row_sum(block, 2)
        else:
            parts = np.concatenate((multi_row_sum(block[:, :split], 2),
                                    row_sum(block[:, split:], 2)), axis=1)
        parts = parts.reshape(-1)
    if gather is None:
        out = parts + parts.dtype.type(0)  # (out = 0 + partial)
        if half:
            out = out.astype(a.dtype)
    else:
        order, first = gather
        out = np.empty(n_out, a.dtype)
        grouped = parts.reshape(-1)[order]
        if half:  # (CastStoreAccumulate: *out += partial, Half's += of a Half: the
            # partial rounded to float16, added in float32, rounded again)
            grouped = grouped.astype(a.dtype).astype(np.float32)
            acc = np.zeros(n_out, a.dtype)
            for k in range(grouped.shape[1]):
                acc = (acc.astype(np.float32) + grouped[:, k]).astype(a.dtype)
            out[first] = acc
        else:
            out[first] = _seq0(grouped, 1)
    return out.reshape(out_shape)


def sum_array(a, axis=None, keepdims=False, acc_buffer=True):
    """``np.sum(a, axis, keepdims=keepdims)`` in PyTorch's order where it is emulated
    (floating and complex: Note [Cascade sum]), NumPy's elsewhere (float16 and
    bfloat16 summed in float32 there, the result in their dtype)."""
    half = a.itemsize == 2 and a.dtype.kind in "fV"
    if half or a.dtype in _WIDTH or a.dtype in _COMPLEX:
        nd = a.ndim
        if axis is None:
            axes = tuple(range(nd))
        elif axis.__class__ is int:
            axes = (axis % nd if nd else 0,)
        else:
            axes = tuple(sorted({d % nd for d in axis})) if nd else ()
        out = cascade_sum(a, axes, acc_buffer) if nd or not axes else None
        if out is not None:
            if keepdims:
                out = out.reshape(tuple(1 if d in axes else s for d, s in enumerate(a.shape)))
            # (a new array, as np.sum's, not a view of the kernel's buffer: autograd.grad
            # hands out a raw gradient that is a view as one, Note [Gradients that are views])
            return out if out.base is None else out.copy()
    if half:
        return np.sum(a.astype(np.float32), axis=axis, keepdims=keepdims).astype(a.dtype)
    return np.sum(a, axis=axis, keepdims=keepdims)


def mean_array(a, axis=None, keepdims=False):
    """PyTorch's CPU mean: the sum, then divided by the number of elements summed (complex:
    NumPy's complex division is c10::complex's, a product by the reciprocal here; float16
    and bfloat16: in float32, then cast, as ATen's mean_out: the tangent of a mean runs this
    on the tangent itself, and NumPy's bfloat16 mean of [-0.0] is -0.0, PyTorch's +0.0)."""
    if a.itemsize == 2 and a.dtype.kind in "fV":
        return mean_array(a.astype(np.float32), axis, keepdims).astype(a.dtype)
    if a.dtype not in _WIDTH and a.dtype not in _COMPLEX:
        return np.mean(a, axis=axis, keepdims=keepdims)
    s = sum_array(a, axis, keepdims)
    n = a.size // max(s.size, 1) if a.size else (
        int(np.prod([a.shape[d] for d in ((axis,) if axis.__class__ is int else axis)]))
        if axis is not None else 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.true_divide(s, n, dtype=a.dtype)


# Note [2-norm order]
# ~~~~~~~~~~~~~~~~~~~
# aten's 2-norm (linalg_vector_norm, ord 2) of a float32, float64 or bfloat16 tensor whose
# reduced dims merge into one contiguous row (``is_reduce_lastdim``) reads the row as vectors
# (4 float64 / 8 float32 lanes; bfloat16: 16 elements, two float vectors, one after the other)
# and adds each lane's squares in order (``acc_vec += data * data``: the product rounded, no
# fused multiply-add); then the lanes in order, then the scalar tail, which the compiler
# fuses: ``fma(x, x, acc)``, except that a float32 tail of 4 to 7 elements adds its first
# four unfused. Other layouts and float16 take ``binary_kernel_reduce``: one sequential sum of
# rounded squares per output, in the iterator's order (float16/bfloat16 in float32).
# Measured against PyTorch 2.13 on x86-64 (AVX-512 machine, AVX2 kernels): 0 differences
# in 40,000 row norms of 1 to 257 elements per dtype, where NumPy's pairwise sum differed
# in ~25%.
_NORM_LANES = {np.dtype(np.float32): (8, 8), np.dtype(np.float64): (4, 4)}


def norm_two_sum(a, axes):
    """The sum of squares aten's 2-norm takes the square root of (Note [2-norm order]), as
    an array over the kept dims in a's order (float32 for float16/bfloat16), or None where
    the order is not emulated (the threaded split of a large reduction into one output)."""
    half = a.itemsize == 2 and a.dtype.kind in "fV"
    lanes, vec = (8, 16) if half else _NORM_LANES.get(a.dtype, (None, None))
    item = a.itemsize
    if lanes is None or a.size == 0 or any(s % item for s in a.strides):
        return None
    nd = a.ndim
    reduced = [d in axes for d in range(nd)]
    _, ost, ist, perm = _iterator_dims(list(a.shape), [s // item for s in a.strides],
                                       reduced)
    order = [p for p in reversed(perm) if reduced[p]]  # outermost reduced dim first
    kept = [d for d in range(nd) if not reduced[d]]
    n = int(np.prod([a.shape[d] for d in axes], dtype=np.int64))
    acc_type = np.float32 if half else a.dtype
    rows = np.transpose(a, kept + order).reshape(-1, n).astype(acc_type)
    out_shape = tuple(a.shape[d] for d in kept)
    lastdim = sum(1 for s in ost if s == 0) == 1 and ost[0] == 0 and ist[0] == 1 and \
        not (a.dtype == np.float16)
    if not lastdim:
        if n * rows.shape[0] >= GRAIN_SIZE and rows.shape[0] == 1:
            return None
        return np.cumsum(rows * rows, axis=1)[:, -1].reshape(out_shape)
    n_vec = n - n % vec
    sq = rows[:, :n_vec] * rows[:, :n_vec]
    acc = np.cumsum(sq.reshape(len(rows), -1, lanes), axis=1)[:, -1] if n_vec else \
        np.zeros((len(rows), lanes), acc_type)
    total = _seq(acc, 1)
    tail = n - n_vec
    unfused = 4 if a.dtype == np.float32 and tail >= 4 else 0
    for k in range(n_vec, n):
        x = rows[:, k]
        total = total + x * x if k - n_vec < unfused else _fma(x, x, total)
    return total.reshape(out_shape)


def reduce_rows(a, axes):
    """a's reduced elements as rows (kept elements, n), each row in the order aten's
    ``binary_kernel_reduce`` visits it (TensorIterator's dims, innermost = fastest), and the
    kept dims' shape in a's order; None where the strides are not whole elements. One
    thread's order: reductions of GRAIN_SIZE elements or more into one output are split
    between threads (callers keep NumPy's there)."""
    item = a.itemsize
    if any(s % item for s in a.strides):
        return None
    nd = a.ndim
    reduced = [d in axes for d in range(nd)]
    perm = _iterator_dims(list(a.shape), [s // item for s in a.strides], reduced)[3]
    order = [p for p in reversed(perm) if reduced[p]]  # outermost reduced dim first
    kept = [d for d in range(nd) if not reduced[d]]
    n = int(np.prod([a.shape[d] for d in axes], dtype=np.int64))
    return np.transpose(a, kept + order).reshape(-1, n), tuple(a.shape[d] for d in kept)
