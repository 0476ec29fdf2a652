"""torch.fft against PyTorch: every transform over norm modes, n / s padding and trimming,
dims (negative, reordered), real / complex / integer / bool inputs (values, dtypes,
gradients, node names), errors word for word, out=, fftfreq / rfftfreq, fftshift /
ifftshift, the float32 precision, and the complex views the transforms are built from.
Gradcheck, gradgradcheck and forward AD of each transform are in the generated tests
(tests/op_db_fft.py)."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2", "fftn", "ifftn", "rfftn",
       "irfftn", "hfftn", "ihfftn"]
REAL_IN = {"rfft", "ihfft", "rfft2", "ihfft2", "rfftn", "ihfftn"}
NORMS = [None, "backward", "forward", "ortho"]


def _rng(seed=0):
    return np.random.default_rng(seed)


def _input(name, shape, dtype=np.float64, seed=0):
    r = _rng(seed)
    x = r.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        if name in REAL_IN:
            return x.astype(np.float32 if dtype == np.complex64 else np.float64)
        x = x + 1j * r.standard_normal(shape)
    return x.astype(dtype)


def _np(t):
    if t.is_conj():
        t = t.resolve_conj()
    return t.detach().numpy()


def _outcome(fn):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001  (the error is what is compared)
        return ("error", type(e).__name__, str(e).split("\n")[0])
    return ("ok", str(out.dtype).rsplit(".", 1)[-1], tuple(out.shape), _np(out))


def _same(fn, *arrays, rtol=1e-12, atol=1e-12):
    a = _outcome(lambda: fn(autotensor, *[autotensor.tensor(x) for x in arrays]))
    t = _outcome(lambda: fn(torch, *[torch.tensor(x) for x in arrays]))
    assert a[:3] == t[:3], (a[:3], t[:3])
    if a[0] == "ok":
        np.testing.assert_allclose(a[3], t[3], rtol=rtol, atol=atol)
    return a


# ---- values and dtypes ---------------------------------------------------------------------
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ONE_D)
def test_one_dim_norms_vs_torch(name, norm):
    x = _input(name, (3, 8), np.complex128)
    _same(lambda m, t: getattr(m.fft, name)(t, norm=norm), x)


@pytest.mark.parametrize("n", [1, 3, 8, 11])
@pytest.mark.parametrize("dim", [0, -1])
@pytest.mark.parametrize("name", ONE_D)
def test_one_dim_n_pads_and_trims_vs_torch(name, n, dim):
    x = _input(name, (6, 5), np.complex128)
    _same(lambda m, t: getattr(m.fft, name)(t, n=n, dim=dim, norm="ortho"), x)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", N_D)
def test_n_dim_norms_vs_torch(name, norm):
    x = _input(name, (2, 3, 4), np.complex128)
    _same(lambda m, t: getattr(m.fft, name)(t, norm=norm), x)


@pytest.mark.parametrize("kw", [dict(s=(3, 6)), dict(s=(5, -1)), dict(dim=(0, 2)),
                                dict(dim=(2, 0)), dict(s=(2, 4), dim=(-1, 0)),
                                dict(s=(7,)), dict(dim=(1,)), dict(s=(2, 3, 5))])
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"])
def test_n_dim_s_and_dim_vs_torch(name, kw):
    x = _input(name, (3, 4, 5), np.complex128)
    _same(lambda m, t: getattr(m.fft, name)(t, **kw), x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int32, np.uint8,
                                   np.bool_, np.complex64, np.complex128])
@pytest.mark.parametrize("name", ONE_D + ["fft2", "rfftn", "irfftn", "hfft2", "ihfftn"])
def test_input_dtypes_vs_torch(name, dtype):
    x = (_rng(1).standard_normal((4, 6)) * 3)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * _rng(2).standard_normal((4, 6))
    x = x.astype(dtype)
    tol = 1e-5 if dtype in (np.float32, np.complex64) or np.dtype(dtype).kind in "biu" else 1e-12
    _same(lambda m, t: getattr(m.fft, name)(t), x, rtol=tol, atol=tol)


def test_default_dtype_promotes_integers_vs_torch():
    x = np.arange(6)
    for m in (autotensor, torch):
        m.set_default_dtype(m.float64)
    try:
        a = _same(lambda m, t: m.fft.fft(t), x)
        assert a[1] == "complex128"
        assert _same(lambda m, t: m.fft.irfft(t), x)[1] == "float64"
    finally:
        for m in (autotensor, torch):
            m.set_default_dtype(m.float32)


def test_float32_precision_vs_torch():
    """Both libraries transform float32 in single precision with their own rounding:
    agreement to a few ulps of the output's magnitude (measured: the max |difference| over
    a 4 x 1000 transform is below 8 float32 ulps of max|X|)."""
    x = _rng(3).standard_normal((4, 1000)).astype(np.float32)
    for name in ("fft", "rfft", "ihfft"):
        a = _np(getattr(autotensor.fft, name)(autotensor.tensor(x)))
        t = _np(getattr(torch.fft, name)(torch.tensor(x)))
        assert a.dtype == t.dtype == np.complex64
        ulp = np.spacing(np.float32(np.abs(t).max()))
        assert np.abs(a - t).max() <= 8 * ulp, (name, np.abs(a - t).max() / ulp)
        exact = getattr(np.fft, name)(x.astype(np.float64))
        # and each is as close to the float64 transform as the other (within 2x)
        err_a, err_t = np.abs(a - exact).max(), np.abs(t - exact).max()
        assert err_a <= 2 * err_t + ulp, (name, err_a, err_t)


def test_zero_dim_and_empty_dims_vs_torch():
    _same(lambda m, t: m.fft.fftn(t), np.array(2.5))
    _same(lambda m, t: m.fft.fftn(t, dim=()), _input("fftn", (2, 3)))
    _same(lambda m, t: m.fft.fft2(t, dim=(0,)), _input("fft2", (3, 4)))


def test_conjugate_bit_vs_torch():
    x = _input("ifft", (5,))
    for name in ("ifft", "ihfft"):
        a = getattr(autotensor.fft, name)(autotensor.tensor(x))
        t = getattr(torch.fft, name)(torch.tensor(x))
        assert a.is_conj() == t.is_conj() is True
        r = a.resolve_conj()
        assert not r.is_conj()
        np.testing.assert_allclose(r.numpy(), t.resolve_conj().numpy(), rtol=1e-12, atol=1e-14)
    c = autotensor.fft.fft(autotensor.tensor(x))
    assert not c.is_conj() and c.conj().is_conj() and not c.conj().conj().is_conj()


# ---- gradients and graphs ------------------------------------------------------------------
def _graph(y):
    out, seen, queue = [], set(), [y.grad_fn]
    while queue:
        n = queue.pop(0)
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        out.append(type(n).__name__)
        queue.extend(f for f, _ in n.next_functions)
    return out


def _grad_run(m, name, x, kw, dtype):
    t = m.tensor(x, requires_grad=True)
    y = getattr(m.fft, name)(t, **kw)
    if y.is_conj():
        y = y.resolve_conj()
    w = _rng(7).standard_normal(tuple(y.shape))
    if y.is_complex():
        w = w + 1j * _rng(8).standard_normal(tuple(y.shape))
    g, = m.autograd.grad(y, t, m.tensor(w.astype(_np(y).dtype)))
    return _graph(y), str(g.dtype).rsplit(".", 1)[-1], _np(g)


def _kinds(names):
    """(name, input kind) pairs: every transform of a real input, those taking complex
    inputs of a complex one too (rfft / ihfft of a complex input raise: test_errors)."""
    return [(n, k) for n in names for k in ("real", "complex")
            if k == "real" or n not in REAL_IN]


@pytest.mark.parametrize("kw", [{}, dict(norm="ortho"), dict(n=7), dict(n=3, norm="forward"),
                                dict(dim=0)])
@pytest.mark.parametrize("name,kind", _kinds(ONE_D))
def test_one_dim_gradients_and_graphs_vs_torch(name, kw, kind):
    x = _input(name, (4, 6), np.complex128 if kind == "complex" else np.float64)
    a = _grad_run(autotensor, name, x, kw, x.dtype)
    t = _grad_run(torch, name, x, kw, x.dtype)
    assert a[:2] == t[:2]
    np.testing.assert_allclose(a[2], t[2], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kw", [{}, dict(norm="ortho"), dict(s=(3, 7)), dict(dim=(1, 0)),
                                dict(s=(2, -1), dim=(0, 2), norm="forward"),
                                dict(s=(4,), dim=(1,))])
@pytest.mark.parametrize("name,kind", _kinds(N_D))
def test_n_dim_gradients_and_graphs_vs_torch(name, kw, kind):
    if "2" in name and "dim" in kw and len(kw["dim"]) != 2:
        name = name.replace("2", "n")  # (the 2-d forms take two dims: the n-d form then)
    x = _input(name, (3, 4, 5), np.complex128 if kind == "complex" else np.float64)
    a = _grad_run(autotensor, name, x, kw, x.dtype)
    t = _grad_run(torch, name, x, kw, x.dtype)
    assert a[:2] == t[:2]
    np.testing.assert_allclose(a[2], t[2], rtol=1e-10, atol=1e-12)


def test_double_backward_through_a_spectral_loss_vs_torch():
    """A Hessian-vector product through rfft -> |X|^2 -> irfft (create_graph)."""
    x = _rng(4).standard_normal((2, 9))
    v = _rng(5).standard_normal((2, 9))

    def run(m):
        t = m.tensor(x, requires_grad=True)
        spec = m.view_as_real(m.fft.rfft(t, norm="ortho"))
        y = m.fft.irfft(m.view_as_complex(spec * spec), n=9)
        loss = (y * y).sum() + (spec ** 3).sum()
        g, = m.autograd.grad(loss, t, create_graph=True)
        hv, = m.autograd.grad((g * m.tensor(v)).sum(), t)
        return g.detach().numpy(), hv.numpy()

    for a, t in zip(run(autotensor), run(torch), strict=True):
        np.testing.assert_allclose(a, t, rtol=1e-10, atol=1e-12)


def test_forward_ad_of_complex_input_vs_torch():
    x = _input("fft", (3, 4), np.complex128)
    v = _input("fft", (3, 4), np.complex128, seed=9)

    def run(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            d = fw.make_dual(m.tensor(x), m.tensor(v))
            outs = [m.fft.fft2(d, norm="ortho"), m.fft.irfft(d, n=5), m.fft.hfft(d),
                    m.fft.fft(d, n=6, dim=0)]
            return [fw.unpack_dual(o).tangent.resolve_conj().numpy() for o in outs]

    for a, t in zip(run(autotensor), run(torch), strict=True):
        assert a.dtype == t.dtype
        np.testing.assert_allclose(a, t, rtol=1e-10, atol=1e-12)


# ---- errors --------------------------------------------------------------------------------
X = np.zeros((3, 4))
XC = np.zeros((3, 4), dtype=np.complex64)
ERRORS = [
    (lambda m, x, c: m.fft.fft(m.tensor(1.0)), "0-d"),
    (lambda m, x, c: m.fft.fft(x, n=0), "n=0"),
    (lambda m, x, c: m.fft.fft(x, n=-1), "n=-1"),
    (lambda m, x, c: m.fft.fft(c, n=0), "complex n=0"),
    (lambda m, x, c: m.fft.fft(x, norm="foo"), "norm"),
    (lambda m, x, c: m.fft.ifft(c, norm="FORWARD"), "norm case"),
    (lambda m, x, c: m.fft.rfft(c), "rfft complex"),
    (lambda m, x, c: m.fft.ihfft(c), "ihfft complex"),
    (lambda m, x, c: m.fft.rfftn(c), "rfftn complex"),
    (lambda m, x, c: m.fft.ihfft2(c), "ihfft2 complex"),
    (lambda m, x, c: m.fft.ihfftn(c, dim=(0, 0)), "ihfftn complex, dims first"),
    (lambda m, x, c: m.fft.fft(x.half()), "half"),
    (lambda m, x, c: m.fft.rfft(x.bfloat16()), "bfloat16"),
    (lambda m, x, c: m.fft.fft(x, dim=2), "dim range"),
    (lambda m, x, c: m.fft.fftn(x, dim=(0, 0)), "dims unique"),
    (lambda m, x, c: m.fft.fftn(x, dim=(0, -2)), "dims unique wrapped"),
    (lambda m, x, c: m.fft.fftn(x, s=(2,), dim=(0, 1)), "s and dim lengths"),
    (lambda m, x, c: m.fft.fftn(x, s=(2, 2, 2)), "s too long"),
    (lambda m, x, c: m.fft.fftn(x, s=(0, 2)), "s zero"),
    (lambda m, x, c: m.fft.rfftn(x, dim=()), "rfftn no axis"),
    (lambda m, x, c: m.fft.irfftn(c, dim=()), "irfftn no axis"),
    (lambda m, x, c: m.fft.hfftn(c, dim=()), "hfftn no axis"),
    (lambda m, x, c: m.fft.ihfftn(x, dim=()), "ihfftn no axis"),
    (lambda m, x, c: m.fft.irfft(m.zeros(1, dtype=m.complex64)), "irfft n=0"),
    (lambda m, x, c: m.fft.irfft2(c, s=(3,)), "irfft2 s"),
    (lambda m, x, c: m.fft.fft2(m.zeros(3)), "fft2 1-d"),
    (lambda m, x, c: m.fft.fft(m.zeros(3, 0)), "empty"),
    (lambda m, x, c: m.fft.fftshift(x, dim=3), "fftshift dim"),
    (lambda m, x, c: m.fft.fftshift(m.tensor(1.0)), "fftshift 0-d"),
    (lambda m, x, c: m.fft.fftshift(x, dim=()), "fftshift no dims"),
    (lambda m, x, c: m.fft.fftshift(x, dim=1.5), "fftshift dim type"),
    (lambda m, x, c: m.fft.fft(3.0), "input type"),
    (lambda m, x, c: m.fft.fft(x, 3.5), "n type"),
    (lambda m, x, c: m.fft.fft(x, out=m.empty(0)), "out real"),
    (lambda m, x, c: m.fft.fft(c, out=m.empty(0)), "c2c out real"),
    (lambda m, x, c: m.fft.fft2(x, out=m.empty(0)), "fft2 out"),
    (lambda m, x, c: m.fft.rfft2(x, out=m.empty(0)), "rfft2 out"),
    (lambda m, x, c: m.fft.irfft(c, out=m.empty(0, dtype=m.complex64)), "irfft out"),
    (lambda m, x, c: m.fft.hfftn(c, out=m.empty(0, dtype=m.complex64)), "hfftn out"),
    (lambda m, x, c: m.fft.ihfft(x, out=m.empty(0)), "ihfft out"),
    (lambda m, x, c: m.fft.fft(x.requires_grad_(), out=m.empty(0, dtype=m.complex64)),
     "out with grad"),
    (lambda m, x, c: m.fft.fftfreq(4, dtype=m.int64), "fftfreq int"),
    (lambda m, x, c: m.fft.rfftfreq(4, dtype=m.int32), "rfftfreq int"),
    (lambda m, x, c: m.fft.fftfreq(-1), "fftfreq negative"),
    (lambda m, x, c: m.fft.fftfreq(4, dtype=m.complex64), "fftfreq complex"),
    (lambda m, x, c: m.fft.fftfreq(4, out=m.empty(2, dtype=m.int64)), "fftfreq out int"),
    (lambda m, x, c: m.view_as_real(x), "view_as_real real"),
    (lambda m, x, c: m.view_as_complex(x), "view_as_complex size"),
    (lambda m, x, c: m.view_as_complex(m.zeros(4, 2).t().contiguous().t()),
     "view_as_complex stride"),
    (lambda m, x, c: m.view_as_complex(m.zeros(2, 2, dtype=m.int64)), "view_as_complex int"),
    (lambda m, x, c: m.imag(x), "imag real"),
    (lambda m, x, c: m.view_as_real(c.conj()), "view_as_real conj"),
    (lambda m, x, c: m.stft(x[0], 4), "stft return_complex"),
    (lambda m, x, c: m.stft(m.zeros(2, 2, 20), 8, return_complex=True), "stft 3-d"),
    (lambda m, x, c: m.stft(m.zeros(20), 30, return_complex=True, center=False), "stft n_fft"),
    (lambda m, x, c: m.stft(m.zeros(20), 0, return_complex=True), "stft n_fft 0"),
    (lambda m, x, c: m.stft(m.zeros(20), 8, hop_length=0, return_complex=True), "stft hop"),
    (lambda m, x, c: m.stft(m.zeros(20), 8, win_length=9, return_complex=True), "stft win"),
    (lambda m, x, c: m.stft(m.zeros(20), 8, window=m.ones(7), return_complex=True,
                            onesided=False, normalized=True), "stft window size"),
    (lambda m, x, c: m.stft(m.zeros(20), 8, window=m.ones(2, 4), return_complex=True),
     "stft window 2-d"),
    (lambda m, x, c: m.stft(m.zeros(20, dtype=m.complex64), 8, return_complex=True,
                            onesided=True), "stft onesided complex"),
    (lambda m, x, c: m.stft(m.zeros(20, dtype=m.int64), 8, return_complex=True), "stft int"),
    (lambda m, x, c: m.stft(m.zeros(2), 8, return_complex=True), "stft reflect too short"),
    (lambda m, x, c: m.stft(m.zeros(20), 8, return_complex=True, pad_mode="zeros"),
     "stft pad mode"),
    (lambda m, x, c: m.stft(m.zeros(20, dtype=m.complex64), 8, return_complex=True,
                            window=m.ones(7)), "stft complex prefix"),
    (lambda m, x, c: m.stft(m.zeros(20), 8, return_complex=True, align_to_window=True),
     "stft align_to_window centred"),
    (lambda m, x, c: m.istft(m.zeros(5, 16, 2), 8), "istft real"),
    (lambda m, x, c: m.istft(m.zeros(3, dtype=m.complex128), 8), "istft 1-d"),
    (lambda m, x, c: m.istft(m.zeros(2, 3, 4, 5, dtype=m.complex128), 8), "istft 4-d"),
    (lambda m, x, c: m.istft(m.zeros(5, 0, dtype=m.complex128), 8), "istft empty"),
    (lambda m, x, c: m.istft(m.zeros(5, 16, dtype=m.complex128), 8, onesided=False),
     "istft onesided"),
    (lambda m, x, c: m.istft(m.zeros(6, 16, dtype=m.complex128), 8), "istft freq size"),
    (lambda m, x, c: m.istft(m.zeros(5, 16, dtype=m.complex128), 8, hop_length=9),
     "istft hop"),
    (lambda m, x, c: m.istft(m.zeros(5, 16, dtype=m.complex128), 8, win_length=9),
     "istft win"),
    (lambda m, x, c: m.istft(m.zeros(5, 16, dtype=m.complex128), 8, window=m.ones(7)),
     "istft window"),
    (lambda m, x, c: m.istft(m.zeros(5, 16, dtype=m.complex128), 8, window=m.zeros(8)),
     "istft envelope"),
    (lambda m, x, c: m.istft(m.zeros(5, 16, dtype=m.complex128), 8,
                             window=m.tensor(np.hanning(8)), center=False),
     "istft envelope not centred"),
    (lambda m, x, c: m.istft(m.zeros(5, 16, dtype=m.complex128), 8, window=m.ones(8),
                             return_complex=True), "istft onesided complex"),
]


@pytest.mark.parametrize("fn", [f for f, _ in ERRORS], ids=[n for _, n in ERRORS])
def test_errors_vs_torch(fn):
    a = _outcome(lambda: fn(autotensor, autotensor.tensor(X), autotensor.tensor(XC)))
    t = _outcome(lambda: fn(torch, torch.tensor(X), torch.tensor(XC)))
    assert a[0] == t[0] == "error", (a[:3], t[:3])
    assert a == t


# ---- out= ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name,kind,out_dtype", [("fft", "f", "complex128"),
                                                 ("fft", "f", "complex64"),
                                                 ("ifft", "c", "complex128"),
                                                 ("ihfft", "f", "complex128"),
                                                 ("irfft", "c", "float64"),
                                                 ("hfftn", "c", "float32"),
                                                 ("ihfft2", "f", "complex128"),
                                                 ("rfftn", "f", "complex64")])
def test_out_vs_torch(name, kind, out_dtype):
    x = _input(name, (3, 4), np.complex128 if kind == "c" else np.float64)

    def run(m):
        out = m.empty(0, dtype=getattr(m, out_dtype))
        r = getattr(m.fft, name)(m.tensor(x), out=out)
        assert r is out
        return out

    a, t = run(autotensor), run(torch)
    assert str(a.dtype) .rsplit(".", 1)[-1] == str(t.dtype).rsplit(".", 1)[-1]
    tol = 1e-5 if out_dtype in ("float32", "complex64") else 1e-12
    np.testing.assert_allclose(_np(a), _np(t), rtol=tol, atol=tol)


# ---- frequencies and shifts ----------------------------------------------------------------
@pytest.mark.parametrize("n", [0, 1, 2, 7, 8])
@pytest.mark.parametrize("d", [1.0, 0.3, 2])
@pytest.mark.parametrize("dtype", [None, "float64", "float32"])
@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_frequencies_vs_torch_bit_for_bit(name, n, d, dtype):
    def run(m):
        kw = {} if dtype is None else dict(dtype=getattr(m, dtype))
        return getattr(m.fft, name)(n, d, **kw)

    a, t = run(autotensor), run(torch)
    assert str(a.dtype).rsplit(".", 1)[-1] == str(t.dtype).rsplit(".", 1)[-1]
    np.testing.assert_array_equal(a.numpy(), t.numpy())


def test_frequencies_requires_grad_and_out_vs_torch():
    for m in (autotensor, torch):
        f = m.fft.fftfreq(5, requires_grad=True)
        assert f.requires_grad and f.is_leaf
        out = m.empty(0, dtype=m.float64)
        assert m.fft.rfftfreq(6, 0.5, out=out) is out
        np.testing.assert_array_equal(out.numpy(), np.fft.rfftfreq(6, 0.5))


@pytest.mark.parametrize("dim", [None, 0, -1, (0, 1), (1, 0), [2], (0, 0)])
@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shifts_vs_torch(name, dim):
    x = _rng(6).standard_normal((4, 5, 3))
    _same(lambda m, t: getattr(m.fft, name)(t, dim=dim), x)
    _same(lambda m, t: getattr(m.fft, name)(t, dim=dim), x + 1j * x)
    np.testing.assert_array_equal(
        getattr(autotensor.fft, name)(autotensor.tensor(x)).numpy(),
        getattr(np.fft, name)(x))


def test_shift_round_trip_and_gradient_vs_torch():
    x = _rng(7).standard_normal((5, 4))
    for m in (autotensor, torch):
        t = m.tensor(x, requires_grad=True)
        y = m.fft.ifftshift(m.fft.fftshift(t))
        np.testing.assert_array_equal(y.detach().numpy(), x)
        assert type(y.grad_fn).__name__ == "RollBackward0"


# ---- complex views -------------------------------------------------------------------------
def test_complex_views_share_memory():
    c = autotensor.tensor(np.array([1 + 2j, 3 - 4j]))
    r = autotensor.view_as_real(c)
    assert r.shape == (2, 2) and r.dtype == autotensor.float64
    r[0, 1] = 7.0
    assert c[0].item() == 1 + 7j
    back = autotensor.view_as_complex(r)
    assert back.shape == (2,) and back.dtype == autotensor.complex128
    np.testing.assert_array_equal(back.numpy(), c.numpy())
    assert c.real.tolist() == [1.0, 3.0] and c.imag.tolist() == [7.0, -4.0]
    x = autotensor.tensor([1.0, 2.0])
    assert x.real is x and autotensor.conj(x) is x and x.conj_physical() is x


@pytest.mark.parametrize("expr", ["m.real(c)", "m.imag(c)", "c.conj().real", "c.conj().imag * 1",
                                  "m.view_as_real(c.conj_physical())",
                                  "m.view_as_real(c.conj().resolve_conj())"])
def test_complex_parts_values_and_graphs_vs_torch(expr):
    z = _input("fft", (2, 3), np.complex128)

    def run(m):
        c = m.tensor(z, requires_grad=True)
        y = eval(expr)
        w = _rng(9).standard_normal(tuple(y.shape))
        g, = m.autograd.grad(y, c, m.tensor(w))
        return _graph(y), _np(y), _np(g)

    a, t = run(autotensor), run(torch)
    assert a[0] == t[0]
    np.testing.assert_allclose(a[1], t[1], rtol=1e-14)
    np.testing.assert_allclose(a[2], t[2], rtol=1e-14)


# ---- stft ----------------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [dict(n_fft=8), dict(n_fft=8, hop_length=3, win_length=6),
                                dict(n_fft=7, center=False, normalized=True),
                                dict(n_fft=8, onesided=False, pad_mode="replicate"),
                                dict(n_fft=8, return_complex=False)])
@pytest.mark.parametrize("shape", [(20,), (2, 17)])
@pytest.mark.parametrize("windowed", [True, False])
def test_stft_vs_torch(kw, shape, windowed):
    import warnings
    x = _rng(11).standard_normal(shape)
    win = kw.get("win_length", kw["n_fft"])
    w = np.hanning(win + 2)[1:-1]

    def run(m):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (warned once per process: test below)
            t = m.tensor(x, requires_grad=True)
            args = dict(return_complex=True)
            args.update(kw)
            if windowed:
                args["window"] = m.tensor(w)
            y = m.stft(t, **args)
        yr = m.view_as_real(y) if y.is_complex() else y
        g, = m.autograd.grad((yr * m.tensor(np.cos(np.arange(yr.numel()))).reshape(
            tuple(yr.shape))).sum(), t)
        return _graph(y), str(y.dtype).rsplit(".", 1)[-1], _np(y), g.numpy()

    a, t = run(autotensor), run(torch)
    assert a[0] == t[0] and a[1] == t[1]
    np.testing.assert_allclose(a[2], t[2], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(a[3], t[3], rtol=1e-10, atol=1e-12)


def test_stft_warns_once_as_torch():
    """aten warns once per process (TORCH_WARN_ONCE) for a missing window and for
    return_complex=False; the texts are PyTorch's."""
    import warnings
    from autotensor._ops import fft as F
    F._WARNED.clear()
    x = autotensor.zeros(16)
    for _ in range(2):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x.stft(8, return_complex=False)
        texts = [str(c.message) for c in caught]
        if _ == 0:
            assert len(texts) == 2
            assert texts[0].startswith("stft with return_complex=False is deprecated.")
            assert texts[1].startswith("A window was not provided. A rectangular window will ")
        else:
            assert texts == []


