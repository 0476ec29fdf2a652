"""Stop 28, helper la28: linear algebra against PyTorch on the end-of-stop-27 reproducers'
classes (tests/fuzz/pending_stop27/end_repro_016, 017, 018, 021, 023, 024):

- empty inputs of dtypes a kernel refuses (float16, bfloat16, int64, bool, complex64):
  PyTorch's ops return the empty results before the kernel is dispatched (svd, eigh,
  cholesky, lu_factor and det, solve, lu_solve, ldl_factor/solve), others still refuse;
- non-finite inputs: the errors of LAPACK's failures (torch.linalg.LinAlgError's words and
  batch element; MKL's least-squares argument checks) and the values of det, slogdet,
  logdet, qr and geqrf, whose NaN and infinity placement follows getrf's and geqr2's steps;
- forward AD of those (det's and slogdet's LU solves, linalg_qr_jvp), and matrix_exp's
  tangent, which requires grad only when its primal or tangent does.
Compared with the stop-27 sweep's harness (tests/test_fuzz_linalg_stop27.py): the error's
type and message, or the results' structure, dtypes, shapes and values; tangents by NaN and
infinity placement exactly and finite values to 1e-7 (float64) / 1e-3 (float32)."""
import warnings

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

from tests import test_fuzz_linalg_stop27 as S  # noqa: E402  (the stop-27 sweep's harness)

_NS = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])


def _empty_inputs(m):
    d = {}
    for dt in ("float16", "bfloat16", "int64", "bool", "complex64"):
        t = getattr(m, dt)
        d[f"e0x0_{dt}"] = m.zeros(0, 0, dtype=t)
        d[f"e0x3_{dt}"] = m.zeros(0, 3, dtype=t)
        d[f"e3x0_{dt}"] = m.zeros(3, 0, dtype=t)
        d[f"eb0_{dt}"] = m.zeros(0, 3, 3, dtype=t)
    return d


def _nonfinite_inputs(m):
    d = {}
    for dt in ("float64", "float32"):
        t = getattr(m, dt)
        for name, idx, v in (("nan", (0, 1), np.nan), ("inf", (0, 1), np.inf),
                             ("ninf", (2, 2), -np.inf), ("lnan", (1, 0), np.nan)):
            a = _NS.copy()
            a[idx] = v
            d[f"{name}_{dt}"] = m.tensor(a, dtype=t)
        a = np.stack([_NS, _NS])
        a[1, 1, 0] = np.nan
        d[f"bnan_{dt}"] = m.tensor(a, dtype=t)
    return d


# (LAPACK internals PyTorch's MKL does not share with NumPy's LAPACK, or that segfault)
_SKIP_NONFINITE = {"la.eig", "la.eigvals", "la.cond", "cond"}
_LSTSQ_INF = ("lstsq of an infinite A: MKL's drivers return rank/solution values of their "
              "own (gelsd reports an illegal argument from an inner dlascl); NumPy's raise")
_LDL = ("ldl_factor of a NaN: MKL's sytrf takes the NaN column on (no info); ours stops "
        "as LAPACK's reference sytf2 does")


_SVD_INF = ("pinv of a 3 x 3 with an infinity (stop 29, la29): OpenBLAS's gesdd never "
            "returns on some such matrices, so they do not reach LAPACK and give NaN; MKL's "
            "U and V are finite here (its pinv zeros)")


def _open_nonfinite(call, iname):
    if "lstsq" in call and "inf" in iname:
        return _LSTSQ_INF
    if call in ("pinverse", "la.pinv") and iname.startswith("ninf"):
        return _SVD_INF
    if call in ("la.ldl_factor", "la.ldl_factor_ex", "la.ldl_solve"):
        return _LDL
    return None


def _diff_with(inputs, call, iname):
    orig = S._inputs
    S._inputs = inputs
    try:
        return S._diff(call, iname)
    finally:
        S._inputs = orig


EMPTY = [(c, i) for c in S.CALLS for i in _empty_inputs(torch)]


@pytest.mark.parametrize("call,iname", EMPTY, ids=[f"{c}-{i}" for c, i in EMPTY])
def test_empty_inputs_of_refused_dtypes(call, iname):
    d = _diff_with(_empty_inputs, call, iname)
    assert d is None, d


NONFINITE = [(c, i) for c in S.CALLS if c not in _SKIP_NONFINITE
             for i in _nonfinite_inputs(torch)]


@pytest.mark.parametrize("call,iname", NONFINITE, ids=[f"{c}-{i}" for c, i in NONFINITE])
def test_nonfinite_inputs(call, iname):
    reason = _open_nonfinite(call, iname)
    if reason:
        pytest.skip(reason)
    d = _diff_with(_nonfinite_inputs, call, iname)
    assert d is None, d


