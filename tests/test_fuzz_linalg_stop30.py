"""Stop 30, helper la30: float32 linear algebra against PyTorch's MKL (pending_stop29's
end_repro_006, 008, 010, fin_repro_005, 010, 019 and la29_repro_002):

- float32 LU (det, slogdet, logdet, inv, solve, lu_factor) up to 16 x 16 takes MKL's sgetrf /
  sgetrs steps (Note [float32 LU as MKL's]): the LU bit for bit, a singular matrix's det
  0.0 (NumPy's double route: a residue), the rank-1 outer(v, v)'s inverse as PyTorch's;
  the forward rules and the solves of the backward with the forward's LU;
- svd with singular vectors of a tall matrix (m >= 3n/2, n >= 3) holding an infinity
  refuses as MKL's gesdd, unless the infinity is A[0, 0] alone;
- the fuzzer's excuse for float32 linear algebra's rounding (tests/fuzz/core.py Note
  [float32 linear algebra's rounding]): pinverse's SVD ulps amplified by kappa, and the
  rounding residues of singular problems, are excused; a wrong formula is not."""
import os
import warnings

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_HERE = os.path.dirname(os.path.abspath(__file__))
_F32 = np.float32


@pytest.mark.parametrize("name", ["end_repro_006", "end_repro_008", "end_repro_010",
                                  "fin_repro_005", "fin_repro_010", "fin_repro_019",
                                  "la29_repro_002"])
def test_stop29_reproducers(name):
    from tests.fuzz.core import run_reproducer
    run_reproducer(os.path.join(_HERE, "fuzz", "pending_stop29", f"{name}.py"))


def _matrix(rng, m, n, kind):
    if kind == "rand":
        a = rng.standard_normal((m, n))
    elif kind == "rankdef":
        k = max(min(m, n) - 1, 1)
        a = rng.standard_normal((m, k)) @ rng.standard_normal((k, n))
    elif kind == "outer":
        a = np.outer(rng.standard_normal(m), rng.standard_normal(n))
    else:  # (ill-conditioned: singular values down to 1e-5)
        u, _ = np.linalg.qr(rng.standard_normal((m, m)))
        v, _ = np.linalg.qr(rng.standard_normal((n, n)))
        s = np.zeros((m, n))
        k = min(m, n)
        s[range(k), range(k)] = np.logspace(0, -rng.uniform(1, 5), k)
        a = u @ s @ v.T
    return np.round(a, 3).astype(_F32)


_KINDS = ("rand", "rankdef", "outer", "illc")


# ---- float32 LU as MKL's ------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (4, 4), (5, 5), (8, 8), (16, 16), (3, 2),
                                   (2, 3), (4, 6), (6, 4), (8, 5)])
def test_float32_lu_factor_bit_for_bit(shape):
    """MKL's sgetrf: the pivot column scaled by 1 / pivot (divided in the next-to-last column
    of square matrices up to 4 x 4), fused trailing updates."""
    rng = np.random.default_rng(sum(shape))
    for i in range(24):
        a = _matrix(rng, *shape, _KINDS[i % 4])
        LU, piv, info = autotensor.linalg.lu_factor_ex(autotensor.tensor(a))
        tLU, tpiv, tinfo = torch.linalg.lu_factor_ex(torch.tensor(a))
        assert np.array_equal(LU.numpy(), tLU.numpy()), (shape, i)
        assert np.array_equal(piv.numpy(), tpiv.numpy()) and int(info) == int(tinfo)


def test_det_of_singular_float32_matrix_and_its_tangent_zero():
    """fin_repro_005: det([[a, a], [b, b]]) is 0.0 in PyTorch (getrf of A^T: an exact zero
    pivot), NumPy's double route gave -9.8e-17; the tangent det * tr(A^-1 dA) is +0.0."""
    v = np.array([1.764, 0.4], _F32)
    vt = np.array([1.624, -0.612], _F32)
    out = []
    for m in (autotensor, torch):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            d = fw.make_dual(m.tensor(v), m.tensor(vt))
            p, t = fw.unpack_dual(m.stack([d, d], dim=-1).det())
            out.append((float(p), float(t)))
    (p, t), (tp, tt) = out
    assert p == tp == 0.0 and t == tt == 0.0
    assert np.signbit(p) == np.signbit(tp) and np.signbit(t) == np.signbit(tt)


def test_inverse_of_rank_one_float32_matrix_as_pytorch():
    """la29_repro_002: the inverse of outer(v, v) is read off sgetrf's rounding residue
    (entries ~2.5e7 in PyTorch with MKL's fused updates, 1.8e7 through NumPy's double route;
    where MKL does not fuse, an AMD CPU, the last pivot is an exact zero: both refuse)."""
    v = np.array([1.764, 0.4, 0.979], _F32)
    a = np.outer(v, v).astype(_F32)

    def inverse(m):
        try:
            return m.tensor(a).inverse().numpy()
        except RuntimeError as e:
            return str(e)
    ours, theirs = inverse(autotensor), inverse(torch)
    if isinstance(theirs, str):
        assert ours == theirs
    else:
        np.testing.assert_allclose(ours, theirs, rtol=2e-6, atol=1e-6 * np.abs(theirs).max())