@pytest.mark.parametrize("kw", [dict(n_fft=8), dict(n_fft=8, hop_length=3, win_length=6),
                                dict(n_fft=8, hop_length=4, center=False),
                                dict(n_fft=7, normalized=True, length=21),
                                dict(n_fft=8, length=40), dict(n_fft=8, onesided=False)])
@pytest.mark.parametrize("shape", [(30,), (2, 25)])
def test_istft_round_trip_values_gradients_graphs_vs_torch(kw, shape):
    """istft(stft(x)) recovers x (where the window envelope allows), and the values,
    gradients (w.r.t. the spectrum and the window) and graph are PyTorch's."""
    import warnings
    x = _rng(12).standard_normal(shape)
    win = kw.get("win_length", kw["n_fft"])
    w = np.hanning(win + 2)[1:-1]
    spec_kw = {k: v for k, v in kw.items() if k not in ("length",)}

    def run(m):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wt = m.tensor(w, requires_grad=True)
            spec = m.stft(m.tensor(x), window=wt.detach(), return_complex=True, **spec_kw)
            spec.requires_grad_()
            y = m.istft(spec, window=wt, **kw)
        g = m.autograd.grad((y * m.tensor(np.sin(np.arange(y.numel()))).reshape(
            tuple(y.shape))).sum(), (spec, wt))
        return _graph(y), y.detach().numpy(), [q.resolve_conj().numpy() for q in g]

    a, t = run(autotensor), run(torch)
    assert a[0] == t[0]
    np.testing.assert_allclose(a[1], t[1], rtol=1e-10, atol=1e-12)
    for p, q in zip(a[2], t[2], strict=True):
        np.testing.assert_allclose(p, q, rtol=1e-10, atol=1e-12)
    if "length" not in kw and kw.get("center", True):
        n = a[1].shape[-1]  # (the signal's tail past the last whole frame is not recovered)
        np.testing.assert_allclose(a[1], x[..., :n], rtol=1e-10, atol=1e-12)