def test_svd_family_raises_linalg_error_for_nan():
    a = _NS.copy()
    a[1, 0] = np.nan
    for lib in (torch, autotensor):
        x = lib.tensor(np.stack([_NS, a]))
        for f in (lib.linalg.svd, lib.pinverse, lambda x, lib=lib: lib.linalg.matrix_norm(
                x, "nuc"), lib.linalg.svdvals, lib.linalg.matrix_rank):
            with pytest.raises(lib.linalg.LinAlgError, match=r"^linalg.svd: \(Batch element "
                               r"1\): The algorithm failed to converge because the input "
                               r"matrix contained non-finite values.$"):
                f(x)
        assert issubclass(lib.linalg.LinAlgError, RuntimeError)
        assert lib.linalg.LinAlgError.__name__ == "_LinAlgError"


@pytest.mark.parametrize("n", [3, 5, 30])
def test_eigh_error_codes_for_nan(n):
    a = np.eye(n) * 2 + 0.1
    a[n - 1, 0] = np.nan
    got = []
    for lib in (torch, autotensor):
        r = []
        for f in (lib.linalg.eigh, lib.linalg.eigvalsh):
            try:
                f(lib.tensor(a))
                r.append("ok")
            except lib.linalg.LinAlgError as e:
                r.append(str(e))
        got.append(r)
    assert got[0] == got[1]


# ---- forward AD of non-finite inputs --------------------------------------------------------
FW_OPS = {
    "det": lambda m, x: m.det(x),
    "slogdet": lambda m, x: m.linalg.slogdet(x),
    "logdet": lambda m, x: m.logdet(x),
    "qr": lambda m, x: m.linalg.qr(x),
    "qr_complete": lambda m, x: m.linalg.qr(x, mode="complete"),
    "Tqr": lambda m, x: x.qr(),
    "matrix_exp": lambda m, x: m.matrix_exp(x),
}
_SHAPES = [(1, 1), (2, 2), (3, 3), (1, 2), (2, 1), (2, 3), (3, 2), (2, 2, 2)]


def _fw_cases(seed=28, trials=6):
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(trials):
        for sh in _SHAPES:
            A = np.round(rng.normal(size=sh), 3)
            for _ in range(rng.integers(1, 3)):
                A[tuple(rng.integers(0, s) for s in sh)] = rng.choice(
                    [np.inf, -np.inf, np.nan, 0.0])
            cases.append((A, np.round(rng.normal(size=sh), 3)))
    return cases


def _fw_run(m, op, A, T, dt):
    fw = m.autograd.forward_ad
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with fw.dual_level():
                x = fw.make_dual(m.tensor(A, dtype=getattr(m, dt)),
                                 m.tensor(T, dtype=getattr(m, dt)))
                out = FW_OPS[op](m, x)
                res = []
                for o in (out if isinstance(out, tuple) else (out,)):
                    p, t = fw.unpack_dual(o)
                    try:
                        tv = None if t is None else np.array(t.detach().tolist())
                    except RuntimeError:  # (PyTorch's efficient zero tensor: slogdet's sign)
                        tv = np.zeros(tuple(t.shape))
                    res.append((np.array(p.detach().tolist()), tv,
                                None if t is None else t.requires_grad))
                return res
        except Exception as e:  # noqa: BLE001  (the error is what is compared)
            return (type(e).__name__, str(e))


def _close(a, b, tol):
    if a is None or b is None:
        return a is None and b is None
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.shape != b.shape or (np.isnan(a) != np.isnan(b)).any():
        return False
    fin = np.isfinite(a)
    if (fin != np.isfinite(b)).any() or (a[~fin & ~np.isnan(a)] != b[~fin & ~np.isnan(b)]).any():
        return False
    return np.allclose(a[fin], b[fin], rtol=tol, atol=tol)


@pytest.mark.parametrize("op", list(FW_OPS))
@pytest.mark.parametrize("dt", ["float64", "float32"])
def test_forward_ad_of_nonfinite_matrices(op, dt):
    bad = []
    for k, (A, T) in enumerate(_fw_cases()):
        want, got = _fw_run(torch, op, A, T, dt), _fw_run(autotensor, op, A, T, dt)
        if isinstance(want, tuple) or isinstance(got, tuple):
            ok = want == got
        else:
            tol = 1e-3 if dt == "float32" else 1e-7
            ok = len(want) == len(got) and all(
                _close(pw, pg, tol) and _close(tw, tg, tol) and rw == rg
                for (pw, tw, rw), (pg, tg, rg) in zip(want, got, strict=True))
        if not ok:
            bad.append((k, A.tolist(), want, got))
    assert not bad, bad[:2]


