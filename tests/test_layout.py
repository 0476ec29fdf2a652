"""Result layouts (strides) against PyTorch 2.13 (Note [Result layout] in _ops/layout.py).

Every op_db sample runs with each floating input built non-contiguous (transposed, a
rotated permutation of its dims, sliced with a step along the last or the first dim,
expanded from one row, 4-d ones also channels-last) on both libraries; the results'
strides must agree (results with elements only), and so must whether the call raises.
Samples whose layout is still known to differ are listed in OPEN with the reason
(OPEN_FINDINGS.md, "Stop 21, helper lay6", "Stop 22, helper lay7"): strict xfails, so one
that starts agreeing must leave the list.
"""
import random
import warnings

import numpy as np
import pytest
from op_db import SAMPLES

import autotensor
from autotensor._ops import layout

torch = pytest.importorskip("torch")

OPEN = {}


def _layouts(a):
    """Value-preserving non-contiguous builds of array ``a``: name -> fn(module)."""
    nd = a.ndim
    out = {}
    if nd >= 2:
        out["T"] = lambda m: m.tensor(np.ascontiguousarray(np.swapaxes(a, -1, -2))) \
            .transpose(-1, -2)
    if nd >= 3:
        p = (nd - 1,) + tuple(range(nd - 1))
        inv = tuple(int(i) for i in np.argsort(p))
        out["P"] = lambda m: m.tensor(np.ascontiguousarray(a.transpose(p))).permute(*inv)
    if nd == 4:
        out["CL"] = lambda m: m.tensor(np.ascontiguousarray(a.transpose(0, 2, 3, 1))) \
            .permute(0, 3, 1, 2)
    if nd >= 1 and a.size:
        def last(m):
            big = np.zeros(a.shape[:-1] + (a.shape[-1] * 2,), a.dtype)
            big[..., ::2] = a
            return m.tensor(big)[..., ::2]

        def first(m):
            big = np.zeros((a.shape[0] * 2,) + a.shape[1:], a.dtype)
            big[::2] = a
            return m.tensor(big)[::2]
        out["S"], out["S0"] = last, first
    if nd >= 2 and a.size:
        out["E"] = lambda m: m.tensor(np.ascontiguousarray(a[:1])).expand(*a.shape)
    return out


def _flat(o):
    if isinstance(o, (tuple, list)):
        return [y for x in o for y in _flat(x)]
    return [o]


def _strides(m, sample, which, build):
    ins = []
    for i, a in enumerate(sample.args):
        a = np.asarray(a)
        ins.append(build(m) if i == which else m.tensor(a))
    m.manual_seed(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = sample(m, *ins)
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e).__name__.lstrip("_"))
    return [(tuple(o.shape), tuple(o.stride()) if o.numel() else None)
            for o in _flat(out) if hasattr(o, "stride")]


def _cases(sample):
    for i, a in enumerate(sample.args):
        a = np.asarray(a)
        if a.dtype.kind in "fc":
            for name, build in _layouts(a).items():
                yield i, name, build


def _params():
    for s in SAMPLES:
        if not any(True for _ in _cases(s)):
            continue
        marks = [pytest.mark.xfail(strict=True, reason=OPEN[s.name])] if s.name in OPEN else []
        yield pytest.param(s, id=s.name, marks=marks)


@pytest.mark.parametrize("sample", list(_params()))
def test_result_strides_as_torch(sample):
    bad = []
    for i, name, build in _cases(sample):
        a = _strides(autotensor, sample, i, build)
        t = _strides(torch, sample, i, build)
        if a != t:
            bad.append(f"arg {i} {name}: autotensor {a} torch {t}")
    assert not bad, "\n".join(bad)


def test_open_entries_are_samples():
    names = {s.name for s in SAMPLES}
    assert set(OPEN) <= names