# ---- window functions --------------------------------------------------------------------
WINDOWS = ["hann_window", "hamming_window", "blackman_window", "bartlett_window",
           "kaiser_window"]
# float64 to a few ulps (kaiser: its I0 ratio, ~1e-15), float32 to the ulp or two of
# PyTorch's vectorised cos, the half types to one or two of their ulps (measured: max
# |difference| 2.4e-3 float16, 2e-2 bfloat16 around values of ~1)
_WINDOW_ATOL = {"float64": 2e-15, "float32": 8e-7, "float16": 3e-3, "bfloat16": 2.5e-2}


@pytest.mark.parametrize("dtype", sorted(_WINDOW_ATOL))
@pytest.mark.parametrize("name", WINDOWS)
def test_window_functions_like_torch(name, dtype):
    for n in (0, 1, 2, 3, 5, 8, 17, 64, 255):
        for periodic in (True, False):
            got = getattr(autotensor, name)(n, periodic, dtype=getattr(autotensor, dtype))
            want = getattr(torch, name)(n, periodic, dtype=getattr(torch, dtype))
            assert str(got.dtype) == str(want.dtype)
            np.testing.assert_allclose(got.float().numpy(), want.float().numpy(), rtol=0,
                                       atol=_WINDOW_ATOL[dtype], err_msg=f"{n} {periodic}")


