"""nn.utils.parametrize / parametrizations (weight_norm, spectral_norm) and the legacy
nn.utils.weight_norm against torch: class swap and repr, state-dict keys, RNG draws of
spectral_norm's u and v, values and gradients, assignment through right_inverse, removal."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

X = np.random.default_rng(3).standard_normal((4, 5)).astype(np.float32)
IMG = np.random.default_rng(4).standard_normal((2, 3, 6, 6)).astype(np.float32)


def _np(t):
    return t.detach().numpy().copy()


def _apply(m, case, mod):
    P = m.nn.utils.parametrizations
    if case == "weight_norm":
        return P.weight_norm(mod)
    if case == "weight_norm-dim1":
        return P.weight_norm(mod, dim=1)
    if case == "weight_norm-none":
        return P.weight_norm(mod, dim=None)
    if case == "spectral_norm":
        return P.spectral_norm(mod, n_power_iterations=2)
    if case == "legacy_weight_norm":
        return m.nn.utils.weight_norm(mod)
    if case == "custom":
        class Symmetric(m.nn.Module):
            def forward(self, x):
                return x.triu() + x.triu(1).transpose(0, 1)
        m.nn.utils.parametrize.register_parametrization(mod, "weight", Symmetric())
        return mod
    raise AssertionError(case)


@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.parametrize("layer,case", [
    (layer, case) for layer in ("linear", "conv")
    for case in ("weight_norm", "weight_norm-dim1", "weight_norm-none", "spectral_norm",
                 "legacy_weight_norm", "custom")
    if not (case == "custom" and layer == "conv")])  # Symmetric needs a square matrix
def test_parametrization_matches_torch(case, layer):
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        mod = m.nn.Linear(5, 5) if layer == "linear" else m.nn.Conv2d(3, 4, 3)
        mod = _apply(m, case, mod)
        x = m.tensor(X if layer == "linear" else IMG, requires_grad=True)
        y = mod(x)
        y2 = mod(x)                       # spectral norm: a second power iteration
        (y * y2).sum().backward()
        sd = mod.state_dict()
        res.append((repr(mod), type(mod).__name__, list(sd), [_np(v) for v in sd.values()],
                    _np(y), _np(x.grad), [_np(p.grad) for p in mod.parameters()],
                    m.get_rng_state().numpy().tobytes(), _np(mod.weight)))
    assert res[0][:3] == res[1][:3]
    for a, b in zip(res[0][3], res[1][3]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    for i in (4, 5, 8):
        np.testing.assert_allclose(res[0][i], res[1][i], rtol=1e-5, atol=1e-5)
    for a, b in zip(res[0][6], res[1][6]):   # float32 sums of ~100 terms of size ~30
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5 * np.abs(b).max())
    assert res[0][7] == res[1][7]


def test_assign_cache_and_remove_match_torch():
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        P, R = m.nn.utils.parametrizations, m.nn.utils.parametrize
        lin = P.weight_norm(m.nn.Linear(5, 3))
        with m.no_grad():
            lin.weight = m.ones(3, 5) * 2        # through right_inverse: g, v recomputed
        g = _np(lin.parametrizations.weight.original0)
        with R.cached():
            same = lin.weight is lin.weight
        flags = (R.is_parametrized(lin), R.is_parametrized(lin, "bias"), same)
        R.remove_parametrizations(lin, "weight")
        res.append((g, flags, type(lin).__name__, repr(lin), list(lin.state_dict()),
                    _np(lin.weight), type(lin.weight).__name__))
    np.testing.assert_allclose(res[0][0], res[1][0], rtol=1e-6)
    assert res[0][1:5] == res[1][1:5]
    np.testing.assert_allclose(res[0][5], res[1][5], rtol=1e-6)
    assert res[0][6] == res[1][6]


def test_parametrized_module_deepcopies_and_refuses_pickling_as_torch(tmp_path):
    import copy
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        lin = m.nn.utils.parametrizations.weight_norm(m.nn.Linear(3, 2))
        c = copy.deepcopy(lin)
        swa = m.optim.swa_utils.AveragedModel(lin)
        x = m.ones(1, 3)
        with pytest.raises(RuntimeError) as info:
            m.save(lin, str(tmp_path / "lin.pt"))
        res.append((type(c).__name__, repr(c), _np(c(x)), _np(swa(x)), list(swa.state_dict()),
                    str(info.value).splitlines()[0]))
    assert res[0][:2] == res[1][:2] and res[0][4:] == res[1][4:]
    np.testing.assert_allclose(res[0][2], res[1][2], rtol=1e-6)
    np.testing.assert_allclose(res[0][3], res[1][3], rtol=1e-6)


def _orth_run(m, shape, omap, triv, dtype, batch):
    m.manual_seed(0)
    dt = getattr(m, dtype)
    if batch:                                  # a batch of matrices in a buffer
        mod = m.nn.Module()
        mod.register_buffer("w", m.randn(2, *shape, dtype=dt))
        m.nn.utils.parametrizations.orthogonal(mod, "w", omap, use_trivialization=triv)
        W = mod.w
        x = None
    else:
        mod = m.nn.Linear(shape[1], shape[0]).to(dt)
        m.nn.utils.parametrizations.orthogonal(mod, orthogonal_map=omap,
                                               use_trivialization=triv)
        x = m.linspace(-1, 1, 2 * shape[1], dtype=dt).reshape(2, shape[1])
        W = mod.weight
        (mod(x) * mod(x).sin()).sum().backward()
    n, k = W.shape[-2:]
    gram = W.mT @ W if n >= k else W @ W.mT
    return (repr(mod), list(mod.state_dict()), _np(W), _np(gram),
            [_np(p.grad) for p in mod.parameters()], m.get_rng_state().numpy().tobytes(),
            type(W.grad_fn).__name__)


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)])
@pytest.mark.parametrize("omap", [None, "matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("triv", [True, False])
@pytest.mark.parametrize("dtype,batch", [("float64", False), ("float32", False),
                                         ("float64", True)])
def test_orthogonal_matches_torch(shape, omap, triv, dtype, batch):
    """Same initial weight (QR of the default init, torch's randn completion for a
    non-square base), same values, gradients, state-dict keys, repr and RNG state."""
    a, b = _orth_run(autotensor, shape, omap, triv, dtype, batch), \
        _orth_run(torch, shape, omap, triv, dtype, batch)
    tol = 1e-12 if dtype == "float64" else 2e-6
    assert a[:2] == b[:2] and a[5:] == b[5:]
    np.testing.assert_allclose(a[2], b[2], atol=tol)
    np.testing.assert_allclose(a[3], np.broadcast_to(np.eye(min(shape)), a[3].shape),
                               atol=100 * tol)
    for ga, gb in zip(a[4], b[4]):
        np.testing.assert_allclose(ga, gb, atol=10 * tol, rtol=10 * tol)


def test_orthogonal_assignment_and_errors_match_torch():
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        P = m.nn.utils.parametrizations
        lin = P.orthogonal(m.nn.Linear(3, 5).double())
        Q = m.linalg.qr(m.randn(5, 3, dtype=m.float64))[0]
        lin.weight = Q                                   # orthogonal: kept as given
        w1 = _np(lin.weight)
        h = P.orthogonal(m.nn.Linear(4, 4).double(), orthogonal_map="householder",
                         use_trivialization=False)
        h.weight = Q[:4, :3].repeat(1, 2)[:, :4] + 2 * m.eye(4, dtype=m.float64)
        w2 = _np(h.weight)
        errs = []
        for call in (lambda m, P, lin: P.orthogonal(m.nn.Linear(3, 3), orthogonal_map="qr"),
                     lambda m, P, lin: P.orthogonal(m.nn.BatchNorm1d(3)),
                     lambda m, P, lin: P.orthogonal(m.nn.Linear(3, 3), "nope"),
                     lambda m, P, lin: setattr(lin, "weight", m.zeros(3, 5, dtype=m.float64)),
                     lambda m, P, lin: setattr(P.orthogonal(m.nn.Linear(3, 3),
                                                            use_trivialization=False),
                                               "weight", m.eye(3))):
            with pytest.raises(Exception) as info:
                call(m, P, lin)
            errs.append((type(info.value).__name__, str(info.value)))
        res.append((w1, w2, _np(Q), errs))
    np.testing.assert_allclose(res[0][0], res[0][2], atol=1e-12)
    np.testing.assert_allclose(res[0][0], res[1][0], atol=1e-12)
    np.testing.assert_allclose(res[0][1], res[1][1], atol=1e-12)
    assert res[0][3] == res[1][3]


def test_transfer_parametrizations_and_params_matches_torch():
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        P, R = m.nn.utils.parametrizations, m.nn.utils.parametrize
        src = P.orthogonal(m.nn.Linear(4, 4))
        R.register_parametrization(src, "weight", _Double(m))
        P.weight_norm(src, "bias", dim=None)    # originals original0, original1
        dst = m.nn.Linear(4, 4)
        R.transfer_parametrizations_and_params(src, dst)
        only = R.transfer_parametrizations_and_params(src, m.nn.Identity(), "bias")
        x = m.ones(2, 4)
        shared = (dst.parametrizations.weight.original is src.parametrizations.weight.original,
                  dst.parametrizations.bias.original1 is src.parametrizations.bias.original1)
        res.append((repr(dst), list(dst.state_dict()), _np(dst(x)), _np(src(x)), shared,
                    repr(only), list(only.state_dict()), _np(only.bias),
                    R.type_before_parametrizations(dst).__name__,
                    R.type_before_parametrizations(m.nn.Linear(1, 1)).__name__,
                    R.transfer_parametrizations_and_params(m.nn.Linear(1, 1), dst) is dst))
    assert res[0][:2] == res[1][:2] and res[0][4:7] == res[1][4:7]
    assert res[0][8:] == res[1][8:]
    for i in (2, 3, 7):
        np.testing.assert_allclose(res[0][i], res[1][i], rtol=1e-6, atol=1e-6)


def _Double(m):
    class Double(m.nn.Module):
        def forward(self, x):
            return 2 * x

        def right_inverse(self, x):
            return x / 2
    return Double()


@pytest.mark.parametrize("layer", ["linear", "convT"])
def test_legacy_spectral_norm_matches_torch(layer):
    """The hook-based nn.utils.spectral_norm: u/v draws, in-place power iterations in
    training, state dict (weight_orig, u, v; version metadata), loading, removal."""
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        mod = m.nn.Linear(5, 4) if layer == "linear" else m.nn.ConvTranspose2d(3, 2, 3)
        mod = m.nn.utils.spectral_norm(mod, n_power_iterations=2)
        x = m.tensor(X if layer == "linear" else IMG[:, :, :4, :4], requires_grad=True)
        y = mod(x)
        y2 = mod(x)
        (y * y2).sum().backward()
        sd = mod.state_dict()
        meta = dict(sd._metadata[""])
        mod.eval()
        y3 = mod(x)
        other = m.nn.utils.spectral_norm(
            m.nn.Linear(5, 4) if layer == "linear" else m.nn.ConvTranspose2d(3, 2, 3))
        other.load_state_dict(sd)
        with pytest.raises(RuntimeError) as info:
            m.nn.utils.spectral_norm(mod)
        m.nn.utils.remove_spectral_norm(mod)
        with pytest.raises(ValueError) as info2:
            m.nn.utils.remove_spectral_norm(mod)
        res.append((repr(mod), list(sd), meta, [_np(v) for v in sd.values()], _np(y2),
                    _np(x.grad), [_np(p.grad) for p in mod.parameters() if p.grad is not None],
                    _np(y3), _np(other.weight_v), _np(mod.weight), list(mod.state_dict()),
                    str(info.value), str(info2.value).split(" in ")[0],
                    m.get_rng_state().numpy().tobytes()))
    a, b = res
    assert a[:3] == b[:3] and a[10:] == b[10:]
    for i in (4, 5, 7, 8, 9):
        np.testing.assert_allclose(a[i], b[i], rtol=1e-5, atol=1e-5)
    for i in (3, 6):
        for u, v in zip(a[i], b[i]):
            np.testing.assert_allclose(u, v, rtol=1e-4, atol=1e-5)


def test_stateless_functional_call_warns_and_calls():
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        lin = m.nn.Linear(3, 2)
        with pytest.warns(FutureWarning) as w:
            y = m.nn.utils.stateless.functional_call(
                lin, {"weight": m.ones(2, 3), "bias": m.zeros(2)}, (m.ones(1, 3),))
        res.append((_np(y), str(w[0].message), _np(lin.weight)))
    np.testing.assert_array_equal(res[0][0], res[1][0])
    assert res[0][1] == res[1][1]
    np.testing.assert_array_equal(res[0][2], res[1][2])