# ---- TensorIterator's and empty_like's rules on random layouts ------------------------
def _random_tensor(rng, shape):
    nd = len(shape)
    kind = rng.choice(["c", "perm", "slice", "expand", "perm", "size1"])
    if kind == "c" or nd == 0:
        return torch.randn(shape, dtype=torch.float64)
    if kind == "perm":
        p = list(range(nd))
        rng.shuffle(p)
        return torch.randn([shape[i] for i in p], dtype=torch.float64).permute(
            *np.argsort(p).tolist())
    if kind == "slice":
        d = rng.randrange(nd)
        big = list(shape)
        big[d] *= 2
        return torch.randn(big, dtype=torch.float64)[
            tuple(slice(None, None, 2) if i == d else slice(None) for i in range(nd))]
    if kind == "expand":
        d = rng.randrange(nd)
        small = list(shape)
        small[d] = 1
        return torch.randn(small, dtype=torch.float64).expand(*shape)
    t = torch.randn(shape, dtype=torch.float64)  # odd strides on the size-1 dims
    st = [s if shape[i] != 1 else rng.choice([1, 7, 100]) for i, s in enumerate(t.stride())]
    return torch.randn(400, dtype=torch.float64).as_strided(shape, st)


def _array_like(t):
    return np.lib.stride_tricks.as_strided(np.zeros(1), tuple(t.shape),
                                           tuple(8 * s for s in t.stride()))


def test_iterator_and_like_rules_match_torch():
    """iter_strides (TensorIterator: fast setup, reorder_dimensions) and like_strides
    (empty_like, preserve_format) against PyTorch's allocations on random layouts."""
    rng = random.Random(8)
    for _ in range(600):
        shape = [rng.choice([1, 2, 3, 4]) for _ in range(rng.randrange(1, 5))]
        ins = []
        for _ in range(rng.choice([1, 2, 2, 3])):
            sh = list(shape)
            if rng.random() < 0.3:
                sh = [1 if rng.random() < 0.4 else s for s in sh]
            if rng.random() < 0.2 and len(sh) > 1:
                sh = sh[1:]
            ins.append(_random_tensor(rng, sh))
        r = (ins[0].exp() if len(ins) == 1 else ins[0] + ins[1] if len(ins) == 2 else
             torch.addcmul(*ins))
        got = layout.iter_strides(tuple(r.shape), [_array_like(t) for t in ins])
        got = layout.c_strides(tuple(r.shape)) if got is None else got
        assert got == tuple(r.stride()), [(tuple(t.shape), t.stride()) for t in ins]
        like = layout.like_strides(_array_like(ins[0]))
        like = layout.c_strides(tuple(ins[0].shape)) if like is None else like
        assert like == tuple(torch.empty_like(ins[0]).stride()), (ins[0].shape, ins[0].stride())


# ---- the fuzz reproducers of this class -------------------------------------------------
def _both(fn):
    out = []
    for m in (autotensor, torch):
        try:
            r = fn(m)
            out.append(("ok", tuple(r.shape), tuple(r.stride()), r.is_contiguous()))
        except RuntimeError as e:
            out.append(("raised", str(e)))
    assert out[0] == out[1]
    return out[0]


def _t(m):
    return m.tensor(np.array([[1.5, 2.0], [0.5, -1.0]], dtype=np.float32)).transpose(0, 1)


def test_softmax_of_transposed_is_contiguous():  # pending_stop20/end_repro_006
    assert _both(lambda m: _t(m).softmax(0).view(-1))[0] == "ok"


def test_keepdim_false_reduction_of_permuted_is_contiguous():  # pending_stop21/repro_016
    def f(m):
        x = m.tensor(np.arange(4.0, dtype=np.float32).reshape(2, 2, 1)).transpose(0, 1)
        return x.sum(2, keepdim=False).view(-1)
    assert _both(f)[0] == "ok"


def test_kron_of_transposed_raises_as_torch():  # pending_stop21/repro_013
    assert _both(lambda m: _t(m).diff(0, 0).kron(m.ones(2)))[0] == "raised"


@pytest.mark.parametrize("expr", [
    "x + 1", "x * x", "x.exp()", "x.clone()", "x.flip(0)", "x.cumsum(0)", "x.roll(1, 0)",
    "x.sort(0)[0]", "m.nn.functional.gelu(x)", "x.erfinv()", "x.digamma()", "x.log_softmax(1)",
    "m.zeros_like(x)", "m.full_like(x, 2.0)", "x.to(m.float64)", "x.contiguous()",
    "x.reshape(-1)", "x.renorm(2, 0, 1.0)", "m.where(x > 0, x, x.t().contiguous())",
    "m.rsub(x, x.t().contiguous())", "x.logcumsumexp(1)", "x.cumprod(1)"])
def test_transposed_input(expr):
    def f(m):
        x = m.tensor(np.array([[0.25, 0.5, 0.125], [0.75, -0.5, 0.375], [0.3, 0.2, 0.1]]))
        return eval(expr, {"m": m, "x": x.t()})
    _both(f)


