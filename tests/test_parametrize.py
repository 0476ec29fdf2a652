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