def _close(a, e):
    a, e = np.asarray(a, float), np.asarray(e, float)
    if a.shape != e.shape or not np.array_equal(np.isnan(a), np.isnan(e)):
        return False
    f = np.isfinite(e)
    if not np.array_equal(a[~f], e[~f]) and not np.isnan(e[~f]).all():
        return False
    scale = max(1.0, float(np.abs(e[f]).max())) if f.any() else 1.0
    return bool((np.abs(a[f] - e[f]) <= 2e-6 * np.abs(e[f]) + 1e-6 * scale).all())


_OPS = {
    "det": lambda m, a, b: m.linalg.det(a),
    "det_of_transposed": lambda m, a, b: m.linalg.det(a.mT),
    "slogdet": lambda m, a, b: m.linalg.slogdet(a)[1],
    "logdet": lambda m, a, b: a.logdet(),
    "inverse": lambda m, a, b: a.inverse(),
    "inv_ex": lambda m, a, b: m.linalg.inv_ex(a)[0],
    "solve": lambda m, a, b: m.linalg.solve(a, b),
    "solve_right": lambda m, a, b: m.linalg.solve(a, b.mT, left=False),
    "solve_vector": lambda m, a, b: m.linalg.solve(a, b[..., 0]),
    "matrix_power": lambda m, a, b: m.linalg.matrix_power(a, -2),
}


def _run(m, op, a, at, b, bt):
    fw = m.autograd.forward_ad
    with fw.dual_level():
        r = _OPS[op](m, fw.make_dual(m.tensor(a), m.tensor(at)),
                     fw.make_dual(m.tensor(b), m.tensor(bt)))
        value, tangent = (x.detach().numpy().copy() for x in fw.unpack_dual(r))
    x = m.tensor(a, requires_grad=True)
    r = _OPS[op](m, x, m.tensor(b))
    r.backward(m.ones_like(r))
    return value, tangent, x.grad.numpy().copy()


@pytest.mark.parametrize("op", sorted(_OPS))
def test_float32_lu_family_values_tangents_gradients(op):
    """Rank-deficient, rank-1 and ill-conditioned float32 matrices 2..6 x 2..6 (and a
    batch): values, forward-AD tangents and gradients at the fuzzer's float32 tolerance
    (before: 15-20 of 80 inverses / solves of rank-deficient matrices agreed)."""
    rng = np.random.default_rng(len(op))
    bad = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in (2, 3, 4, 6):
            for kind in _KINDS:
                for batch in ((), (2,)):
                    a = np.stack([_matrix(rng, n, n, kind) for _ in range(2)]) if batch \
                        else _matrix(rng, n, n, kind)
                    at = np.round(rng.standard_normal(a.shape), 3).astype(_F32)
                    b = np.round(rng.standard_normal(batch + (n, 2)), 3).astype(_F32)
                    bt = np.round(rng.standard_normal(b.shape), 3).astype(_F32)
                    ours = _run(autotensor, op, a, at, b, bt)
                    theirs = _run(torch, op, a, at, b, bt)
                    for what, x, y in zip(("value", "tangent", "gradient"), ours, theirs):
                        if not _close(x, y):
                            bad.append((n, kind, batch, what))
    # (det's gradient of a rank-1 matrix: PyTorch's cofactors through its SVD, ours in
    # double; getrs's transposed substitutions (solve with left=False) are not MKL's bit
    # for bit: an ill-conditioned matrix's rounding decides a few)
    assert len(bad) <= 3, bad


# ---- svd of tall matrices with an infinity ------------------------------------------------
_REFUSED = ("linalg.svd: {}The algorithm failed to converge because the input matrix is "
            "ill-conditioned or has too many repeated singular values (error code: {}).")