# ---- tensor() of a NumPy array keeps its layout (tensor_from_numpy, then a copy) --------
@pytest.mark.parametrize("expr", [
    "np.arange(6.0).reshape(2, 3).T", "np.arange(24.0).reshape(2, 3, 4).transpose(1, 2, 0)",
    "np.arange(12.0).reshape(3, 4)[:, ::2]", "np.broadcast_to(np.arange(3.0), (2, 3))",
    "np.ascontiguousarray(np.zeros((1, 1, 3, 4)).transpose(0, 2, 3, 1))",
    "np.arange(6, dtype=np.int32).reshape(2, 3).T"])
def test_tensor_of_array_keeps_its_layout(expr):
    for make in ("tensor", "as_tensor"):
        arr = eval(expr)
        a, t = getattr(autotensor, make)(arr), getattr(torch, make)(arr)
        assert a.stride() == t.stride(), (make, a.stride(), t.stride())
    a = autotensor.tensor(arr, dtype=autotensor.float32)
    assert a.stride() == torch.tensor(arr, dtype=torch.float32).stride()


@pytest.mark.parametrize("make", ["tensor", "as_tensor", "from_numpy"])
def test_negative_strides_refused_as_torch(make):
    arr = np.arange(6.0).reshape(2, 3)[:, ::-1]
    msgs = []
    for m in (autotensor, torch):
        with pytest.raises(ValueError) as info:
            getattr(m, make)(arr)
        msgs.append(str(info.value))
    assert msgs[0] == msgs[1]


# ---- FFT layouts: MKL's _exec_fft (layout.fft_c2c / fft_r2c / fft_c2r) ----------------------
_FFT_1D = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
_FFT_ND = ("fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fft2", "ifft2", "rfft2",
           "irfft2", "hfft2", "ihfft2")
_REAL_ONLY = ("rfft", "ihfft", "rfftn", "ihfftn", "rfft2", "ihfft2")


def _random_layout(m, rng, shape, arr):
    """Array factory ``arr(shape)`` laid out at random (same draws for both libraries)."""
    nd = len(shape)
    kind = rng.choice(["c", "perm", "slice", "expand", "size1"]) if nd else "c"
    if kind == "perm":
        p = list(range(nd))
        rng.shuffle(p)
        return m.tensor(arr([shape[i] for i in p])).permute(*np.argsort(p).tolist())
    if kind == "slice":
        d = rng.randrange(nd)
        big = list(shape)
        big[d] *= 2
        return m.tensor(arr(big))[tuple(slice(None, None, 2) if i == d else slice(None)
                                        for i in range(nd))]
    if kind == "expand":
        d = rng.randrange(nd)
        return m.tensor(arr([1 if i == d else s for i, s in enumerate(shape)])).expand(*shape)
    if kind == "size1":
        st = [rng.choice([1, 7, 100]) if s == 1 else c
              for s, c in zip(shape, layout.c_strides(shape))]
        return m.tensor(arr([800])).as_strided(shape, st)
    return m.tensor(arr(shape))


def _normal(seed, complex_):
    """A factory of standard-normal arrays (complex ones: two draws per element)."""
    g = np.random.RandomState(seed)

    def arr(shape):
        a = g.standard_normal(shape)
        return a + 1j * g.standard_normal(shape) if complex_ else a
    return arr


def _fft_case(seed):
    rng = random.Random(seed)
    nd = rng.randrange(1, 5)
    shape = [rng.choice([1, 2, 3, 4, 5]) for _ in range(nd)]
    name = rng.choice(_FFT_1D + _FFT_ND)
    complex_in = name not in _REAL_ONLY and rng.random() < 0.5
    kw = {"norm": rng.choice([None, "ortho", "forward"])}
    if name in _FFT_1D:
        kw["dim"] = rng.randrange(-nd, nd)
        if rng.random() < 0.4:
            kw["n"] = rng.randrange(1, 8)
    elif not name.endswith("2"):
        kw["dim"] = rng.sample(range(nd), rng.randrange(1, nd + 1))
        if rng.random() < 0.4:
            kw["s"] = [rng.randrange(1, 7) for _ in kw["dim"]]
    elif nd < 2:
        shape.append(3)
    return rng, shape, name, complex_in, kw


