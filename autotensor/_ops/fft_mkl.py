"""MKL's DFT steps for short signals that hold an inf or a nan, where pocketfft's order of
operations gives another nan pattern (Note [MKL's DFT on non-finite values])."""
import math

from .._backend import np

# Note [MKL's DFT on non-finite values]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# pocketfft and MKL compute the same sums in different orders; on finite values that is a
# rounding difference (6e-16 relative in float64), but where an inf meets an exact zero
# (inf * 0) or another inf (inf - inf) one library makes a nan where the other keeps the
# inf: fft of [1.764, 0.4, -inf, 1.764, 0.4, -inf] is +inf at 2 and 4 in PyTorch, nan in
# pocketfft. Fitted to PyTorch's CPU build on random signals with 1 to n/2 infs and nans
# (tests/fuzz/fft_mkl_sweep.py), MKL's transforms of up to 64 points are:
# - codelets (``_PLANS``, ``full`` False): a prime size is one butterfly over symmetric
#   pairs (``_odd``, pocketfft's too); sizes with coprime factors (6, 10, 12, 14, 15) are
#   prime-factor transforms (Good-Thomas: index maps, no twiddles); 8, 9, 16, 21, 25, 27, 32
#   are Cooley-Tukey whose twiddle products leave out the exactly-zero parts of the constant
#   (w = 1 is no product, w = -i a swap);
# - other even sizes (18, 20, ..., 30, 34, ..., 62): decimation in time by the largest odd
#   prime r: r codelets of n / r points, then twiddles multiplied in full, w^0 = 1 included
#   for every strand but the first ((inf, y) * (1, 0) has a nan imaginary part), then radix
#   r; 64 is 8 x 8 so; odd composites from 33 decimation in time by their smallest prime
#   over a codelet, twiddles without their zero parts; 36, 45, 50, 60 not fitted;
# - single precision: the same, but the 16-point codelet multiplies w^0 in full in strand 1
#   and w^4 = -i in strand 2 (fitted slot by slot), and 2 p from 34 is decimation in
#   frequency by 2 (``_SINGLE_PLANS``);
# - double precision in a multi-dimensional descriptor or under 1/sqrt(n) scaling ("ortho";
#   1/n keeps the kernels above): other kernels for 9, 10, 13 and 17 up (``_OTHER_PLANS``):
#   the primes are Rader's algorithm (``_rader``: any inf but x_0 makes every X_k but X_0
#   nan), sizes with coprime factors prime-factor transforms over their smallest coprime
#   split (20 = 4 x 5, 48 = 3 x 16, ...), some not fitted (``_DOUBLE_OTHER``);
# - real input (r2c) and real output (c2r): up to 16 points the complex codelet on the
#   zero-imaginary (Hermitian-extended, imaginary parts of X_0 and X_n/2 dropped) signal;
#   even sizes from 18 the n/2-point complex transform of x[0::2] + i x[1::2] with the
#   usual post-processing (pre-processing for c2r), X_0, X_n/2 and X_n/4 formed without
#   twiddles (to 62), the same kernels under "ortho"; odd sizes from 9 (where pocketfft's
#   nan patterns already agree), 32 and 64 not fitted (``_REAL``);
# - over several dims: one dim after the other (both orders agree), an r2c's last dim
#   first and a c2r's last; the c2c over an r2c's other dims keeps the 1-d kernels, the
#   c2c before a c2r takes the others under "ortho" or over more than one dim (as if each
#   were a descriptor of its own, the scale on the c2c's).
# Only the signals holding a non-finite value are recomputed (finite ones keep pocketfft,
# whose values agree to rounding); the rest keep pocketfft's nan patterns.

_L = ("leaf",)
_PLANS = {n: _L for n in (1, 2, 3, 4, 5, 7, 11, 13, 17, 19, 23, 29, 31)}
_P8 = ("dit", 2, _L, False)
_P9 = ("dit", 3, _L, False)


def _pfa(r, m, plan_r=_L, plan_m=None):
    return ("pfa", r, m, plan_r, plan_m or _PLANS.get(m, _L))


