"""Result layouts (strides) against PyTorch 2.13 (Note [Result layout] in _ops/layout.py).

Every op_db sample runs with each floating input built non-contiguous (transposed, a
rotated permutation of its dims, sliced with a step along the last or the first dim,
expanded from one row, 4-d ones also channels-last) on both libraries; the results'
strides must agree (results with elements only), and so must whether the call raises.
Samples whose layout is still known to differ are listed in OPEN with the reason
(OPEN_FINDINGS.md, "Stop 21, helper lay6"): strict xfails, so one that starts agreeing
must leave the list.
"""
import random
import warnings

import numpy as np
import pytest
from op_db import SAMPLES

import autotensor
from autotensor._ops import layout

torch = pytest.importorskip("torch")

_LA = "LAPACK results: PyTorch's column-major / batched strides not modelled for this op"
OPEN = {
    **{name: _LA for name in (
        "la_addr", "la_cdist", "la_cdist_inf", "la_cdist_p1", "la_cdist_p3_batched",
        "la_cholesky_inverse", "la_cholesky_inverse_upper", "la_cholesky_solve",
        "la_cross_dim_bcast", "la_lstsq", "la_lstsq_batched", "la_lstsq_gelsd", "la_lu_solve",
        "la_lu_solve_adjoint", "la_lu_solve_right", "la_lu_solve_right_adjoint",
        "la_lu_wide_batched", "la_matrix_power_0", "la_solve_batch_vector", "la_solve_ex",
        "la_solve_right")},
    "cx_mul_real": "complex * real with an expanded operand",
}


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