@pytest.mark.parametrize("block", range(4))
def test_fft_layouts_match_torch(block):
    """Every public transform on random layouts, n / s / dim / norm: result strides (and
    the conjugate bit) as PyTorch's MKL build gives them."""
    bad = []
    for seed in range(block * 150, (block + 1) * 150):
        rng, shape, name, complex_in, kw = _fft_case(seed)
        state = rng.getstate()
        got = []
        for m in (autotensor, torch):
            rng.setstate(state)
            x = _random_layout(m, rng, shape, _normal(seed, complex_in))
            try:
                r = getattr(m.fft, name)(x, **kw)
                got.append((tuple(r.shape), tuple(r.stride()) if r.numel() else None,
                            r.is_conj()))
            except RuntimeError as e:
                got.append(("raised", str(e)[:60]))
        if got[0] != got[1]:
            bad.append(f"{name} {shape} {complex_in} {kw} x{x.stride()}: {got[0]} vs {got[1]}")
    assert not bad, "\n".join(bad)


def test_fft_primitive_layouts_match_torch():
    """_fft_c2c / _fft_r2c / _fft_c2r (layout.py's simulation of _exec_fft: batch dims in
    input-stride order, std::partition's swaps, signal dims sorted) on random layouts."""
    from autotensor._ops import fft as F
    rng = random.Random(22)
    bad = []
    for seed in range(400):
        nd = rng.randrange(1, 5)
        shape = [rng.choice([1, 2, 3, 4, 5]) for _ in range(nd)]
        dim = rng.sample(range(nd), rng.randrange(1, nd + 1))
        which = rng.choice(["c2c", "r2c", "r2c_full", "c2r"])
        last = rng.choice([2 * (shape[dim[-1]] - 1), 2 * shape[dim[-1]] - 1]) or 1
        state = rng.getstate()
        got = []
        for m in (autotensor, torch):
            rng.setstate(state)
            x = _random_layout(m, rng, shape, _normal(seed, which not in ("r2c", "r2c_full")))
            k = F if m is autotensor else torch
            if which == "c2c":
                r = k._fft_c2c(x, dim, 0, True)
            elif which == "c2r":
                r = k._fft_c2r(x, dim, 0, last)
            else:
                r = k._fft_r2c(x, dim, 0, which == "r2c")
            got.append(tuple(r.stride()) if r.numel() else None)
        if got[0] != got[1]:
            bad.append(f"{which} {shape} {x.stride()} {dim}: {got[0]} vs {got[1]}")
    assert not bad, "\n".join(bad)


def test_conj_is_a_view_of_its_input_layout():
    """conj / _neg_view keep their input's strides (gaps, broadcast dims) as PyTorch's lazy
    views do; an op reading them sees the resolved clone's layout (hfft of an expanded
    complex input)."""
    def f(m):
        z = m.view_as_complex(m.tensor(np.arange(32.0).reshape(1, 4, 4, 2)))
        z = z.expand(3, 4, 4)[:, ::2]
        c = z.conj()
        return [t.stride() for t in (c, c.imag, c.real, m.fft.hfft(z, dim=0), c.conj())]
    assert f(autotensor) == f(torch)