_PLANS.update({6: _pfa(2, 3), 8: _P8, 9: _P9, 10: _pfa(2, 5), 12: _pfa(3, 4), 14: _pfa(2, 7),
               15: _pfa(3, 5), 16: ("dit", 4, _L, False), 18: ("dit", 3, _pfa(2, 3), True),
               20: ("dit", 5, _L, True), 21: ("dit", 3, _L, False), 22: ("dit", 11, _L, True),
               24: ("dit", 3, _P8, True), 25: ("dit", 5, _L, False), 26: ("dit", 13, _L, True),
               27: ("dit", 3, _P9, False), 28: ("dit", 7, _L, True),
               30: ("dit", 5, _pfa(2, 3), True), 32: ("dif", 4, _P8, False)})
# 33 to 64: primes a butterfly, odd composites "dit" by their smallest prime over a
# codelet, even sizes decimation in time by the largest odd prime (or 8 for 64) in full
_PLANS.update({n: _L for n in (37, 41, 43, 47, 53, 59, 61)})
_PLANS.update({n: ("dit", p, _PLANS[n // p], False) for n, p in
               ((33, 3), (35, 5), (39, 3), (49, 7), (51, 3), (55, 5), (57, 3), (63, 3))})
_PLANS.update({n: ("dit", p, _PLANS[n // p], True) for n, p in
               ((34, 17), (38, 19), (40, 5), (42, 7), (44, 11), (46, 23), (48, 3), (52, 13),
                (56, 7), (58, 29), (62, 31))})
_PLANS.update({54: ("dit", 3, ("dit", 3, _pfa(2, 3), True), True),
               64: ("dit", 8, _P8, True, _P8)})
# single precision's 16-point codelet multiplies w^0 in full in strand 1 and w^4 = -i in
# strand 2 (fitted slot by slot), 2 p from 34 is decimation in frequency by 2 over the
# p-point butterfly; its transforms of these sizes are not fitted (40 and 56
# take float64's plans, which match 91-97% of the sweep's rows), nor its real transforms
# of 24, 40, 48, 56
_SINGLE_PLANS = {16: ("dit", 4, _L, frozenset({(1, 0), (2, 2)}))}
_SINGLE_PLANS.update({n: ("dif", 2, _L, False) for n in (34, 38, 46, 58, 62)})
_SINGLE_UNFITTED = (24, 32, 48, 53, 59, 61, 64)
_REAL = set(range(1, 17)) - {9} | {18, 20, 22, 24, 26, 28, 30} | set(range(34, 63, 2))
_REAL_SINGLE_UNFITTED = (24, 40, 48, 56)
# double-precision sizes whose kernel is another one in multi-dimensional descriptors and
# under 1/sqrt(n) scaling ("ortho"): Rader's algorithm for the primes from 13,
# prime-factor transforms for the composite sizes with coprime factors; 17 and the sizes
# with a factor 13 or 17 match 94-99% of the rows of the sweep (17's 16-point convolution
# and the inner 13 are not quite MKL's), 9, 10, 18, 25, 27, 35, 36, 37, 45, 49, 50, 54,
# 60, 61, 63, 64 are not fitted
_DOUBLE_OTHER = {9, 10, 13} | set(range(17, 32)) | set(range(33, 65))
_R = ("rader",)
_OTHER_PLANS = {n: _R for n in (13, 17, 19, 23, 29, 31, 41, 43, 47, 53, 59)}
_OTHER_PLANS.update({20: _pfa(4, 5), 21: _pfa(3, 7), 22: _pfa(2, 11), 24: _pfa(3, 8),
                     26: _pfa(2, 13, _L, _R), 28: _pfa(4, 7), 30: _pfa(2, 15),
                     33: _pfa(3, 11), 34: _pfa(2, 17, _L, _R), 38: _pfa(2, 19, _L, _R),
                     39: _pfa(3, 13, _L, _R), 40: _pfa(5, 8), 42: _pfa(2, 21, _L, _pfa(3, 7)),
                     44: _pfa(4, 11), 46: _pfa(2, 23, _L, _R), 48: _pfa(3, 16),
                     51: _pfa(3, 17, _L, _R), 52: _pfa(4, 13, _L, _R), 55: _pfa(5, 11),
                     56: _pfa(7, 8), 57: _pfa(3, 19, _L, _R), 58: _pfa(2, 29, _L, _R),
                     62: _pfa(2, 31, _L, _R)})


# ---- complex arithmetic on (re, im) pairs of row vectors --------------------------------------
def _add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def _twiddle(n, e, sign):
    """w_n^e (w = exp(sign 2 pi i / n)), exact at quarter turns."""
    e %= n
    if (4 * e) % n == 0:
        return ((1.0, 0.0), (0.0, float(sign)), (-1.0, 0.0), (0.0, -float(sign)))[4 * e // n]
    a = 2 * math.pi * e / n
    return (math.cos(a), sign * math.sin(a))


def _mul(x, c, full):
    """x * c for a constant c: in full, or leaving out the products by c's zero parts."""
    (xr, xi), (cr, ci) = x, c
    if full:
        return (xr * cr - xi * ci, xr * ci + xi * cr)

    def part(a, ka, b, kb):  # a ka + b kb
        if kb == 0:
            return a * ka if ka else np.zeros_like(a)
        return b * kb if ka == 0 else a * ka + b * kb
    return (part(xr, cr, xi, -ci), part(xr, ci, xi, cr))


def _butterfly(c, sign):
    """A codelet of prime size (or 4): pocketfft's and MKL's order of additions."""
    p = len(c)
    if p == 1:
        return [c[0]]
    if p == 2:
        return [_add(c[0], c[1]), _sub(c[0], c[1])]
    if p == 4:
        t2, t1 = _add(c[0], c[2]), _sub(c[0], c[2])
        t3, t4 = _add(c[1], c[3]), _sub(c[1], c[3])
        t4 = (t4[1], -t4[0]) if sign < 0 else (-t4[1], t4[0])
        return [_add(t2, t3), _add(t1, t4), _sub(t2, t3), _sub(t1, t4)]
    return _odd(c, sign)


def _odd(c, sign):
    """Odd size p: sums and differences of the pairs (k, p - k), the cosine terms added to
    c[0] left to right, the sine terms to each other."""
    p = len(c)
    h = (p - 1) // 2
    s = [None] + [_add(c[k], c[p - k]) for k in range(1, h + 1)]
    d = [None] + [_sub(c[k], c[p - k]) for k in range(1, h + 1)]
    y = [None] * p
    r0, i0 = c[0]
    for k in range(1, h + 1):
        r0, i0 = r0 + s[k][0], i0 + s[k][1]
    y[0] = (r0, i0)
    for m in range(1, h + 1):
        (ar, ai), br, bi = c[0], None, None
        for k in range(1, h + 1):
            a = 2 * math.pi * ((m * k) % p) / p
            cs, sn = math.cos(a), sign * math.sin(a)
            ar, ai = ar + cs * s[k][0], ai + cs * s[k][1]
            bi = sn * d[k][0] if bi is None else bi + sn * d[k][0]
            br = sn * d[k][1] if br is None else br + sn * d[k][1]
        b = (-br, bi)
        y[m], y[p - m] = _add((ar, ai), b), _sub((ar, ai), b)
    return y


def _twiddled(v, n, s, k, full, sign):
    """v w^(s k): in full where ``full`` says so (True: every strand s > 0, w^0 included;
    a set: its (s, k) slots), else without the products by zero parts (none for w^0)."""
    f = (s, k) in full if isinstance(full, frozenset) else bool(full and s)
    if not f and s * k % n == 0:
        return v
    return _mul(v, _twiddle(n, s * k, sign), f)


def _run(plan, x, sign):
    """The transform of the columns ``x`` (a list of n (re, im) pairs) by ``plan``."""
    n = len(x)
    kind = plan[0]
    if kind == "leaf":
        return _butterfly(x, sign)
    if kind == "rader":
        return _rader(x, sign)
    if kind == "pfa":  # Good-Thomas: x[(j1 m + j2 r) % n], X[k] at (k % r, k % m)
        r, m, plan_r, plan_m = plan[1:]
        cols = [_run(plan_r, [x[(j1 * m + j2 * r) % n] for j1 in range(r)], sign)
                for j2 in range(m)]
        rows = [_run(plan_m, [cols[j2][k1] for j2 in range(m)], sign) for k1 in range(r)]
        return [rows[k % r][k % m] for k in range(n)]
    r, sub, full = plan[1], plan[2], plan[3]
    radix = plan[4] if len(plan) > 4 else _L
    m = n // r
    out = [None] * n
    if kind == "dit":  # r transforms of x[s::r], twiddles, radix r
        ys = [_run(sub, x[s::r], sign) for s in range(r)]
        for k in range(m):
            col = [_twiddled(ys[s][k], n, s, k, full, sign) for s in range(r)]
            for q, v in enumerate(_run(radix, col, sign)):
                out[k + m * q] = v
        return out
    z = [[None] * m for _ in range(r)]  # "dif": radix r on x[j + m s], twiddles, transforms
    for j in range(m):
        for q, v in enumerate(_run(radix, [x[j + m * s] for s in range(r)], sign)):
            z[q][j] = v if j * q % n == 0 else _mul(v, _twiddle(n, j * q, sign), full)
    for q in range(r):
        for k, v in enumerate(_run(sub, z[q], sign)):
            out[q + r * k] = v
    return out


def _rader(x, sign):
    """Rader's prime-size transform: X_0 the sum; X_g^-p = x_0 + (a * b)_p, the cyclic
    convolution of a_q = x_g^q with b_q = w^(g^-q) through (n - 1)-point transforms."""
    n = len(x)
    m = n - 1
    g = next(g for g in range(2, n) if len({pow(g, q, n) for q in range(m)}) == m)
    gi = pow(g, n - 2, n)
    b = np.exp(sign * 2j * np.pi * np.array([pow(gi, q, n) for q in range(m)]) / n)
    bf = np.fft.fft(b) / m
    a = _run(_PLANS[m], [x[pow(g, q, n)] for q in range(m)], -1)
    c = _run(_PLANS[m], [_mul(a[k], (bf[k].real, bf[k].imag), True) for k in range(m)], 1)
    out = [None] * n
    re, im = x[0]
    for j in range(1, n):
        re, im = re + x[j][0], im + x[j][1]
    out[0] = (re, im)
    for p in range(m):
        out[pow(gi, p, n)] = _add(x[0], c[p])
    return out


# ---- row selection ---------------------------------------------------------------------------
def _columns(a):
    """(re, im) pairs of the columns of a 2-d complex array (or a real one: zero im)."""
    if a.dtype.kind == "c":
        return [(a[:, j].real.copy(), a[:, j].imag.copy()) for j in range(a.shape[1])]
    return [(a[:, j].copy(), np.zeros_like(a[:, j])) for j in range(a.shape[1])]


def _assemble(cols, dtype, scale):
    out = np.empty((len(cols[0][0]), len(cols)), dtype=dtype)
    rdt = out.real.dtype.type
    for k, (re, im) in enumerate(cols):
        out[:, k].real, out[:, k].imag = re * rdt(scale), im * rdt(scale)
    return out


def _single(dtype):
    return dtype in (np.complex64, np.float32)


def _fitted(n, dtype):
    return n in _PLANS and not (n in _SINGLE_UNFITTED and _single(dtype))


def _real_fitted(n, dtype):
    """(Real transforms keep their kernels in "ortho" and multi-dimensional descriptors.)"""
    return n in _REAL and not (n in _REAL_SINGLE_UNFITTED and _single(dtype))


def _scale(normalization, n):
    """aten's normalization factor (code 0: none, 1: 1/sqrt(n), 2: 1/n)."""
    return (1.0, 1.0 / math.sqrt(n), 1.0 / n)[normalization]


def _c2c_last(a, sign, plans):
    """MKL's steps along the last axis of complex array ``a``."""
    flat = a.reshape(-1, a.shape[-1])
    res = _assemble(_run(plans[a.shape[-1]], _columns(flat), sign), a.dtype, 1.0)
    return res.reshape(a.shape)


def _c2c_axes(block, axes, sign, plans):
    for axis in reversed(axes):
        block = np.moveaxis(_c2c_last(np.moveaxis(block, axis, -1), sign, plans), -1, axis)
    return block


def _plans(dtype, sizes, other):
    """The c2c plans for these sizes (``other``: in a multi-dimensional or 1/sqrt(n)-scaled
    descriptor), or None where a size is not fitted."""
    plans = {**_PLANS, **_SINGLE_PLANS} if _single(dtype) else _PLANS
    if other and not _single(dtype):
        plans = {**_PLANS, **_OTHER_PLANS}
        if set(sizes) & (_DOUBLE_OTHER - set(_OTHER_PLANS)):
            return None
    return plans if all(_fitted(n, dtype) for n in sizes) else None


def _signals(x, out, dims, overflow=False):
    """(x with ``dims`` last, mask over the other dims of the signals holding an inf or a
    nan, or with ``overflow`` of those whose ``out`` is not finite)."""
    last = list(range(-len(dims), 0))
    xm = np.moveaxis(x, dims, last)
    probe = np.moveaxis(out, dims, last) if overflow else xm
    return xm, ~np.isfinite(probe).all(axis=tuple(last))


def _scaled(block, scale):
    if block.dtype.kind != "c":
        return block * block.dtype.type(scale)
    rdt = block.real.dtype.type
    res = np.empty_like(block)
    res.real, res.imag = block.real * rdt(scale), block.imag * rdt(scale)
    return res


def c2c(x, out, dims, forward, normalization, overflow=False):
    """``out`` (pocketfft's c2c of x over ``dims``) with the signals that hold an inf or a
    nan recomputed by MKL's steps (Note [MKL's DFT on non-finite values]); over several
    dims, one dim after the other. ``overflow``: those whose single-precision ``out``
    overflowed instead, or None where a size is not fitted (Note [MKL's single-precision
    DFT near overflow])."""
    sizes = [x.shape[d] for d in dims]
    plans = _plans(x.dtype, sizes, len(dims) > 1 or normalization == 1)
    if overflow and (set(sizes) & _SCALED_OVERFLOW_UNFITTED.get(normalization, set()) or
                     len(dims) > 1 and normalization):
        plans = None
    if plans is None:
        return None if overflow else out
    if not overflow and np.isfinite(x).all():
        return out
    xm, bad = _signals(x, out, dims, overflow)
    with np.errstate(all="ignore"):
        block = _c2c_axes(xm[bad], range(1, len(dims) + 1), -1 if forward else 1, plans)
        np.moveaxis(out, dims, range(-len(dims), 0))[bad] = \
            _scaled(block, _scale(normalization, math.prod(sizes)))
    return out


def _r2c_last(x):
    """MKL's one-sided r2c along the last axis of real array ``x`` (unscaled)."""
    n = x.shape[-1]
    h = n // 2
    flat = x.reshape(-1, n)
    if n <= 16:
        cols = _run(_PLANS[n], _columns(flat), -1)[:h + 1]
    else:
        z = [(flat[:, 2 * j].copy(), flat[:, 2 * j + 1].copy()) for j in range(h)]
        cols = _unpack(_run(_PLANS[h], z, -1), n)
    return _assemble(cols, _complex(x.dtype), 1.0).reshape(x.shape[:-1] + (h + 1,))


def _complex(dtype):
    return np.complex64 if _single(dtype) else np.complex128


def r2c(x, out, dims, normalization, overflow=False):
    """``out`` (the one-sided r2c of real x over ``dims``, the last one halved) with MKL's
    steps in the signals that hold an inf or a nan (``overflow``: as ``c2c``'s): the r2c
    over the last dim, then c2c over the others."""
    sizes = [x.shape[d] for d in dims]
    plans = _plans(x.dtype, sizes[:-1], False)
    if plans is None or not _real_fitted(sizes[-1], x.dtype) or \
            (overflow and (sizes[-1] == 6 or normalization == 2)):
        return None if overflow else out
    if not overflow and np.isfinite(x).all():
        return out
    xm, bad = _signals(x, out, dims, overflow)
    with np.errstate(all="ignore"):
        block = _c2c_axes(_r2c_last(xm[bad]), range(1, len(dims)), -1, plans)
        np.moveaxis(out, dims, range(-len(dims), 0))[bad] = \
            _scaled(block, _scale(normalization, math.prod(sizes)))
    return out


def _unpack(z, n):
    """X_k of a real signal from Z (the transform of x[0::2] + i x[1::2]):
    (Z_k + conj Z_h-k) / 2 - i w^k (Z_k - conj Z_h-k) / 2, k = 0 .. h."""
    h = n // 2
    out = []
    for k in range(h + 1):
        if k in (0, h):
            re, im = z[0]
            out.append((re + im if k == 0 else re - im, np.zeros_like(re)))
            continue
        if 2 * k == h:
            out.append((z[k][0], -z[k][1]))
            continue
        a, b = z[k], (z[h - k][0], -z[h - k][1])
        s, d = _add(a, b), _sub(a, b)
        wd = _mul(d, _twiddle(n, k, -1), True)
        out.append((0.5 * (s[0] + wd[1]), 0.5 * (s[1] - wd[0])))
    return out


def _c2r_last(x, n, scale=1.0, by_n=False, finite=False):
    """MKL's c2r (n points) along the last axis of the one-sided complex ``x``, scaled
    after, or (``by_n``: scaled by 1/n) where single precision's codelet scales; ``finite``
    (signals that overflowed): single precision's kernels of a batch."""
    h = n // 2
    cols = _columns(x.reshape(-1, x.shape[-1]))
    if by_n and n in _C2R_SINGLE and _single(x.dtype):
        res = _c2r_single(cols, n, scale, _C2R_SINGLE[n])
        scale = 1.0
    elif finite and not by_n and n in _C2R_PAIRS and _single(x.dtype):
        res = _c2r_pairs(cols, n)
    elif n <= 16:
        zero = np.zeros_like(cols[0][1])
        full = [(cols[0][0], zero)] + cols[1:n - h] + \
               ([(cols[h][0], zero)] if n % 2 == 0 else []) + \
               [(cols[n - k][0], -cols[n - k][1]) for k in range(h + 1, n)]
        res = [re for re, _ in _run(_PLANS[n], full, 1)]
    else:
        res = [None] * n
        for j, (re, im) in enumerate(_run(_PLANS[h], _pack(cols, n), 1)):
            res[2 * j], res[2 * j + 1] = re, im
    return _scaled(np.stack(res, -1).reshape(x.shape[:-1] + (n,)), scale)


def c2r(x, out, dims, normalization, overflow=False):
    """``out`` (the c2r of the one-sided x over ``dims``, n = out's length in the last) with
    MKL's steps in the signals that hold an inf or a nan (``overflow``: as ``c2c``'s): c2c
    over all dims but the last, then c2r over the last."""
    sizes = [x.shape[d] for d in dims[:-1]]
    n = out.shape[dims[-1]]
    plans = _plans(x.dtype, sizes, len(dims) > 2 or normalization == 1)
    # a single signal scaled by 1/n: single precision's own c2r codelet
    by_n = normalization == 2 and out.size == math.prod(sizes) * n
    fitted = _C2R_SINGLE if by_n else _C2R_OVERFLOW if normalization != 1 else ()
    if plans is None or not _real_fitted(n, x.dtype) or x.shape[dims[-1]] != n // 2 + 1 \
            or (overflow and (len(dims) > 1 or n not in fitted)):
        return None if overflow else out
    if not overflow and np.isfinite(x).all():
        return out
    xm, bad = _signals(x, out, dims, overflow)
    with np.errstate(all="ignore"):
        np.moveaxis(out, dims, range(-len(dims), 0))[bad] = \
            _c2r_last(_c2c_axes(xm[bad], range(1, len(dims)), 1, plans), n,
                      _scale(normalization, math.prod(sizes) * n), by_n, overflow)
    return out


def _pack(cols, n):
    """Z_k = X_k + conj X_h-k + i w^-k (X_k - conj X_h-k), whose n/2-point inverse is
    x[0::2] + i x[1::2]."""
    h = n // 2
    z = []
    for k in range(h):
        if k == 0:
            a, b = cols[0][0], cols[h][0]
            z.append((a + b, a - b))
            continue
        if 2 * k == h:
            z.append((2 * cols[k][0], -2 * cols[k][1]))
            continue
        a, b = cols[k], (cols[h - k][0], -cols[h - k][1])
        s, d = _add(a, b), _sub(a, b)
        wd = _mul(d, _twiddle(n, k, 1), True)
        z.append((s[0] - wd[1], s[1] + wd[0]))
    return z


# Note [MKL's single-precision DFT near overflow]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# In single precision a sum of finite values near float32's largest (3.4e38, e.g. an inf
# that nan_to_num replaced) can overflow; which outputs come out inf or nan is then set by
# MKL's step order, as for signals holding an inf (Note [MKL's DFT on non-finite values]).
# Fitted to PyTorch's CPU build on random signals of 2 to 16 points with one or two
# entries +-(0.6, 0.9, 1) x 3.4e38 (tests/test_fuzz_fft38_stop38.py; figures in
# tests/fuzz/OPEN_FINDINGS.md, Stop 38):
# - c2c and r2c take the kernels above in float32, the scale (1/n, 1/sqrt(n)) after; not
#   under a scale for 6, 10, 14, 16 (and 2, 4 under 1/sqrt(n): ``_SCALED_OVERFLOW_UNFITTED``)
#   nor over several dims under one, nor r2c by 1/n or of 6 points;
# - c2r of one signal scaled by 1/n (irfft's default) is not the complex codelet on the
#   Hermitian-extended signal but a real one whose products by 2 cos, 2 sin (sqrt 2) are
#   fused into the next addition (fma: the product does not round, so it does not
#   overflow by itself): x_m = (X_0 +- X_n/2) + sum_k 2 cos(2 pi m k / n) Re X_k -
#   sum_k 2 sin(2 pi m k / n) Im X_k, the cosine terms then the sine terms, k from the
#   highest (``_c2r_single``), 8 points radix 2 (``_c2r8``); the 1/n scales the inputs
#   first for odd sizes, 6, 10 and 14, and the sum X_0 +- X_n/2 and the constants for 2, 4
#   and 8 (``_C2R_SINGLE``; [1.764, 3.4e38] round trip at n = 2: (X_0 - X_1) / 2 is inf);
# - MKL's c2r of a batch (several signals in one call), and unscaled, is another kernel,
#   the scale after: the same row gives [inf, nan, nan, -inf] in a batch and
#   [inf, -inf, inf, -inf] alone. For 2, 4, 8, 12, 16 the complex codelet above; for the
#   odd sizes, 6, 10 and 14 per pair (m, n - m) the cosine terms fused into X_0 (+- X_n/2)
#   but products by +-2 rounded first, the sine terms summed apart (the first product
#   rounded: 2 sin Im X_k overflows by itself), then their difference and sum
#   (``_c2r_pairs``; hfft of [-3.4e38, 3.4e38 - 3.4e38i] is [inf, nan, -inf]). The
#   signals holding an inf take the one-signal kernel by 1/n too, but keep stop 35's
#   kernels in a batch (pairs there differ more often).
# The signals whose single-precision result is finite keep pocketfft's (no extra work on
# the usual path); sizes and modes not fitted keep the double-precision recomputation
# (fft.py's Note [Overflow in single-precision DFTs]).
_SCALED_OVERFLOW_UNFITTED = {1: {2, 4, 6, 10, 14, 16}, 2: {6, 10, 14, 16}}
_C2R_SINGLE = {2: "mid", 3: "pre", 4: "mid", 5: "pre", 6: "pre", 7: "pre", 8: "mid",
               10: "pre", 11: "pre", 13: "pre", 14: "pre"}
_C2R_PAIRS = {3, 5, 6, 7, 10, 11, 13, 14, 15}
_C2R_OVERFLOW = {2, 4, 8, 12, 16} | _C2R_PAIRS


def _fma(a, c, b):
    """a c + b rounded once (c a constant, rounded to a's precision first)."""
    dt = a.dtype.type
    return (a.astype(np.float64) * float(dt(c)) + b).astype(dt)


def _c2r_single(cols, n, scale, where):
    """The real outputs of single precision's c2r codelet of n points from the one-sided
    ``cols``, ``scale`` applied "pre" (to the inputs) or "mid" (to X_0 +- X_n/2 and the
    constants) (Note [MKL's single-precision DFT near overflow])."""
    h = n // 2
    dt = cols[0][0].dtype.type
    if where == "pre":
        cols = [(re * dt(scale), im * dt(scale)) for re, im in cols]
    f = scale if where == "mid" else 1.0
    if n == 8:
        res = _c2r8(cols, f)
    else:
        re, im = [c[0] for c in cols], [c[1] for c in cols]
        res = []
        for m in range(n):
            acc = re[0] if n % 2 else (re[0] + re[h] if m % 2 == 0 else re[0] - re[h])
            acc = acc * dt(f) if f != 1.0 else acc
            terms = [(re[k], im[k], _twiddle(n, m * k, 1)) for k in range((n - 1) // 2, 0, -1)]
            for r, _, (c, _) in terms:
                acc = _fma(r, 2 * c * f, acc) if c else acc
            for _, i, (_, s) in terms:
                acc = _fma(i, -2 * s * f, acc) if s else acc
            res.append(acc)
    return res


def _c2r_pairs(cols, n):
    """The real outputs of single precision's c2r of a batch (or unscaled) of n points
    (odd, 6, 10, 14): per pair (m, n - m) the cosine terms fused into X_0 (+- X_n/2), the
    sine terms summed apart (the first product rounded: 2 sin Im X_k can overflow), then
    their sum and difference."""
    h = n // 2
    dt = cols[0][0].dtype.type
    re, im = [c[0] for c in cols], [c[1] for c in cols]
    out = [None] * n
    for m in range(h + 1):
        acc = re[0] if n % 2 else (re[0] + re[h] if m % 2 == 0 else re[0] - re[h])
        b = None
        for k in range((n - 1) // 2, 0, -1):
            c = _twiddle(n, m * k, 1)[0]
            if c in (1.0, -1.0):
                acc = acc + re[k] * dt(2 * c)
            elif c:
                acc = _fma(re[k], 2 * c, acc)
        for k in range((n - 1) // 2, 0, -1):
            s = _twiddle(n, m * k, 1)[1]
            if s:
                b = im[k] * dt(2 * s) if b is None else _fma(im[k], 2 * s, b)
        b = np.zeros_like(acc) if b is None else b
        out[m] = acc - b
        if 0 < m < n - m:
            out[n - m] = acc + b
    return out


def _c2r8(cols, f):
    """8 points: X_0 +- X_4, then +- 2 X_2, then 2 (X_1 +- conj X_3) and sqrt 2 times the
    parts of X_1 - X_3 and X_1 + X_3, each product fused (``f``: a scale after the first
    sums, in the constants)."""
    re, im = [c[0] for c in cols], [c[1] for c in cols]
    a, b = re[0] + re[4], re[0] - re[4]
    if f != 1.0:
        a, b = a * a.dtype.type(f), b * b.dtype.type(f)
    e, f2 = _fma(re[2], 2 * f, a), _fma(re[2], -2 * f, a)
    g, h = _fma(im[2], -2 * f, b), _fma(im[2], 2 * f, b)
    p, q, r, s = re[1] + re[3], im[1] - im[3], re[1] - re[3], im[1] + im[3]
    r2 = math.sqrt(2) * f
    return [_fma(p, 2 * f, e), _fma(s, -r2, _fma(r, r2, g)), _fma(q, -2 * f, f2),
            _fma(s, -r2, _fma(r, -r2, h)), _fma(p, -2 * f, e), _fma(s, r2, _fma(r, -r2, g)),
            _fma(q, 2 * f, f2), _fma(s, r2, _fma(r, r2, h))]