@pytest.mark.parametrize("shape", [(4, 3), (5, 3), (6, 4), (7, 5), (12, 8)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_svd_of_tall_matrix_with_an_infinity_refused(shape, dtype):
    """fin_repro_010: MKL's gesdd refuses a tall matrix (m >= 3n/2) with an infinity
    anywhere but alone at A[0, 0]; svdvals computes; m < 3n/2 computes."""
    m, n = shape
    rng = np.random.default_rng(m * n)
    a = np.round(rng.standard_normal(shape), 3)
    a[m - 1, 1] = np.inf
    for lib in (autotensor, torch):
        t = lib.tensor(a, dtype=getattr(lib, dtype))
        for f in (lambda x, lib=lib: lib.linalg.svd(x, full_matrices=False), lib.linalg.pinv,
                  lambda x: x.pinverse(), lib.svd):
            with pytest.raises(RuntimeError) as e:
                f(t)
            assert str(e.value) == _REFUSED.format("", n - 1)
            assert type(e.value).__name__ == "_LinAlgError"
        batch = lib.stack([t.nan_to_num(posinf=1.0), t])
        with pytest.raises(RuntimeError, match=r"\(Batch element 1\): The algorithm failed"):
            lib.linalg.svd(batch)
        assert np.isnan(lib.linalg.svdvals(t).numpy()).all()
    a[m - 1, 1] = 0.5
    a[0, 0] = np.inf  # (alone at A[0, 0]: computed by both)
    for lib in (autotensor, torch):
        lib.linalg.svd(lib.tensor(a, dtype=getattr(lib, dtype)))
    if m < 2 * n:  # (the transpose, wide: computed)
        for lib in (autotensor, torch):
            lib.linalg.svd(lib.tensor(a.T.copy(), dtype=getattr(lib, dtype)))


def test_svd_of_less_tall_matrix_with_an_infinity_computes():
    """5 x 4 (m < 3n/2) and n = 2: MKL computes (S NaN), so do we."""
    for shape in ((5, 4), (4, 2), (3, 3)):
        a = np.round(np.random.default_rng(3).standard_normal(shape), 3)
        a[2, 1] = np.inf
        for lib in (autotensor, torch):
            S = lib.linalg.svd(lib.tensor(a, dtype=lib.float32), full_matrices=False)[1]
            assert np.isnan(S.numpy()).any()


# ---- the fuzzer's excuse -------------------------------------------------------------------
_PINV_LINES = [
    "torch.autograd.forward_ad.enter_dual_level()",
    "v0 = torch.tensor(np.array([[1.624, -0.612, -0.528], [-1.073, 0.865, -2.302], "
    "[1.745, -0.761, 0.319]], dtype='float32'))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.417, -0.056, "
    "-2.136], [1.64, -1.793, -0.842], [0.503, -1.245, -1.058]], dtype='float32')))",
    "v1 = v0.pinverse()",
]


def _split(lines):
    from tests.fuzz.core import _defined
    return [(src, _defined(src)) for src in lines]


def test_fuzzer_excuses_pinverse_rounding():
    """end_repro_006's matrix (kappa 94): pinverse's tangents differ by 3e-5 relative (the
    SVDs' ulps amplified; from PyTorch's own pinverse value our formula gives its tangent to
    1e-6): as close to PyTorch's float64 answer as PyTorch's float32 one is: excused."""
    from tests.fuzz.core import _linalg_rounding, run_and_compare
    run_and_compare(_PINV_LINES)
    assert _linalg_rounding(_split(_PINV_LINES), 3, autotensor)


def test_fuzzer_refuses_a_wrong_pinverse_tangent(monkeypatch):
    """The same line with a tangent 0.1% off (a wrong formula) is not excused."""
    from autotensor._ops import linalg
    from tests.fuzz.core import Mismatch, _linalg_rounding, run_and_compare
    orig = linalg._pinv_jvp
    monkeypatch.setattr(linalg, "_pinv_jvp", lambda F, A, P, dA: orig(F, A, P, dA) * 1.001)
    assert not _linalg_rounding(_split(_PINV_LINES), 3, autotensor)
    try:
        with pytest.raises(Mismatch):
            run_and_compare(_PINV_LINES)
    finally:
        if autotensor.autograd.forward_ad._current[0] >= 0:
            autotensor.autograd.forward_ad.exit_dual_level()


def test_fuzzer_excuse_is_for_linear_algebra_only():
    """A line that is not a linear-algebra op is never excused by it."""
    from tests.fuzz.core import _linalg_rounding
    lines = _split(_PINV_LINES[:3] + ["v1 = v0.exp()"])
    assert not _linalg_rounding(lines, 3, autotensor)


def test_fuzzer_excuses_a_matrix_singular_in_float32():
    """pinverse of stack([r, r], -1): kappa 2.5e16 in double, every digit of either
    float32 result (entries ~3e6) is rounding; PyTorch's float64 answer even takes rcond's
    cut. Excused, values and tangents; the same line of a regular matrix is compared."""
    from tests.fuzz.core import _linalg_rounding, run_and_compare
    lines = [
        "torch.autograd.forward_ad.enter_dual_level()",
        "v0 = torch.tensor(np.array([[0.307, 1.398, 2.463, 1.278], [0.997, -1.761, -0.351, "
        "-0.352], [0.162, -0.906, 0.819, 1.279], [0.134, -0.268, 0.212, 0.402]], "
        "dtype='float32'))",
        "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[0.815, -0.842, "
        "1.468, 0.054], [-0.156, 0.709, -0.684, 0.894], [2.165, 0.452, 0.22, -0.465], "
        "[1.51, 1.147, -1.506, 0.986]], dtype='float32')))",
        "v1 = torch.stack([v0[0], v0[0]], dim=-1)",
        "v2 = v1.pinverse()",
    ]
    run_and_compare(lines)
    assert _linalg_rounding(_split(lines), 4, autotensor)
    regular = lines[:3] + ["v1 = v0 * 2", "v2 = v1.pinverse()"]
    run_and_compare(regular)