def test_repro_016_017_018_021_023_024():
    from tests.fuzz.core import run_and_compare
    dual = "torch.autograd.forward_ad"
    progs = [
        [f"{dual}.enter_dual_level()",
         "v1 = torch.tensor(np.array([], dtype='float16').reshape((0, 0)))",
         f"v1 = {dual}.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 0)),"
         " dtype=v1.dtype))",
         "v2 = v1.svd()[1]"],
        ["v0 = torch.tensor(np.array([[-0.417, -0.056, -2.136]], dtype='float32'))",
         "v5 = v0.log1p()", "v6 = v5.pinverse()"],
        [f"{dual}.enter_dual_level()",
         "v0 = torch.tensor(np.array([[1.764, inf], [0.979, 2.241]], dtype='float32'))",
         f"v0 = {dual}.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]])"
         ", dtype=v0.dtype))",
         "v1 = v0.det()"],
        [f"{dual}.enter_dual_level()",
         "v0 = torch.tensor(np.array([[1.764, inf]], dtype='float32'))",
         f"v0 = {dual}.make_dual(v0, torch.tensor(np.array([[1.624, -0.612]]), dtype=v0.dtype))",
         "v1 = v0.qr()[1]"],
        [f"{dual}.enter_dual_level()",
         "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)))",
         f"v0 = {dual}.make_dual(v0, torch.tensor(np.array([]).reshape((0, 0)), dtype=v0.dtype))",
         "v1 = v0.matrix_exp()"],
        [f"{dual}.enter_dual_level()",
         "v0 = torch.tensor(np.array([[-1.038, 0.594]], dtype='float32'))",
         f"v0 = {dual}.make_dual(v0, torch.tensor(np.array([[-0.131, -0.201]]), dtype=v0.dtype))",
         "v1 = v0.sqrt_()", "v2 = v0.qr()[1]"],
    ]
    for lines in progs:
        run_and_compare(lines)


def test_matrix_exp_tangent_requires_grad_as_torch():
    A = np.array([[0.3, -1.2, 0.5], [0.7, 0.1, -0.4], [0.2, 0.9, -0.6]])
    E = np.array([[1.0, 2, 3], [0, -1, 0.5], [0.2, 0.3, -0.4]])
    got = []
    for lib in (torch, autotensor):
        fw = lib.autograd.forward_ad
        r = []
        with fw.dual_level():
            for rg in (False, True):
                x = fw.make_dual(lib.tensor(A, requires_grad=rg), lib.tensor(E))
                t = fw.unpack_dual(lib.linalg.matrix_exp(x)).tangent
                r.append((t.requires_grad, np.array(t.detach().tolist())))
        got.append(r)
    for (rw, tw), (rg, tg) in zip(got[0], got[1], strict=True):
        assert rw == rg
        np.testing.assert_allclose(tg, tw, rtol=1e-12, atol=1e-12)


# ---- backward of non-finite matrices ---------------------------------------------------------
BW_OPS = {
    "det": lambda m, x: m.det(x),
    "logabsdet": lambda m, x: m.linalg.slogdet(x)[1],
    "logdet": lambda m, x: m.logdet(x),
    "inv": lambda m, x: m.linalg.inv(x),
    "solve": lambda m, x: m.linalg.solve(x, x),
    "qr_R": lambda m, x: m.linalg.qr(x)[1],
    "matrix_exp": lambda m, x: m.matrix_exp(x),
    "lu_factor": lambda m, x: m.linalg.lu_factor(x)[0],
}


def _bw_run(m, op, A):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            x = m.tensor(A, requires_grad=True)
            o = BW_OPS[op](m, x)
            (g,) = m.autograd.grad(o, x, m.ones_like(o))
            return np.array(o.detach().tolist()), np.array(g.tolist())
        except Exception as e:  # noqa: BLE001  (the error is what is compared)
            return (type(e).__name__, str(e))


@pytest.mark.parametrize("op", list(BW_OPS))
def test_backward_of_nonfinite_matrices(op):
    """linalg_det_backward / slogdet_backward solve diag(grad det) (diag(grad)) with the
    forward's LU (eps pivots for det): getrs's steps place the NaNs; det's 1x1 gradient is
    grad whatever A holds."""
    rng = np.random.default_rng(5)
    bad = []
    for _ in range(12):
        for sh in [(1, 1), (2, 2), (3, 3), (2, 2, 2)]:
            A = np.round(rng.normal(size=sh), 3)
            A[tuple(rng.integers(0, s) for s in sh)] = rng.choice([np.inf, -np.inf, np.nan])
            want, got = _bw_run(torch, op, A), _bw_run(autotensor, op, A)
            if isinstance(want[0], str) or isinstance(got[0], str):
                ok = want == got
            else:
                ok = _close(want[0], got[0], 1e-7) and _close(want[1], got[1], 1e-7)
            if not ok:
                bad.append((A.tolist(), want, got))
    assert not bad, bad[:2]