def test_window_options_and_errors_like_torch():
    def run(m):
        out = [m.hamming_window(7, False, 0.6, 0.3).tolist(),
               m.kaiser_window(9, False, 5.0, dtype=m.float64).tolist(),
               m.hann_window(4, requires_grad=True).requires_grad,
               m.hann_window(4).dtype.is_floating_point, list(m.blackman_window(6).shape)]
        for call in (lambda: m.hann_window(-1), lambda: m.hann_window(3, dtype=m.int64),
                     lambda: m.kaiser_window(3, dtype=m.bool),
                     lambda: m.bartlett_window(3, dtype=m.complex64)):
            with pytest.raises(RuntimeError) as info:
                call()
            out.append(str(info.value))
        return out

    ours, want = run(autotensor), run(torch)
    np.testing.assert_allclose(ours[0], want[0], atol=1e-6)
    np.testing.assert_allclose(ours[1], want[1], rtol=1e-14)
    assert ours[2:] == want[2:]


@pytest.mark.parametrize("case", [(20, 8, 3, 4, (20,)), (20, 8, 3, 4, (2, 20)),
                                  (20, 8, 2, 8, (20,)), (17, 6, 1, 2, (3, 17)),
                                  (20, 8, 3, 5, (20,))])
def test_stft_align_to_window_like_torch(case):
    """Frames of win_length at every hop, each centred in its n_fft (the signal padded by
    (n_fft - win_length) // 2 on both sides: ConstantPadNdBackward0 in the graph); an odd
    difference overruns the storage in PyTorch too (its setStorage error)."""
    length, n_fft, hop, win, shape = case

    def run(m):
        x = m.tensor(np.sin(np.arange(np.prod(shape))).reshape(shape), requires_grad=True)
        w = m.tensor(np.hanning(win + 2)[1:-1])
        try:
            r = m.stft(x, n_fft, hop_length=hop, win_length=win, window=w, center=False,
                       return_complex=True, align_to_window=True)
        except RuntimeError as e:
            return str(e)
        g, = m.autograd.grad(r.abs().sum(), [x])
        names, node = [], r.grad_fn
        while node is not None:
            names.append(node.name())
            node = next((f for f, _ in node.next_functions if f is not None), None)
        return tuple(r.shape), names, r.detach().numpy(), g.numpy()

    ours, want = run(autotensor), run(torch)
    if isinstance(want, str):
        assert ours == want
        return
    assert ours[:2] == want[:2]
    np.testing.assert_allclose(ours[2], want[2], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ours[3], want[3], rtol=1e-12, atol=1e-12)