# ---- LAPACK results: column-major (layout.matrix_strides), solve/lu_solve by ``left``,
# ---- lstsq's max(m, n)-row buffer; contiguous composites -------------------------------
def _spd(g, b, n):
    a = g.standard_normal(b + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _gen(g, *shape):
    return g.standard_normal(shape)


_LA_CASES = {  # name: (call, inputs(g, batch, n, k))
    "inv_ex": (lambda m, k, a: m.linalg.inv_ex(a), lambda g, b, n, k: [_spd(g, b, n)]),
    "solve": (lambda m, k, a, x: m.linalg.solve(a, x),
              lambda g, b, n, k: [_spd(g, b, n), _gen(g, *b, n, k)]),
    "solve_vector": (lambda m, k, a, x: m.linalg.solve(a, x),
                     lambda g, b, n, k: [_spd(g, b, n), _gen(g, *b, n)]),
    "solve_right": (lambda m, k, a, x: m.linalg.solve_ex(a, x, left=False),
                    lambda g, b, n, k: [_spd(g, b, n), _gen(g, *b, k, n)]),
    "cholesky_ex_upper": (lambda m, k, a: m.linalg.cholesky_ex(a, upper=True),
                          lambda g, b, n, k: [_spd(g, b, n)]),
    "eigh": (lambda m, k, a: m.linalg.eigh(a), lambda g, b, n, k: [_spd(g, b, n)]),
    "svd": (lambda m, k, a: m.linalg.svd(a, full_matrices=bool(k % 2)),
            lambda g, b, n, k: [_gen(g, *b, n, k)]),
    "torch_svd": (lambda m, k, a: m.svd(a), lambda g, b, n, k: [_gen(g, *b, n, k)]),
    "qr": (lambda m, k, a: m.linalg.qr(a, mode=("reduced", "complete", "r")[k - 1]),
           lambda g, b, n, k: [_gen(g, *b, n, k)]),
    "solve_triangular": (lambda m, k, a, x: m.linalg.solve_triangular(a, x, upper=True, left=False),
                         lambda g, b, n, k: [_spd(g, b, n), _gen(g, *b, k, n)]),
    "triangular_solve": (lambda m, k, x, a: m.triangular_solve(x, a),
                         lambda g, b, n, k: [_gen(g, *b, n, k), _spd(g, b, n)]),
    "lstsq": (lambda m, k, a, x: m.linalg.lstsq(a, x, driver="gelsd"),
              lambda g, b, n, k: [_gen(g, *b, n + 1, n), _gen(g, *b, n + 1, k)]),
    "lstsq_wide": (lambda m, k, a, x: m.linalg.lstsq(a, x)[0],
                   lambda g, b, n, k: [_gen(g, *b, n, n + 1), _gen(g, *b, n, k)]),
    "lstsq_vector": (lambda m, k, a, x: m.linalg.lstsq(a, x)[0],
                     lambda g, b, n, k: [_gen(g, *b, n + 1, n), _gen(g, *b, n + 1)]),
    "lu_factor_ex": (lambda m, k, a: m.linalg.lu_factor_ex(a),
                     lambda g, b, n, k: [_gen(g, *b, n, k)]),
    "lu": (lambda m, k, a: m.linalg.lu(a), lambda g, b, n, k: [_gen(g, *b, n, k)]),
    "lu_solve": (lambda m, k, a, x: m.linalg.lu_solve(*m.linalg.lu_factor(a), x, adjoint=k == 2),
                 lambda g, b, n, k: [_spd(g, b, n), _gen(g, *b, n, k)]),
    "lu_solve_right": (lambda m, k, a, x: m.linalg.lu_solve(*m.linalg.lu_factor(a), x, left=False),
                       lambda g, b, n, k: [_spd(g, b, n), _gen(g, *b, k, n)]),
    "cholesky_solve": (lambda m, k, x, a: m.cholesky_solve(x, a, upper=k == 2),
                       lambda g, b, n, k: [_gen(g, *b, n, k), np.linalg.cholesky(_spd(g, b, n))]),
    "cholesky_inverse": (lambda m, k, a: m.cholesky_inverse(a),
                         lambda g, b, n, k: [np.linalg.cholesky(_spd(g, (), n))]),
    "matrix_power": (lambda m, k, a: m.linalg.matrix_power(a, k - 2),
                     lambda g, b, n, k: [_spd(g, b, n)]),
    "cdist": (lambda m, k, a, x: m.cdist(a, x, p=(1.0, 2.0, 3.0)[k - 1]),
              lambda g, b, n, k: [_gen(g, *b, n, k), _gen(g, *b, n + 1, k)]),
    "cross": (lambda m, k, a, x: m.linalg.cross(a, x),
              lambda g, b, n, k: [_gen(g, *b, n, 3), _gen(g, *b[:1], 1, 3)]),
    "addr": (lambda m, k, s, a, x: m.addr(s, a, x),
             lambda g, b, n, k: [_gen(g, *(n, k)[2 - len(b):]), _gen(g, n), _gen(g, k)]),
    "geqrf_householder": (lambda m, k, a: (lambda h: (h, m.linalg.householder_product(*h)))(
        m.geqrf(a)), lambda g, b, n, k: [_gen(g, *b, n + 1, n)]),
    "ormqr": (lambda m, k, a, c: m.ormqr(*m.geqrf(a), c, left=k != 2),
              lambda g, b, n, k: [_gen(g, *b, n + 1, n),
                                  _gen(g, *b, *((n + 1, k) if k != 2 else (k, n + 1)))]),
    "ldl": (lambda m, k, a, x: (lambda f: (f, m.linalg.ldl_solve(f[0], f[1], x)))(
        m.linalg.ldl_factor(a)), lambda g, b, n, k: [_spd(g, b, n), _gen(g, *b, n, k)]),
    "eig": (lambda m, k, a: m.linalg.eig(a), lambda g, b, n, k: [_gen(g, *b, n, n)]),
}


def _la_layout_case(name, seed):
    rng = random.Random(seed)
    call, make = _LA_CASES[name]
    b = rng.choice([(), (2,), (1,), (2, 1)])
    n, k = rng.choice([1, 2, 3]), rng.choice([1, 2, 3])
    arrays = make(np.random.RandomState(seed), b, n, k)
    which = rng.randrange(len(arrays))
    state = rng.getstate()
    got = []
    for m in (autotensor, torch):
        rng.setstate(state)
        a = arrays[which]
        xs = [m.tensor(x) for x in arrays]
        xs[which] = _random_layout(m, rng, list(a.shape), lambda sh, a=a: np.resize(a, sh))
        m.manual_seed(0)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = call(m, k, *xs)
            got.append([(tuple(o.shape), tuple(o.stride()) if o.numel() else None)
                        for o in _flat(r) if hasattr(o, "stride")])
        except RuntimeError as e:  # (an expanded input can be singular: both must raise)
            got.append(("raised", type(e).__name__.lstrip("_")))
    if (got[0][0] == "raised") != (got[1][0] == "raised") and _rounding_singular(xs):
        got = [("singular up to rounding",)] * 2  # (tests/_cpu.py: a per-CPU rounding)
    return got, (b, n, k, which, tuple(xs[which].stride()))


def _rounding_singular(xs):
    """Whether a square input is singular only up to rounding (an expanded input's repeated
    rows and their LU's pivots: exactly zero or not by the CPU LAPACK runs on)."""
    for x in xs:
        if x.dim() >= 2 and x.shape[-1] == x.shape[-2] and x.numel():
            a = np.asarray(x.tolist())
            with np.errstate(all="ignore"):
                if not (np.linalg.cond(a) < 1e12).all():
                    return True
    return False


@pytest.mark.parametrize("name", sorted(_LA_CASES))
def test_linalg_layouts_match_torch(name):
    """LAPACK's column-major results (size-1 dims included), left=False's contiguous ones,
    lstsq's buffer rows, contiguous composites, on random input layouts and batches."""
    bad = []
    for seed in range(24):
        got, case = _la_layout_case(name, seed)
        if got[0] != got[1]:
            bad.append(f"{case}: {got[0]} vs {got[1]}")
    assert not bad, "\n".join(bad)


def test_singular_triangular_solves_as_lapack():
    """trsm / potrs do not check the diagonal: infinities and NaNs, no error; potri
    reports the first zero; cholesky(upper=True) reads the upper triangle."""
    A = np.array([[2.0, 0, 0], [1, 0, 0], [1, 1, 3]])
    B = np.array([[1.0, 2], [3, 4], [5, 6]])

    def run(m):
        out = []
        for f in (lambda: m.linalg.solve_triangular(m.tensor(A), m.tensor(B), upper=False),
                  lambda: m.linalg.solve_triangular(m.tensor(A.T), m.tensor(B.T), upper=True,
                                                    left=False),
                  lambda: m.cholesky_solve(m.tensor(B), m.tensor(A)),
                  lambda: m.cholesky_solve(m.tensor(B), m.tensor(A.T), upper=True),
                  lambda: m.cholesky_inverse(m.tensor(np.stack([np.eye(3), A]))),
                  lambda: m.linalg.cholesky(m.tensor(np.array([[4.0, 100], [2, 5]])),
                                            upper=True),
                  lambda: m.linalg.cholesky(m.tensor(np.array([[4.0, 1], [2, 5]])), upper=True)):
            try:
                out.append(repr(np.round(f().numpy(), 12).tolist()))  # (nan == nan)
            except RuntimeError as e:
                out.append((type(e).__name__.lstrip("_"), str(e)))
        return out
    assert run(autotensor) == run(torch)


# ---- elementwise ops of mixed dtypes: TensorIterator casts an operand to the common dtype
# ---- (empty_like's layout) before it orders the dims (layout.cast) ----------------------
_MIXED_DTYPES = ("float32", "float64", "int64", "int32", "bool", "complex64", "complex128")
_MIXED_OPS = (lambda m, a, b: a + b, lambda m, a, b: a * b, lambda m, a, b: a / b,
              lambda m, a, b: a == b, lambda m, a, b: a != b, lambda m, a, b: a * 2.5,
              lambda m, a, b: (a * 1j) if a.dtype == m.bool else a.exp(),
              lambda m, a, b: m.logical_and(a, b))


def test_mixed_dtype_elementwise_layouts_match_torch():
    rng = random.Random(7)
    bad = []
    for seed in range(500):
        nd = rng.randrange(1, 4)
        shape = [rng.choice([2, 3]) for _ in range(nd)]
        sb = shape[rng.randrange(nd):] if rng.random() < 0.3 else list(shape)
        da, db = rng.choice(_MIXED_DTYPES), rng.choice(_MIXED_DTYPES)
        op = rng.choice(_MIXED_OPS)
        state = rng.getstate()
        got = []
        for m in (autotensor, torch):
            rng.setstate(state)
            draw = _normal(seed, False)
            a = _random_layout(m, rng, shape, lambda sh, d=da, f=draw: (f(sh) * 3).astype(d))
            b = _random_layout(m, rng, sb, lambda sh, d=db, f=draw: (f(sh) * 3).astype(d))
            try:
                r = op(m, a, b)
                got.append((tuple(r.shape), tuple(r.stride()), str(r.dtype)))
            except RuntimeError as e:
                got.append(("raised", str(e)[:40]))
        if got[0] != got[1]:
            bad.append(f"{da} {db} {a.stride()} {b.stride()}: {got[0]} vs {got[1]}")
    assert not bad, "\n".join(bad)


# ---- random fills draw along memory order (TensorIterator's), not the logical one ----------
_FILLS = {
    "rand_like": lambda m, x: m.rand_like(x), "randn_like": lambda m, x: m.randn_like(x),
    "randint_like": lambda m, x: m.randint_like(x, 10),
    "uniform_": lambda m, x: x.uniform_(), "normal_": lambda m, x: x.normal_(),
    "random_": lambda m, x: x.random_(0, 100), "cauchy_": lambda m, x: x.cauchy_(),
    "log_normal_": lambda m, x: x.log_normal_(), "geometric_": lambda m, x: x.geometric_(0.3),
    "exponential_": lambda m, x: x.exponential_(), "bernoulli_": lambda m, x: x.bernoulli_(0.3),
    "bernoulli_tensor_": lambda m, x: x.bernoulli_(x.detach().abs().clamp(0, 1)),
    "bernoulli": lambda m, x: m.bernoulli(x.abs().clamp(0, 1)),
    "dropout": lambda m, x: m.nn.functional.dropout(x, 0.4),
    "alpha_dropout": lambda m, x: m.nn.functional.alpha_dropout(x, 0.4, training=True),
    "multinomial": lambda m, x: m.multinomial(x.abs() + 0.1, 2),
}


_COMPLEX_FILLS = ("rand_like", "randn_like", "uniform_", "normal_")  # (the rest: real only)


@pytest.mark.parametrize("name, dtype", [(n, d) for n in sorted(_FILLS)
                                         for d in ("float32", "float64", "complex64")
                                         if d != "complex64" or n in _COMPLEX_FILLS])
def test_random_fills_draw_in_memory_order(name, dtype):
    """rand_like / randn_like of a permuted tensor, x.t().normal_(), dropout of a transposed
    input...: PyTorch's CPU kernels write draw k to the k-th element in memory (normal_
    on a non-contiguous tensor: the serial kernel, not the 16-wide fill), so the values
    land elsewhere than a logical-order draw would put them."""
    got = []
    for m in (autotensor, torch):
        out = []
        for build in (lambda z: z.permute(2, 0, 1), lambda z: z[:, ::2], lambda z: z[:2, :3, 0].t(),
                      lambda z: z):
            m.manual_seed(3)
            base = m.tensor(np.random.RandomState(1).standard_normal((4, 5, 3)).astype(dtype))
            try:
                r = _FILLS[name](m, build(base))
            except RuntimeError as e:  # (multinomial of a 3-d input)
                out.append(str(e))
                continue
            out.append((tuple(r.stride()), repr(np.round(r.detach().numpy().astype(
                np.complex128), 5).tolist())))
        got.append(out)
    assert got[0] == got[1]
