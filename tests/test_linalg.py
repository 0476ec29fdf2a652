"""Linear algebra (issue 11) against PyTorch beyond the generated op_db tests: which names
exist where, bad inputs (the same error type and message), integer/bool/float32 dtypes,
singular and non-positive-definite inputs (errors and ``info`` of the ``_ex`` variants),
empty matrices, named results and deprecation warnings. Values, gradients, double backward,
forward mode and node names of every op are in op_db_linalg.py."""
import warnings

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

TOP = """vdot inner ger outer addmv addr addbmm baddbmm tensordot kron chain_matmul trace det
    logdet slogdet inverse pinverse cholesky cross diag diag_embed diagflat matrix_power
    matrix_exp svd mm bmm matmul mv dot addmm einsum cdist lu_unpack qr triangular_solve
    cholesky_solve cholesky_inverse""".split()
LINALG = """det slogdet inv inv_ex pinv solve solve_ex lstsq cholesky cholesky_ex qr eigh eigvalsh
    svd svdvals matrix_rank matrix_power matrix_exp cross vecdot multi_dot solve_triangular
    tensorinv tensorsolve cond diagonal norm vector_norm matrix_norm matmul LinAlgError lu
    lu_factor lu_factor_ex lu_solve""".split()


@pytest.mark.parametrize("name", TOP)
def test_top_level_and_methods_exposed_like_torch(name):
    assert hasattr(autotensor, name) == hasattr(torch, name), name
    assert hasattr(autotensor.Tensor, name) == hasattr(torch.Tensor, name), name


@pytest.mark.parametrize("name", LINALG)
def test_linalg_namespace(name):
    assert hasattr(torch.linalg, name)
    assert hasattr(autotensor.linalg, name), name


def _outcome(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn()
    except Exception as e:  # noqa: BLE001  (the error is what is compared)
        return ("error", type(e).__name__, str(e).split("\n")[0])
    outs = out if isinstance(out, tuple) else (out,)
    return ("ok", [(str(o.dtype).rsplit(".", 1)[-1], tuple(o.shape),
                    np.asarray(o.detach().resolve_conj().numpy() if o.is_complex() and
                               hasattr(o, "resolve_conj") else o.detach().numpy(),
                               dtype=np.complex128 if o.is_complex()
                               else np.float64)) for o in outs])


def _assert_same(a, t, what):
    assert a[0] == t[0], f"{what}: autotensor {a}, torch {t}"
    if a[0] == "error":
        assert a[1:] == t[1:], what
        return
    assert len(a[1]) == len(t[1]), what
    for (da, sa, va), (dt, st, vt) in zip(a[1], t[1], strict=True):
        assert (da, sa) == (dt, st), what
        lo = da in ("float32", "complex64")
        np.testing.assert_allclose(va, vt, rtol=1e-4 if lo else 1e-10,
                                   atol=1e-6 if lo else 1e-12, err_msg=what,
                                   equal_nan=True)


_R = np.random.default_rng(0)
A23 = _R.uniform(-1, 1, (2, 3))
T43 = _R.uniform(-1, 1, (4, 3))
S33 = _R.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)
V3 = _R.uniform(-1, 1, 3)
ARRAYS = {
    "A23": A23, "S33": S33, "V3": V3, "V2": V3[:2].copy(), "I33": np.ones((3, 3), np.int64),
    "Z33": np.zeros((3, 3)), "NPD": -np.eye(3), "Zb": np.stack([S33, np.zeros((3, 3))]),
    "NPDb": np.stack([S33 @ S33.T, -np.eye(3)]), "S33f": S33.astype(np.float32),
    "B223": _R.uniform(-1, 1, (2, 2, 3)), "B233": _R.uniform(-1, 1, (2, 3, 3)),
    "E00": np.zeros((0, 0)), "E200": np.zeros((2, 0, 0)), "B3i": np.ones((3, 3), np.int32),
    "Bb": np.ones((3, 3), bool), "H33": np.eye(3, dtype=np.float16),
    "SING": np.array([[1.0, 2.0], [2.0, 4.0]]), "T43": _R.uniform(-1, 1, (4, 3)),
    "B43": _R.uniform(-1, 1, (4, 2)), "M43": _R.uniform(-1, 1, (4, 3)),
    "BF": np.eye(3, dtype=np.float16),
}

CASES = [
    ("linalg.inv(A23)", lambda m, x: m.linalg.inv(x), "A23"),
    ("linalg.inv(V3)", lambda m, x: m.linalg.inv(x), "V3"),
    ("linalg.inv(I33)", lambda m, x: m.linalg.inv(x), "I33"),
    ("linalg.inv(Z33)", lambda m, x: m.linalg.inv(x), "Z33"),
    ("linalg.inv(Zb)", lambda m, x: m.linalg.inv(x), "Zb"),
    ("inverse(Z33)", lambda m, x: m.inverse(x), "Z33"),
    ("inv_ex(Z33).info", lambda m, x: m.linalg.inv_ex(x).info, "Z33"),
    ("inv_ex(Zb).info", lambda m, x: m.linalg.inv_ex(x)[1], "Zb"),
    ("inv(S33f)", lambda m, x: m.linalg.inv(x), "S33f"),
    ("inv(E00)", lambda m, x: m.linalg.inv(x), "E00"),
    ("inv(H33)", lambda m, x: m.linalg.inv(x), "H33"),
    ("slogdet(H33)", lambda m, x: m.linalg.slogdet(x), "H33"),
    ("eigh(H33)", lambda m, x: m.linalg.eigh(x), "H33"),
    ("svd(H33)", lambda m, x: m.linalg.svd(x), "H33"),
    ("qr(H33)", lambda m, x: m.linalg.qr(x), "H33"),
    ("cholesky(H33)", lambda m, x: m.linalg.cholesky(x), "H33"),
    ("solve_triangular(H33)", lambda m, x: m.linalg.solve_triangular(x, x, upper=True), "H33"),
    ("lstsq(H33)", lambda m, x: m.linalg.lstsq(x, x), "H33"),
    ("pinv(H33)", lambda m, x: m.linalg.pinv(x), "H33"),
    # (float16 matrix_exp: PyTorch's own kernel overflows, exp(I) = -20896 I; ours rounds
    # the float32 result)
    ("det(A23)", lambda m, x: m.linalg.det(x), "A23"),
    ("det(V3)", lambda m, x: m.linalg.det(x), "V3"),
    ("det(I33)", lambda m, x: m.linalg.det(x), "I33"),
    ("det(Z33)", lambda m, x: m.det(x), "Z33"),
    ("det(E200)", lambda m, x: m.linalg.det(x), "E200"),
    ("det(H33)", lambda m, x: m.linalg.det(x), "H33"),
    ("det(S33f)", lambda m, x: m.linalg.det(x), "S33f"),
    ("slogdet(A23)", lambda m, x: m.linalg.slogdet(x), "A23"),
    ("slogdet(Z33)", lambda m, x: m.linalg.slogdet(x), "Z33"),
    ("slogdet(NPD)", lambda m, x: m.slogdet(x), "NPD"),
    ("logdet(NPD)", lambda m, x: m.logdet(x), "NPD"),
    ("logdet(Z33)", lambda m, x: m.logdet(x), "Z33"),
    ("solve(A23, V3)", lambda m, x, y: m.linalg.solve(x, y), "A23", "V3"),
    ("solve(S33, V2)", lambda m, x, y: m.linalg.solve(x, y), "S33", "V2"),
    ("solve(Z33, V3)", lambda m, x, y: m.linalg.solve(x, y), "Z33", "V3"),
    ("solve(S33, I33)", lambda m, x, y: m.linalg.solve(x, y), "S33", "I33"),
    ("solve(S33f, V3)", lambda m, x, y: m.linalg.solve(x, y), "S33f", "V3"),
    ("solve(S33, A23, left=False)", lambda m, x, y: m.linalg.solve(x, y, left=False),
     "S33", "A23"),
    ("solve_ex(Z33, V3).info", lambda m, x, y: m.linalg.solve_ex(x, y).info, "Z33", "V3"),
    ("solve(B233, V3)", lambda m, x, y: m.linalg.solve(x, y), "B233", "V3"),
    ("cholesky(NPD)", lambda m, x: m.linalg.cholesky(x), "NPD"),
    ("cholesky(A23)", lambda m, x: m.linalg.cholesky(x), "A23"),
    ("cholesky(NPDb)", lambda m, x: m.linalg.cholesky(x), "NPDb"),
    ("cholesky_ex(NPD).info", lambda m, x: m.linalg.cholesky_ex(x).info, "NPD"),
    ("cholesky_ex(NPDb).info", lambda m, x: m.linalg.cholesky_ex(x).info, "NPDb"),
    ("torch.cholesky(NPD)", lambda m, x: m.cholesky(x), "NPD"),
    ("eigh(A23)", lambda m, x: m.linalg.eigh(x), "A23"),
    ("eigh(UPLO=X)", lambda m, x: m.linalg.eigh(x, UPLO="X"), "S33"),
    ("eigvalsh(V3)", lambda m, x: m.linalg.eigvalsh(x), "V3"),
    ("eigvalsh(S33f)", lambda m, x: m.linalg.eigvalsh(x + x.mT), "S33f"),
    ("svd(V3)", lambda m, x: m.linalg.svd(x), "V3"),
    ("svdvals(V3)", lambda m, x: m.linalg.svdvals(x), "V3"),
    ("svdvals(T43)", lambda m, x: m.linalg.svdvals(x), "T43"),
    ("svdvals(I33)", lambda m, x: m.linalg.svdvals(x), "I33"),
    ("qr(V3)", lambda m, x: m.linalg.qr(x), "V3"),
    ("qr(mode=foo)", lambda m, x: m.linalg.qr(x, mode="foo"), "S33"),
    ("qr(mode=r).R", lambda m, x: m.linalg.qr(x, mode="r").R, "T43"),
    ("qr(mode=complete)", lambda m, x: m.linalg.qr(x, mode="complete"), "T43"),
    ("matrix_exp(A23)", lambda m, x: m.linalg.matrix_exp(x), "A23"),
    ("matrix_exp(S33f)", lambda m, x: m.linalg.matrix_exp(x), "S33f"),
    ("pinv(V3)", lambda m, x: m.linalg.pinv(x), "V3"),
    ("pinv(SING)", lambda m, x: m.linalg.pinv(x), "SING"),
    ("pinv(SING, hermitian)", lambda m, x: m.linalg.pinv(x, hermitian=True), "SING"),
    ("pinv(atol)", lambda m, x: m.linalg.pinv(x, atol=0.5), "T43"),
    ("matrix_rank(SING)", lambda m, x: m.linalg.matrix_rank(x), "SING"),
    ("matrix_rank(T43)", lambda m, x: m.linalg.matrix_rank(x), "T43"),
    ("matrix_rank(hermitian)", lambda m, x: m.linalg.matrix_rank(x, hermitian=True), "SING"),
    ("matrix_rank(V3)", lambda m, x: m.linalg.matrix_rank(x), "V3"),
    ("cross(dim 2)", lambda m, x: m.linalg.cross(x[:, :2], x[:, :2]), "S33"),
    ("cross(bcast)", lambda m, x, y: m.linalg.cross(x, y), "S33", "T43"),
    ("cross(dtypes)", lambda m, x, y: m.linalg.cross(x, y), "S33", "S33f"),
    ("torch.cross default dim", lambda m, x, y: m.cross(x, y), "S33", "S33"),
    ("trace(V3)", lambda m, x: m.trace(x), "V3"),
    ("trace(I33)", lambda m, x: m.trace(x), "I33"),
    ("trace(B3i)", lambda m, x: m.trace(x), "B3i"),
    ("trace(Bb)", lambda m, x: m.trace(x), "Bb"),
    ("trace(A23)", lambda m, x: m.trace(x), "A23"),
    ("vdot(dtypes)", lambda m, x, y: m.vdot(x, y), "V3", "S33f"),
    ("vdot(2d)", lambda m, x: m.vdot(x, x), "S33"),
    ("vdot(sizes)", lambda m, x, y: m.vdot(x, y), "V3", "V2"),
    ("vdot(int)", lambda m, x: m.vdot(x[0], x[1]), "I33"),
    ("inner(S33, A23)", lambda m, x, y: m.inner(x, y), "S33", "A23"),
    ("inner(mismatch)", lambda m, x, y: m.inner(x, y), "S33", "T43"),
    ("inner(int)", lambda m, x: m.inner(x, x), "I33"),
    ("addmv(size)", lambda m, x, y, z: m.addmv(x, y, z), "V3", "S33", "V2"),
    ("addmv(mat)", lambda m, x, y, z: m.addmv(x, y, z), "V3", "A23", "V3"),
    ("addr(size)", lambda m, x, y, z: m.addr(x, y, z), "S33", "V3", "V2"),
    ("addr(2d)", lambda m, x, y: m.addr(x, x, y), "S33", "V3"),
    ("addr(int)", lambda m, x: m.addr(x, x[0], x[1], beta=2, alpha=3), "I33"),
    ("baddbmm(2d)", lambda m, x: m.baddbmm(x, x, x), "S33"),
    ("baddbmm(size)", lambda m, x, y, z: m.baddbmm(x, y, z), "B233", "B223", "B233"),
    ("addbmm(self)", lambda m, x, y: m.addbmm(x[:2], y, y.mT), "S33", "B223"),
    ("addbmm(ok)", lambda m, x, y: m.addbmm(x[:2, :2], y, y.mT, beta=0), "S33", "B223"),
    ("kron(S33, V3)", lambda m, x, y: m.kron(x, y), "S33", "V3"),
    ("kron(int)", lambda m, x, y: m.kron(x, y), "I33", "B3i"),
    ("tensordot(mismatch)", lambda m, x, y: m.tensordot(x, y, dims=1), "S33", "A23"),
    ("tensordot(-1)", lambda m, x: m.tensordot(x, x, dims=-1), "S33"),
    ("tensordot(all)", lambda m, x: m.tensordot(x, x, dims=2), "B223"),
    ("matrix_power(A23)", lambda m, x: m.matrix_power(x, 2), "A23"),
    ("matrix_power(V3)", lambda m, x: m.matrix_power(x, 2), "V3"),
    ("matrix_power(I33, -1)", lambda m, x: m.matrix_power(x, -1), "I33"),
    ("matrix_power(I33, 3)", lambda m, x: m.matrix_power(x, 3), "I33"),
    ("matrix_power(Z33, -1)", lambda m, x: m.linalg.matrix_power(x, -1), "Z33"),
    ("matrix_power(B233, 6)", lambda m, x: m.linalg.matrix_power(x, 6), "B233"),
    ("multi_dot(one)", lambda m, x: m.linalg.multi_dot([x]), "S33"),
    ("multi_dot(shapes)", lambda m, x, y: m.linalg.multi_dot([x, y]), "S33", "A23"),
    ("multi_dot(dtypes)", lambda m, x, y: m.linalg.multi_dot([x, y]), "S33", "S33f"),
    ("multi_dot(3d)", lambda m, x, y: m.linalg.multi_dot([x, y]), "S33", "B233"),
    ("chain_matmul(one)", lambda m, x: m.chain_matmul(x), "S33"),
    ("solve_triangular(shapes)", lambda m, x, y: m.linalg.solve_triangular(
        x, y, upper=True), "S33", "A23"),
    ("solve_triangular(vector)", lambda m, x, y: m.linalg.solve_triangular(
        x, y, upper=True), "S33", "V3"),
    ("lstsq(shapes)", lambda m, x, y: m.linalg.lstsq(x, y), "S33", "A23"),
    ("lstsq gelsy", lambda m, x, y: m.linalg.lstsq(x, y), "T43", "B43"),
    ("lstsq gelsd", lambda m, x, y: m.linalg.lstsq(x, y, driver="gelsd"), "T43", "B43"),
    ("lstsq gelss", lambda m, x, y: m.linalg.lstsq(x, y, driver="gelss")[:3], "T43", "B43"),
    ("vector_norm(I33)", lambda m, x: m.linalg.vector_norm(x), "I33"),
    ("vector_norm(dtype)", lambda m, x: m.linalg.vector_norm(x, dtype=m.float64), "S33f"),
    ("matrix_norm(V3)", lambda m, x: m.linalg.matrix_norm(x), "V3"),
    ("matrix_norm(ord 3)", lambda m, x: m.linalg.matrix_norm(x, 3), "S33"),
    ("norm(ord 3)", lambda m, x: m.linalg.norm(x, 3), "S33"),
    ("norm(3d fro)", lambda m, x: m.linalg.norm(x, "fro"), "B223"),
    ("norm(3d)", lambda m, x: m.linalg.norm(x), "B223"),
    ("norm(dims)", lambda m, x: m.linalg.norm(x, 2, dim=(1, 2)), "B233"),
    ("diag(3d)", lambda m, x: m.diag(x), "B223"),
    ("diag_embed(same dims)", lambda m, x: m.diag_embed(x, 0, 1, 1), "S33"),
    ("vecdot(shapes)", lambda m, x, y: m.linalg.vecdot(x, y), "S33", "A23"),
    ("cond(V3)", lambda m, x: m.linalg.cond(x), "V3"),
    # (a singular matrix's condition number is 1 / a rounding error: LAPACK's own, which
    # differs between CPUs; only its size is PyTorch's)
    ("cond(SING)", lambda m, x: m.linalg.cond(x) > 1e15, "SING"),
    ("cond(fro)", lambda m, x: m.linalg.cond(x, "fro"), "S33"),
    ("cond(1)", lambda m, x: m.linalg.cond(x, 1), "S33"),
    ("einsum(no operands)", lambda m, x: m.einsum("ij"), "S33"),
    ("einsum(too few)", lambda m, x: m.einsum("ij,jk", x), "S33"),
    ("einsum(too many)", lambda m, x: m.einsum("ij", x, x), "S33"),
    ("einsum(bad subscript)", lambda m, x: m.einsum("i1", x), "S33"),
    ("einsum(bad output)", lambda m, x: m.einsum("ij->k", x), "S33"),
    ("einsum(output twice)", lambda m, x: m.einsum("ij->ii", x), "S33"),
    ("einsum(rank)", lambda m, x: m.einsum("ijk", x), "S33"),
    ("einsum(sizes)", lambda m, x, y: m.einsum("ij,ij", x, y), "S33", "A23"),
    ("einsum(diag sizes)", lambda m, x: m.einsum("ii", x), "A23"),
    ("einsum(two ellipses)", lambda m, x: m.einsum("......", x), "S33"),
    ("einsum(dot)", lambda m, x: m.einsum("i.j", x), "S33"),
    ("einsum(int)", lambda m, x: m.einsum("ij,jk", x, x), "I33"),
    ("einsum(float32)", lambda m, x: m.einsum("ij,jk->ki", x, x), "S33f"),
    ("lu_factor(Z33)", lambda m, x: m.linalg.lu_factor(x), "Z33"),
    ("lu_factor(Zb)", lambda m, x: m.linalg.lu_factor(x), "Zb"),
    ("lu_factor_ex(Z33).info", lambda m, x: m.linalg.lu_factor_ex(x).info, "Z33"),
    ("lu_factor(V3)", lambda m, x: m.linalg.lu_factor(x), "V3"),
    ("lu_factor(I33)", lambda m, x: m.linalg.lu_factor(x), "I33"),
    ("lu(T43)", lambda m, x: m.linalg.lu(x), "T43"),
    ("lu(B223)", lambda m, x: m.linalg.lu(x), "B223"),
    ("lu_factor(S33f)", lambda m, x: m.linalg.lu_factor(x), "S33f"),
    ("lu_unpack", lambda m, x: m.lu_unpack(*m.linalg.lu_factor(x)), "B233"),
    ("lu_solve(batched)", lambda m, x, y: m.linalg.lu_solve(*m.linalg.lu_factor(x), y),
     "B233", "B233"),
    ("cdist(1d)", lambda m, x: m.cdist(x, x), "V3"),
    ("cdist(columns)", lambda m, x, y: m.cdist(x, y), "S33", "B43"),
    ("cdist(int)", lambda m, x: m.cdist(x, x), "I33"),
    ("cdist(p<0)", lambda m, x: m.cdist(x, x, p=-1), "S33"),
    ("cdist(p=0)", lambda m, x, y: m.cdist(x, y, p=0), "S33", "T43"),
    ("cdist(mode)", lambda m, x: m.cdist(x, x, compute_mode="foo"), "S33"),
    ("cdist(float32)", lambda m, x: m.cdist(x, x), "S33f"),
    ("tensorinv(ind 0)", lambda m, x: m.linalg.tensorinv(x, ind=0), "S33"),
    ("tensorinv", lambda m, x: m.linalg.tensorinv(x.reshape(9, 1, 1)[:4].reshape(4, 1, 1)
                                                  + 1, ind=1), "S33"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_values_dtypes_and_errors_like_torch(case):
    _, fn, *names = case
    arrays = [ARRAYS[n] for n in names]
    a = _outcome(lambda: fn(autotensor, *[autotensor.tensor(x) for x in arrays]))
    t = _outcome(lambda: fn(torch, *[torch.tensor(x) for x in arrays]))
    _assert_same(a, t, case[0])


def test_linalg_error_is_a_runtime_error_named_like_torch():
    with pytest.raises(autotensor.linalg.LinAlgError) as info:
        autotensor.linalg.inv(autotensor.zeros(2, 2))
    assert isinstance(info.value, RuntimeError)
    assert type(info.value).__name__ == type(
        pytest.raises(torch.linalg.LinAlgError, torch.linalg.inv, torch.zeros(2, 2)).value
    ).__name__


@pytest.mark.parametrize("call", [
    lambda m, x: m.linalg.slogdet(x), lambda m, x: m.linalg.inv_ex(x),
    lambda m, x: m.linalg.eigh(x + x.mT), lambda m, x: m.linalg.svd(x),
    lambda m, x: m.linalg.qr(x), lambda m, x: m.linalg.cholesky_ex(x @ x.mT + m.eye(3)),
    lambda m, x: m.linalg.solve_ex(x, x), lambda m, x: m.svd(x), lambda m, x: m.slogdet(x),
    lambda m, x: m.linalg.lstsq(x, x)], ids=lambda f: "")
def test_named_results_like_torch(call):
    x = np.array(S33)
    a = call(autotensor, autotensor.tensor(x))
    t = call(torch, torch.tensor(x))
    assert type(a).__name__ == type(t).__name__
    assert a._fields == tuple(t._fields) if hasattr(t, "_fields") else len(a) == len(t)
    assert repr(a).split("(")[0] == repr(t).split("(")[0]
    for f in a._fields:
        assert tuple(getattr(a, f).shape) == tuple(getattr(t, f).shape), f


@pytest.mark.parametrize("call, message", [
    (lambda m, x: m.chain_matmul(x, x), "torch.chain_matmul is deprecated"),
    (lambda m, x: m.cholesky(x @ x.mT + m.eye(3)), "torch.cholesky is deprecated"),
    (lambda m, x: m.cross(x, x), "Using torch.cross without specifying the dim arg")])
def test_deprecation_warnings_like_torch(call, message, monkeypatch):
    """Worded as PyTorch's (checked against it above) and, like its TORCH_WARN_ONCE, given
    once per process."""
    monkeypatch.setattr(autotensor._ops.linalg, "_WARNED", set())
    with pytest.warns(UserWarning, match=message):
        call(autotensor, autotensor.tensor(S33))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        call(autotensor, autotensor.tensor(S33))


def test_layout_of_lapack_results_like_torch():
    """LAPACK returns column-major matrices and PyTorch keeps them: views and reshapes of
    the results then record the same nodes."""
    x = np.array([S33, S33 @ S33.T])
    for call in (lambda m, a: m.linalg.inv(a), lambda m, a: m.linalg.cholesky(a @ a.mT),
                 lambda m, a: m.linalg.eigh(a).eigenvectors, lambda m, a: m.linalg.qr(a).Q,
                 lambda m, a: m.linalg.svd(a).U, lambda m, a: m.linalg.solve(a, a),
                 lambda m, a: m.linalg.matrix_exp(a), lambda m, a: m.linalg.pinv(a)):
        a, t = call(autotensor, autotensor.tensor(x)), call(torch, torch.tensor(x))
        assert a.is_contiguous() == t.is_contiguous()
        assert a.stride() == t.stride()


def test_eigh_backward_on_repeated_eigenvalues_is_inf_like_torch():
    """Eigenvectors of a repeated eigenvalue are not unique: PyTorch divides by zero."""
    x = np.diag([1.0, 1.0, 2.0])
    outs = []
    for m in (autotensor, torch):
        a = m.tensor(x, requires_grad=True)
        m.linalg.eigh(a).eigenvectors.sum().backward()
        outs.append(a.grad.numpy())
    np.testing.assert_array_equal(np.isfinite(outs[0]), np.isfinite(outs[1]))


def test_qr_backward_errors_like_torch():
    for mode, shape in (("r", (4, 3)), ("complete", (4, 3))):
        errs = []
        for m in (autotensor, torch):
            a = m.tensor(np.ones(shape) + np.eye(*shape), requires_grad=True)
            with pytest.raises(RuntimeError) as info:
                m.linalg.qr(a, mode=mode).R.sum().backward()
            errs.append(str(info.value))
        assert errs[0] == errs[1]


@pytest.mark.parametrize("call", [
    lambda m, b, a: m.triangular_solve(b, a), lambda m, b, a: m.qr(a),
    lambda m, b, a: m.cholesky_solve(b, m.linalg.cholesky(a @ a.mT)),
    lambda m, b, a: m.cholesky_inverse(m.linalg.cholesky(a @ a.mT), upper=False)],
    ids=lambda f: "")
def test_older_spellings_like_torch(call):
    b, a = np.array(T43[:3, :2]), np.array(S33)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = call(autotensor, autotensor.tensor(b), autotensor.tensor(a))
        want = call(torch, torch.tensor(b), torch.tensor(a))
    assert type(got).__name__ == type(want).__name__
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,), strict=True):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-10, atol=1e-12)


# ---- torch.linalg, part 3: Householder products, Vandermonde, older LU spellings ------------
def test_part3_names_exposed_like_torch():
    for name in ("geqrf", "orgqr", "ormqr", "vander", "lu", "lu_solve", "symeig", "eig", "lstsq",
                 "svd_lowrank", "pca_lowrank", "frobenius_norm", "nuclear_norm"):
        assert hasattr(autotensor, name) == hasattr(torch, name), name
        assert hasattr(autotensor.Tensor, name) == hasattr(torch.Tensor, name), name
    for name in ("householder_product", "vander"):
        assert hasattr(autotensor.linalg, name), name


_G = np.random.default_rng(3)
ARRAYS.update({"G43": _G.uniform(-1, 1, (4, 3)), "G233": _G.uniform(-1, 1, (2, 3, 3)),
               "t3": _G.uniform(-1, 1, 3), "t2": _G.uniform(-1, 1, 2),
               "t23": _G.uniform(-1, 1, (2, 3)), "C42": _G.uniform(-1, 1, (4, 2)),
               "C32": _G.uniform(-1, 1, (3, 2)), "L3": np.array([1, 2, 3], np.int32),
               "Bool2": np.array([True, False]), "E03": np.zeros((0, 3)),
               "SYM4": (lambda x: x + x.T)(_G.uniform(-1, 1, (4, 4))),
               "ZDIAG3": np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [2.0, 3.0, 0.0]])})
PART3 = [
    ("geqrf", lambda m, x: m.geqrf(x), "G43"),
    ("geqrf batched", lambda m, x: x.geqrf(), "G233"),
    ("geqrf empty", lambda m, x: m.geqrf(x), "E03"),
    ("geqrf 1d", lambda m, x: m.geqrf(x), "t3"),
    ("geqrf int", lambda m, x: m.geqrf(x), "I33"),
    ("geqrf half", lambda m, x: m.geqrf(x), "H33"),
    ("householder 1d", lambda m, x, t: m.linalg.householder_product(x, t), "t3", "t2"),
    ("householder wide", lambda m, x, t: m.linalg.householder_product(x, t), "A23", "t2"),
    ("householder tau", lambda m, x, t: m.linalg.householder_product(x[:, :2], t), "G43", "t3"),
    ("householder tau ndim", lambda m, x, t: m.linalg.householder_product(x, t), "G43", "t23"),
    ("householder tau batch", lambda m, x, t: m.linalg.householder_product(x, t[:1]), "G233",
     "t23"),
    ("householder dtype", lambda m, x, t: m.linalg.householder_product(x, t.float()), "G43",
     "t3"),
    ("householder int", lambda m, x, t: m.orgqr(x, x[0]), "I33", "t3"),
    ("householder k=0", lambda m, x, t: m.linalg.householder_product(x, t[:0]), "G43", "t3"),
    ("ormqr 1d", lambda m, x, t, c: m.ormqr(t, t, c), "G43", "t3", "C42"),
    ("ormqr other 1d", lambda m, x, t, c: m.ormqr(x, t, t), "G43", "t3", "C42"),
    ("ormqr rows", lambda m, x, t, c: m.ormqr(x, t, c), "G43", "t3", "C32"),
    ("ormqr cols", lambda m, x, t, c: m.ormqr(x, t, c, left=False), "G43", "t3", "C32"),
    ("ormqr tau", lambda m, x, t, c: m.ormqr(x, t[:2], c), "G43", "t3", "C42"),
    ("ormqr tau ndim", lambda m, x, t, c: m.ormqr(x[:3], t.expand(3, 3), c[:3]), "G43", "t3",
     "C42"),
    ("ormqr other ndim", lambda m, x, t, c: m.ormqr(x, t, c[:3]), "G233", "t23", "C42"),
    ("ormqr batch tau", lambda m, x, t, c: m.ormqr(x, t.expand(3, 3), c.expand(2, 3, 2)),
     "G233", "t3", "C32"),
    ("ormqr batch other", lambda m, x, t, c: m.ormqr(x, t, c.expand(3, 3, 2)), "G233", "t23",
     "C32"),
    ("ormqr dtype tau", lambda m, x, t, c: m.ormqr(x, t.float(), c), "G43", "t3", "C42"),
    ("ormqr dtype other", lambda m, x, t, c: m.ormqr(x, t, c.float()), "G43", "t3", "C42"),
    ("ormqr int", lambda m, x: m.ormqr(x, x[0], x), "I33"),
    ("vander", lambda m, x: m.vander(x), "V3"),
    ("vander N increasing", lambda m, x: m.vander(x, N=5, increasing=True), "V3"),
    ("vander N=0", lambda m, x: m.vander(x, 0), "V3"),
    ("vander N=1", lambda m, x: m.vander(x, 1), "V3"),
    ("vander int", lambda m, x: m.vander(x), "L3"),
    ("vander bool", lambda m, x: m.vander(x), "Bool2"),
    ("vander N<0", lambda m, x: m.vander(x, N=-1), "V3"),
    ("vander 2d", lambda m, x: m.vander(x), "A23"),
    ("linalg.vander int", lambda m, x: m.linalg.vander(x), "L3"),
    ("linalg.vander 0-d", lambda m, x: m.linalg.vander(x[0]), "V3"),
    ("linalg.vander N=1", lambda m, x: m.linalg.vander(x, N=1), "V3"),
    ("linalg.vander bool", lambda m, x: m.linalg.vander(x), "Bool2"),
    ("linalg.vander half", lambda m, x: m.linalg.vander(x[0]), "H33"),
    ("lu", lambda m, x: m.lu(x), "S33"),
    ("lu get_infos singular", lambda m, x: m.lu(x, get_infos=True), "SING"),
    ("lu singular", lambda m, x: x.lu(), "SING"),
    ("lu no pivot", lambda m, x: m.lu(x, pivot=False), "S33"),
    ("lu_factor_ex check_errors", lambda m, x: m.linalg.lu_factor_ex(x, check_errors=True),
     "SING"),
    ("lu_solve", lambda m, x, b: m.lu_solve(b, *m.linalg.lu_factor(x)), "S33", "C32"),
    ("lu_solve method", lambda m, x, b: b.lu_solve(*m.linalg.lu_factor(x)), "S33", "C32"),
    ("ldl_factor", lambda m, x: m.linalg.ldl_factor(x), "SYM4"),
    ("ldl_factor_ex pivots 2x2", lambda m, x: m.linalg.ldl_factor_ex(x), "ZDIAG3"),
    ("ldl_factor_ex batched", lambda m, x: m.linalg.ldl_factor_ex(x + x.mT, hermitian=True),
     "G233"),
    ("ldl_factor_ex singular", lambda m, x: m.linalg.ldl_factor_ex(x), "Z33"),
    ("ldl_factor singular", lambda m, x: m.linalg.ldl_factor(x), "Z33"),
    ("ldl_factor_ex check_errors", lambda m, x: m.linalg.ldl_factor_ex(x, check_errors=True),
     "Z33"),
    ("ldl_factor 1d", lambda m, x: m.linalg.ldl_factor(x), "V3"),
    ("ldl_factor rect", lambda m, x: m.linalg.ldl_factor(x), "A23"),
    ("ldl_factor int", lambda m, x: m.linalg.ldl_factor(x), "I33"),
    ("ldl_factor half", lambda m, x: m.linalg.ldl_factor(x), "H33"),
    ("ldl_factor empty", lambda m, x: m.linalg.ldl_factor(x), "E00"),
    ("ldl_solve", lambda m, x, b: m.linalg.ldl_solve(*m.linalg.ldl_factor(x), b), "ZDIAG3",
     "C32"),
    ("ldl_solve broadcast", lambda m, x, b: m.linalg.ldl_solve(
        *m.linalg.ldl_factor(x), b.expand(2, 3, 2), hermitian=True), "ZDIAG3", "C32"),
    ("ldl_solve 1d b", lambda m, x, b: m.linalg.ldl_solve(*m.linalg.ldl_factor(x), b[0]),
     "ZDIAG3", "C32"),
    ("ldl_solve rows", lambda m, x, b: m.linalg.ldl_solve(*m.linalg.ldl_factor(x), b[:2]),
     "ZDIAG3", "C32"),
    ("ldl_solve dtype", lambda m, x, b: m.linalg.ldl_solve(*m.linalg.ldl_factor(x), b.float()),
     "ZDIAG3", "C32"),
    ("ldl_solve pivots", lambda m, x, b: m.linalg.ldl_solve(m.linalg.ldl_factor(x)[0],
                                                            m.linalg.ldl_factor(x)[1][:2], b),
     "ZDIAG3", "C32"),
    ("ldl_solve LD rect", lambda m, x, b: m.linalg.ldl_solve(x, x[0].int(), b), "A23", "C32"),
    ("frobenius_norm 3 dims", lambda m, x: m.frobenius_norm(x, (0, 1, 2)), "G233"),
    ("frobenius_norm int", lambda m, x: m.frobenius_norm(x, (0, 1)), "I33"),
    ("nuclear_norm 1 dim", lambda m, x: m.nuclear_norm(x, (0,)), "G233"),
    ("nuclear_norm keepdim", lambda m, x: m.nuclear_norm(x, True), "G233"),
    ("matrix_norm 3 dims", lambda m, x: m.linalg.matrix_norm(x, dim=(0, 1, 2)), "G233"),
    ("symeig", lambda m, x: m.symeig(x), "S33"),
    ("eig", lambda m, x: x.eig(), "S33"),
    ("lstsq", lambda m, x: m.lstsq(x, x), "S33"),
]


@pytest.mark.parametrize("case", PART3, ids=[c[0] for c in PART3])
def test_part3_values_dtypes_and_errors_like_torch(case):
    test_values_dtypes_and_errors_like_torch(case)


def test_removed_functions_full_messages_like_torch():
    x = np.array(S33)
    for call in (lambda m, a: m.symeig(a), lambda m, a: a.eig(), lambda m, a: m.lstsq(a, a)):
        errs = []
        for m in (autotensor, torch):
            with pytest.raises(RuntimeError) as info:
                call(m, m.tensor(x))
            errs.append(str(info.value))
        assert errs[0] == errs[1]


def test_geqrf_is_not_differentiable_like_torch():
    x = np.array(ARRAYS["G43"])
    got = []
    for m in (autotensor, torch):
        a = m.tensor(x, requires_grad=True)
        r = m.geqrf(a)
        assert type(r).__name__ == "geqrf" and r.a is r[0] and r.tau is r[1]
        with pytest.raises(NotImplementedError) as info:
            r.tau.sum().backward()
        fw = m.autograd.forward_ad
        with fw.dual_level(), pytest.raises(NotImplementedError) as info2:
            m.geqrf(fw.make_dual(a.detach(), m.ones_like(a)))
        got.append((type(r.a.grad_fn).__name__, str(info.value), str(info2.value)))
    assert got[0] == got[1]


def test_geqrf_householder_product_reconstructs_like_torch():
    """geqrf gives LAPACK's reflectors (the same numbers as torch's), and
    householder_product / ormqr of them are Q and Q C of linalg.qr."""
    x = np.array(ARRAYS["G43"])
    c = np.array(ARRAYS["C42"])
    res = []
    for m in (autotensor, torch):
        a, tau = m.geqrf(m.tensor(x))
        res.append((a.numpy(), tau.numpy(), a.stride(), m.linalg.householder_product(a, tau),
                    m.ormqr(a, tau, m.tensor(c), transpose=True), m.linalg.qr(m.tensor(x)).Q))
    (a1, t1, s1, q1, o1, Q1), (a2, t2, s2, q2, o2, Q2) = res
    np.testing.assert_allclose(a1, a2, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(t1, t2, rtol=1e-12, atol=1e-14)
    assert s1 == s2
    np.testing.assert_allclose(q1.numpy(), Q1.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(o1.numpy(), o2.numpy(), rtol=1e-12, atol=1e-14)


def test_vander_backward_fails_like_torch():
    """aten's vander overwrites the slice its cumprod saved: PyTorch's backward raises the
    in-place error; so does ours, word for word."""
    errs = []
    for m in (autotensor, torch):
        x = m.tensor(np.array(V3), requires_grad=True)
        v = m.vander(x, N=3)
        names = [type(v.grad_fn).__name__]
        with pytest.raises(RuntimeError) as info:
            v.sum().backward()
        errs.append((names, str(info.value)))
    assert errs[0] == errs[1]


@pytest.mark.parametrize("complex_, hermitian", [(False, False), (True, False), (True, True)])
def test_ldl_pivoting_like_lapack(complex_, hermitian):
    """Bunch-Kaufman pivots (1x1 and 2x2 blocks, interchanges) as LAPACK's sytrf chooses
    them (zsytrf: on |re| + |im|; zhetrf for hermitian=True), on 200 random symmetric or
    Hermitian matrices with small or zero diagonals."""
    rng = np.random.default_rng(7)
    for trial in range(200):
        n = int(rng.integers(1, 8))
        a = rng.standard_normal((n, n))
        if complex_:
            a = a + 1j * rng.standard_normal((n, n))
        a = a + (a.conj().T if hermitian else a.T)
        a[np.diag_indices(n)] *= (0.0, 0.01, 1.0)[trial % 3]
        got = autotensor.linalg.ldl_factor_ex(autotensor.tensor(a), hermitian=hermitian)
        want = torch.linalg.ldl_factor_ex(torch.tensor(a), hermitian=hermitian)
        np.testing.assert_array_equal(got.pivots.numpy(), want.pivots.numpy())
        np.testing.assert_allclose(got.LD.numpy(), want.LD.numpy(), rtol=1e-10, atol=1e-12)
        assert int(got.info) == int(want.info)
        if int(want.info) == 0:
            b = rng.standard_normal((n, 2)) * (1 + 1j if complex_ else 1)
            np.testing.assert_allclose(
                autotensor.linalg.ldl_solve(got.LD, got.pivots, autotensor.tensor(b),
                                            hermitian=hermitian).numpy(),
                torch.linalg.ldl_solve(want.LD, want.pivots, torch.tensor(b),
                                       hermitian=hermitian).numpy(),
                rtol=1e-8, atol=1e-10)


def test_ldl_is_not_differentiable_like_torch():
    a, b = np.array(ARRAYS["ZDIAG3"]), np.array(ARRAYS["C32"])
    got = []
    for m in (autotensor, torch):
        x = m.tensor(a, requires_grad=True)
        y = m.tensor(b, requires_grad=True)
        LD, piv = m.linalg.ldl_factor(x)
        X = m.linalg.ldl_solve(LD, piv, y)
        names = (LD.grad_fn.name(), X.grad_fn.name(), LD.requires_grad, piv.requires_grad)
        errs = []
        for out in (LD, X):
            with pytest.raises(RuntimeError) as info:
                out.sum().backward(retain_graph=True)
            errs.append(str(info.value))
        fw = m.autograd.forward_ad
        with fw.dual_level():
            with pytest.raises(NotImplementedError) as info:
                m.linalg.ldl_factor(fw.make_dual(x.detach(), m.ones_like(x)))
            errs.append(str(info.value))
            with pytest.raises(NotImplementedError) as info:
                m.linalg.ldl_solve(LD.detach(), piv, fw.make_dual(y.detach(), m.ones_like(y)))
            errs.append(str(info.value))
        got.append((names, errs))
    assert got[0] == got[1]


# ---- linalg.eig / eigvals --------------------------------------------------------------------
def _phase_align(V, W):
    """W's columns rotated by the phase that best matches V's (eigenvectors are defined up to
    e^{i phi} per column; LAPACK builds differ in the sign they return)."""
    c = np.sum(np.conj(W) * V, axis=-2, keepdims=True)
    return W * (c / np.abs(c))


EIG_CASES = [
    ("eig 1d", lambda m, x: m.linalg.eig(x), "V3"),
    ("eig rect", lambda m, x: m.linalg.eig(x), "A23"),
    ("eig int", lambda m, x: m.linalg.eig(x), "I33"),
    ("eig half", lambda m, x: m.linalg.eig(x), "H33"),
    ("eig empty", lambda m, x: m.linalg.eig(x), "E00"),
    ("eig empty batch", lambda m, x: m.linalg.eig(x), "E200"),
    ("eig nan", lambda m, x: m.linalg.eig(x / 0), "Z33"),
    ("eigvals 1d", lambda m, x: m.linalg.eigvals(x), "V3"),
    ("eigvals rect", lambda m, x: m.linalg.eigvals(x), "A23"),
    ("eigvals int", lambda m, x: m.linalg.eigvals(x), "I33"),
    ("eigvals float32", lambda m, x: m.linalg.eigvals(x), "S33f"),
    ("eigvals batched", lambda m, x: m.linalg.eigvals(x), "G233"),
    ("eigvals symmetric", lambda m, x: m.linalg.eigvals(x + x.mT), "S33"),
]


@pytest.mark.parametrize("case", EIG_CASES, ids=[c[0] for c in EIG_CASES])
def test_eig_values_dtypes_and_errors_like_torch(case):
    test_values_dtypes_and_errors_like_torch(case)


def _eig_inputs():
    rng = np.random.default_rng(11)
    real = rng.standard_normal((2, 4, 4))  # complex-conjugate pairs and real eigenvalues
    cplx = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    return [real, cplx, rng.standard_normal((1, 1))]


@pytest.mark.parametrize("which", [0, 1, 2])
def test_eig_values_and_gradients_like_torch(which):
    """Eigenvalues as torch's; eigenvectors up to each column's phase; gradients of
    phase-invariant losses (<gL, L> + sum w |V|^2) as torch's, real inputs getting real
    gradients; the node and the named result as torch's."""
    a = _eig_inputs()[which]
    rng = np.random.default_rng(5)
    gl = rng.standard_normal(a.shape[:-1]) + 1j * rng.standard_normal(a.shape[:-1])
    w = rng.standard_normal(a.shape)
    res = []
    for m in (autotensor, torch):
        A = m.tensor(a, requires_grad=True)
        r = m.linalg.eig(A)
        L, V = r
        gs = m.autograd.grad([L, V], A, [m.tensor(gl), m.tensor(2 * w) * V.detach()],
                             retain_graph=True)
        gL, = m.autograd.grad(L, A, m.tensor(gl))
        res.append((type(r).__name__, type(L.grad_fn).__name__, str(L.dtype), L.detach().numpy(),
                    V.detach().numpy(), gs[0].numpy(), gL.numpy(), V.stride()))
    (na, ga, da, La, Va, gA, gLa, sa), (nt, gt, dt, Lt, Vt, gT, gLt, st) = res
    assert (na, ga, da, sa) == (nt, gt, dt, st)
    np.testing.assert_allclose(La, Lt, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(_phase_align(Vt, Va), Vt, rtol=1e-10, atol=1e-12)
    assert gA.dtype == gT.dtype
    np.testing.assert_allclose(gA, gT, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(gLa, gLt, rtol=1e-9, atol=1e-11)


def test_eig_gradient_vs_finite_differences():
    """For a real A, l(A) = Re<gl, L(A)> + sum w |V(A)|^2 (phase-invariant): autotensor's
    gradient against central differences of NumPy's eig."""
    a = _eig_inputs()[0][0]
    rng = np.random.default_rng(6)
    gl = rng.standard_normal(4) + 1j * rng.standard_normal(4)
    w = rng.standard_normal((4, 4))

    def loss(x):
        L, V = np.linalg.eig(x)
        order = [int(np.argmin(np.abs(L - l0))) for l0 in L0]
        L, V = L[order], V[:, order]
        return np.sum(np.real(np.conj(gl) * L)) + np.sum(w * np.abs(V) ** 2)
    L0 = np.linalg.eig(a)[0]
    A = autotensor.tensor(a, requires_grad=True)
    L, V = autotensor.linalg.eig(A)
    got, = autotensor.autograd.grad([L, V], A, [autotensor.tensor(gl),
                                                autotensor.tensor(2 * w) * V.detach()])
    eps = 1e-6
    num = np.zeros_like(a)
    for i in range(4):
        for j in range(4):
            d = np.zeros_like(a)
            d[i, j] = eps
            num[i, j] = (loss(a + d) - loss(a - d)) / (2 * eps)
    np.testing.assert_allclose(got.numpy(), num, rtol=1e-6, atol=1e-7)


def test_eigvals_gradcheck_and_graph_like_torch():
    a = _eig_inputs()[0]
    x = autotensor.tensor(a, requires_grad=True)
    assert autotensor.autograd.gradcheck(lambda t: autotensor.linalg.eigvals(t).abs(), (x,))
    got = autotensor.autograd.grad(autotensor.linalg.eigvals(x).abs().sum(), x)[0].numpy()
    t = torch.tensor(a, requires_grad=True)
    want = torch.autograd.grad(torch.linalg.eigvals(t).abs().sum(), t)[0].numpy()
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    assert type(autotensor.linalg.eigvals(x).grad_fn).__name__ == "LinalgEigBackward0"
    assert autotensor.linalg.eigvals(x.detach()).grad_fn is None


def test_eig_phase_dependent_loss_raises_like_torch():
    a = _eig_inputs()[0][0]
    gv = np.zeros((4, 4), complex)
    gv[0, 0] = 1j  # the first column's phase: ill-defined
    errs = []
    for m in (autotensor, torch):
        A = m.tensor(a, requires_grad=True)
        _, V = m.linalg.eig(A)
        with pytest.raises(RuntimeError) as info:
            m.autograd.grad(V, A, m.tensor(gv))
        errs.append(str(info.value))
    assert errs[0] == errs[1]


def test_eig_forward_mode_like_torch():
    """Tangents: dL as torch's; dV up to the column phase (through Re(conj(V) dV), the
    tangent of |V|^2, which does not depend on it)."""
    res = []
    for a in _eig_inputs()[:2]:
        t = np.random.default_rng(8).standard_normal(a.shape)
        if a.dtype.kind == "c":
            t = t + 1j * np.random.default_rng(9).standard_normal(a.shape)
        out = []
        for m in (autotensor, torch):
            fw = m.autograd.forward_ad
            with fw.dual_level():
                L, V = m.linalg.eig(fw.make_dual(m.tensor(a), m.tensor(t)))
                dL, dV = fw.unpack_dual(L).tangent, fw.unpack_dual(V).tangent
                v = V.detach().numpy() if m is torch else fw.unpack_dual(V).primal.numpy()
                out.append((dL.numpy(), np.real(np.conj(v) * dV.numpy())))
        res.append(out)
    for (dLa, da), (dLt, dt) in res:
        np.testing.assert_allclose(dLa, dLt, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(da, dt, rtol=1e-9, atol=1e-11)


def test_eig_double_backward_needs_complex_autograd():
    """No silent zero second derivatives: create_graph=True says what is missing."""
    A = autotensor.tensor(_eig_inputs()[0], requires_grad=True)
    with pytest.raises(NotImplementedError, match="complex autograd"):
        autotensor.autograd.grad(autotensor.linalg.eigvals(A).abs().sum(), A,
                                 create_graph=True)


@pytest.mark.parametrize("call", [
    lambda m, a: m.svd_lowrank(a), lambda m, a: m.svd_lowrank(a.mT, q=3, niter=1),
    lambda m, a: m.svd_lowrank(a, M=a.mean(0, keepdim=True)),
    lambda m, a: m.pca_lowrank(a), lambda m, a: m.pca_lowrank(a, q=2, center=False),
    lambda m, a: m.pca_lowrank(a.expand(2, 7, 5), q=3)], ids=lambda f: "")
def test_lowrank_draws_and_results_like_torch(call):
    """Same seed, same random basis (torch's generator), so the same subspace: S as torch's,
    U and V up to each column's sign (LAPACK builds differ there), gradients of a
    sign-invariant loss and the graph's nodes as torch's."""
    a = np.random.default_rng(4).standard_normal((7, 5))
    res = []
    for m in (autotensor, torch):
        m.manual_seed(3)
        A = m.tensor(a, requires_grad=True)
        U, S, V = call(m, A)
        loss = S.sum() + (U * U).sum(-2).mul(m.arange(U.shape[-1])).sum() + (V ** 4).sum()
        g, = m.autograd.grad(loss, A)
        res.append((U.detach().numpy(), S.detach().numpy(), V.detach().numpy(), g.numpy(),
                    type(U.grad_fn).__name__, type(S.grad_fn).__name__, m.rand(1).item()))
    (Ua, Sa, Va, ga, *na), (Ut, St, Vt, gt, *nt) = res
    assert na[:2] == nt[:2]
    assert na[2] == nt[2]  # the generator is left where torch leaves it
    np.testing.assert_allclose(Sa, St, rtol=1e-10, atol=1e-12)
    for X, Y in ((Ua, Ut), (Va, Vt)):
        np.testing.assert_allclose(X * np.sign(np.sum(X * Y, -2, keepdims=True)), Y,
                                   rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(ga, gt, rtol=1e-9, atol=1e-11)


def test_pca_lowrank_errors_like_torch():
    for kw in ({"q": 5}, {"q": -1}, {"niter": -1}):
        msgs = []
        for m in (autotensor, torch):
            with pytest.raises(ValueError) as info:
                m.pca_lowrank(m.ones(3, 4), **kw)
            msgs.append(str(info.value))
        assert msgs[0] == msgs[1]


# ---- complex inputs: values as torch's; gradients not yet (an error, never a wrong one) ------
_CR = np.random.default_rng(12)
_CA = _CR.standard_normal((3, 3)) + 1j * _CR.standard_normal((3, 3)) + 3 * np.eye(3)
_CH = _CA @ _CA.conj().T + np.eye(3)
_CB = _CR.standard_normal((3, 2)) + 1j * _CR.standard_normal((3, 2))
COMPLEX_CALLS = {
    "det": lambda m, a, h, b: m.linalg.det(a), "slogdet": lambda m, a, h, b: m.linalg.slogdet(a),
    "logdet": lambda m, a, h, b: m.logdet(a), "inv": lambda m, a, h, b: m.linalg.inv(a),
    "inv_ex": lambda m, a, h, b: m.linalg.inv_ex(a),
    "solve": lambda m, a, h, b: m.linalg.solve(a, b),
    "solve left=False": lambda m, a, h, b: m.linalg.solve(a, b.mT, left=False),
    "cholesky": lambda m, a, h, b: m.linalg.cholesky(h),
    "cholesky upper": lambda m, a, h, b: m.linalg.cholesky(h, upper=True),
    "qr": lambda m, a, h, b: m.linalg.qr(a),
    "qr complete": lambda m, a, h, b: m.linalg.qr(b, "complete"),
    "svdvals": lambda m, a, h, b: m.linalg.svdvals(a),
    "eigvalsh": lambda m, a, h, b: m.linalg.eigvalsh(h),
    "pinv": lambda m, a, h, b: m.linalg.pinv(b), "pinv hermitian": lambda m, a, h, b:
    m.linalg.pinv(h, hermitian=True),
    "matrix_norm nuc": lambda m, a, h, b: m.linalg.matrix_norm(a, "nuc"),
    "matrix_norm 2": lambda m, a, h, b: m.linalg.matrix_norm(a, 2), "cond": lambda m, a, h, b:
    m.linalg.cond(a), "solve_triangular": lambda m, a, h, b:
    m.linalg.solve_triangular(a, b, upper=False), "matrix_exp": lambda m, a, h, b:
    m.linalg.matrix_exp(a), "lu_factor": lambda m, a, h, b: m.linalg.lu_factor(a),
    "lu": lambda m, a, h, b: m.linalg.lu(a), "lu_solve": lambda m, a, h, b:
    m.linalg.lu_solve(*m.linalg.lu_factor(a), b), "matrix_power -2": lambda m, a, h, b:
    m.linalg.matrix_power(a, -2), "cholesky_solve": lambda m, a, h, b:
    m.cholesky_solve(b, m.linalg.cholesky(h)), "cholesky_inverse": lambda m, a, h, b:
    m.cholesky_inverse(m.linalg.cholesky(h)), "geqrf": lambda m, a, h, b: m.geqrf(a),
    "householder_product": lambda m, a, h, b: m.linalg.householder_product(*m.geqrf(b)),
    "ormqr": lambda m, a, h, b: m.ormqr(*m.geqrf(a), b, transpose=True),
    "ormqr right": lambda m, a, h, b: m.ormqr(*m.geqrf(a), b.mT, left=False),
    "vecdot": lambda m, a, h, b: m.linalg.vecdot(a, h),
    "vecdot dim": lambda m, a, h, b: m.linalg.vecdot(a, h, dim=0),
}


@pytest.mark.parametrize("name", list(COMPLEX_CALLS))
def test_complex_values_like_torch(name):
    call = COMPLEX_CALLS[name]
    a = _outcome(lambda: call(autotensor, *[autotensor.tensor(x) for x in (_CA, _CH, _CB)]))
    t = _outcome(lambda: call(torch, *[torch.tensor(x) for x in (_CA, _CH, _CB)]))
    _assert_same(a, t, name)


def test_complex_decompositions_up_to_phase_like_torch():
    """eigh's and svd's vectors are defined up to a phase per column (LAPACK builds
    differ): values and dtypes as torch's, vectors after aligning the phases."""
    for call, vals, vecs in ((lambda m: m.linalg.eigh(m.tensor(_CH)), 0, 1),
                             (lambda m: m.linalg.svd(m.tensor(_CA)), 1, 0)):
        got, want = call(autotensor), call(torch)
        assert [str(x.dtype) for x in got] == [str(x.dtype) for x in want]
        np.testing.assert_allclose(got[vals].numpy(), want[vals].numpy(), rtol=1e-10)
        V, W = got[vecs].numpy(), want[vecs].numpy()
        np.testing.assert_allclose(_phase_align(W, V), W, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("batch", [False, True])
def test_complex_logdet_like_torch(batch):
    """logdet of a complex matrix is log(sign) + logabsdet (AddBackward0), as PyTorch's:
    values, the conjugate-Wirtinger gradient through slogdet, and the forward-mode tangent
    (slogdet_jvp: i imag(tr(A^-1 dA)) sign, real(tr(A^-1 dA)))."""
    torch = pytest.importorskip("torch")
    a = np.stack([_CA, _CA.T * 1j]) if batch else _CA
    res = []
    for m in (autotensor, torch):
        x = m.tensor(a, requires_grad=True)
        y = m.logdet(x)
        w = m.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)) + 0.5j)
        (y * w).real.sum().backward()
        fw = m.autograd.forward_ad
        with fw.dual_level():
            d = fw.make_dual(m.tensor(a), m.tensor(np.sin(a)))
            tangent = fw.unpack_dual(m.logdet(d)).tangent
        res.append((type(y.grad_fn).__name__, y.detach().numpy(), x.grad.numpy(),
                    tangent.numpy()))
    assert res[0][0] == res[1][0] == "AddBackward0"
    for got, want in zip(res[0][1:], res[1][1:]):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


_CA2 = _CR.standard_normal((2, 3, 3)) + 1j * _CR.standard_normal((2, 3, 3)) + 3 * np.eye(3)
_CH2 = _CA2 @ np.conj(np.swapaxes(_CA2, -1, -2)) + np.eye(3)
_CV = _CR.standard_normal(3) + 1j * _CR.standard_normal(3)
COMPLEX_GRAD_CALLS = {
    "mm": (lambda m, a, b: m.mm(a[0], b[0]), ("A", "A")),
    "matmul batched": (lambda m, a, b: a @ b[0], ("A", "A")),
    "matmul vector": (lambda m, a, v: a @ v, ("A", "v")),
    "bmm": (lambda m, a, b: m.bmm(a, b), ("A", "A")),
    "dot": (lambda m, v, w: m.dot(v, w * 2), ("v", "v")),
    "vdot": (lambda m, v, w: m.vdot(v, w.flip(0)), ("v", "v")),
    "vecdot": (lambda m, a, b: m.linalg.vecdot(a, b), ("A", "A")),
    "vecdot dim": (lambda m, a, v: m.linalg.vecdot(a, v.unsqueeze(-1), dim=-2), ("A", "v")),
    "mv": (lambda m, a, v: m.mv(a[0], v), ("A", "v")),
    "addmm": (lambda m, a, b: m.addmm(a[1], a[0], b[0], beta=0.5, alpha=2), ("A", "A")),
    "addmv": (lambda m, a, v: m.addmv(v, a[0], v, alpha=3), ("A", "v")),
    "addr": (lambda m, a, v: m.addr(a[0], v, v.flip(0)), ("A", "v")),
    "baddbmm": (lambda m, a, b: m.baddbmm(a, a, b, alpha=0.5), ("A", "A")),
    "addbmm": (lambda m, a, b: m.addbmm(a[0], a, b), ("A", "A")),
    "einsum": (lambda m, a, b: m.einsum("bij,bjk->ik", a, b), ("A", "A")),
    "linear": (lambda m, a, v: m.nn.functional.linear(a, a[0], v), ("A", "v")),
    "det": (lambda m, a: m.linalg.det(a), ("A",)),
    "slogdet": (lambda m, a: m.linalg.slogdet(a), ("A",)),
    "slogdet sign": (lambda m, a: m.linalg.slogdet(a).sign, ("A",)),
    "inv": (lambda m, a: m.linalg.inv(a), ("A",)),
    "inv_ex": (lambda m, a: m.linalg.inv_ex(a).inverse, ("A",)),
    "solve": (lambda m, a, b: m.linalg.solve(a, b), ("A", "A")),
    "solve vector broadcast": (lambda m, a, v: m.linalg.solve(a, v), ("A", "v")),
    "solve left=False": (lambda m, a, b: m.linalg.solve(a, b[0], left=False), ("A", "A")),
    "cholesky": (lambda m, h: m.linalg.cholesky(h), ("H",)),
    "cholesky upper": (lambda m, h: m.linalg.cholesky(h, upper=True), ("H",)),
    "cholesky_ex": (lambda m, h: m.linalg.cholesky_ex(h).L, ("H",)),
    "matrix_exp": (lambda m, a: m.linalg.matrix_exp(a * 0.3), ("A",)),
    "solve_triangular": (lambda m, a, b: m.linalg.solve_triangular(a, b, upper=True),
                         ("A", "A")),
    "solve_triangular right unit": (lambda m, a, b: m.linalg.solve_triangular(
        a, b, upper=False, left=False, unitriangular=True), ("A", "A")),
    "triangular_solve": (lambda m, b, a: m.triangular_solve(b, a), ("A", "A")),
    "triangular_solve transpose": (lambda m, b, a: m.triangular_solve(
        b, a, upper=False, transpose=True), ("A", "A")),
    "cholesky_solve": (lambda m, b, l_: m.cholesky_solve(b, l_), ("A", "L")),
    "cholesky_solve upper": (lambda m, b, u: m.cholesky_solve(b, u, upper=True), ("A", "U")),
    "cholesky_inverse": (lambda m, l_: m.cholesky_inverse(l_), ("L",)),
    "cholesky_inverse upper": (lambda m, u: m.cholesky_inverse(u, upper=True), ("U",)),
    "lu_solve adjoint": (lambda m, a, b: m.linalg.lu_solve(*m.linalg.lu_factor(a), b,
                                                           adjoint=True), ("A", "A")),
    "lu_solve right adjoint": (lambda m, a, b: m.linalg.lu_solve(
        *m.linalg.lu_factor(a), b, left=False, adjoint=True), ("A", "A")),
}


@pytest.mark.parametrize("name", list(COMPLEX_GRAD_CALLS))
def test_complex_gradients_like_torch(name):
    """PyTorch's conjugate-Wirtinger gradients, for complex grad_outputs."""
    call, names = COMPLEX_GRAD_CALLS[name]
    L = np.linalg.cholesky(_CH2)
    arrays = [{"A": _CA2, "H": _CH2, "v": _CV, "L": L,
               "U": np.conj(np.swapaxes(L, -1, -2))}[n] for n in names]
    res = []
    for m in (autotensor, torch):
        xs = [m.tensor(a, requires_grad=True) for a in arrays]
        ys = call(m, *xs)
        ys = ys if isinstance(ys, tuple) else (ys,)
        gs = []
        for i, y in enumerate(ys):
            r = np.random.default_rng(20 + i)
            g = r.standard_normal(tuple(y.shape))
            if y.is_complex():
                g = g + 1j * r.standard_normal(tuple(y.shape))
            gs.append(m.tensor(g))
        got = m.autograd.grad(ys, xs, gs)
        res.append([np.asarray(g.resolve_conj().numpy() if hasattr(g, "resolve_conj")
                               and m is torch else g.numpy()) for g in got])
    for a, t in zip(*res, strict=True):
        assert a.dtype == t.dtype
        np.testing.assert_allclose(a, t, rtol=1e-10, atol=1e-12)


def test_complex_forward_mode_of_det_inv_solve_like_torch():
    t = np.full((2, 3, 3), 0.3 + 0.2j)
    for call in (lambda m, a: m.linalg.det(a), lambda m, a: m.linalg.inv(a),
                 lambda m, a: m.linalg.solve(a, a[0])):
        outs = []
        for m in (autotensor, torch):
            fw = m.autograd.forward_ad
            with fw.dual_level():
                y = call(m, fw.make_dual(m.tensor(_CA2), m.tensor(t)))
                outs.append(fw.unpack_dual(y).tangent.numpy())
        np.testing.assert_allclose(outs[0], outs[1], rtol=1e-10, atol=1e-12)


def test_complex_double_backward_raises():
    x = autotensor.tensor(_CA2, requires_grad=True)
    y = autotensor.linalg.inv(x)
    with pytest.raises(NotImplementedError, match="complex linear algebra"):
        autotensor.autograd.grad(y, x, autotensor.ones_like(y), create_graph=True)


_CHh = _CA2 + np.conj(np.swapaxes(_CA2, -1, -2))
_CB2 = _CR.standard_normal((2, 3, 4)) + 1j * _CR.standard_normal((2, 3, 4))
_W = _CR.standard_normal((2, 3, 3))
_W4 = _CR.standard_normal((2, 4, 4))


def _rand_like(m, y, k):
    r = np.random.default_rng(30 + k)
    g = r.standard_normal(tuple(y.shape))
    return m.tensor(g + 1j * r.standard_normal(tuple(y.shape)) if y.is_complex() else g)


SPECTRAL_GRAD_CALLS = {
    "eigh values": (lambda m, a: m.linalg.eigh(a), _CHh,
                    lambda m, ys: [_rand_like(m, ys[0], 0), None]),
    "eigh vectors (phase-invariant)": (
        lambda m, a: m.linalg.eigh(a, UPLO="U"), _CHh,
        lambda m, ys: [_rand_like(m, ys[0], 0), m.tensor(_W) * ys[1].detach()]),
    "eigvalsh": (lambda m, a: m.linalg.eigvalsh(a), _CHh, lambda m, ys: [_rand_like(m, ys[0], 0)]),
    "svdvals": (lambda m, a: m.linalg.svdvals(a), _CB2, lambda m, ys: [_rand_like(m, ys[0], 0)]),
    "svdvals tall": (lambda m, a: m.linalg.svdvals(a.mT), _CB2,
                     lambda m, ys: [_rand_like(m, ys[0], 0)]),
    "matrix_norm nuc": (lambda m, a: m.linalg.matrix_norm(a, "nuc"), _CB2,
                        lambda m, ys: [_rand_like(m, ys[0], 0)]),
    "pinv": (lambda m, a: m.linalg.pinv(a), _CB2, lambda m, ys: [_rand_like(m, ys[0], 0)]),
    "pinv tall": (lambda m, a: m.linalg.pinv(a.mT), _CB2, lambda m, ys: [_rand_like(m, ys[0], 0)]),
    "pinv hermitian": (lambda m, a: m.linalg.pinv(a, hermitian=True), _CHh,
                       lambda m, ys: [_rand_like(m, ys[0], 0)]),
    "cond": (lambda m, a: m.linalg.cond(a), _CA2, lambda m, ys: [_rand_like(m, ys[0], 0)]),
    "svd (phase-invariant)": (lambda m, a: m.linalg.svd(a), _CB2, lambda m, ys: [
        m.tensor(_W[..., :1]) * ys[0].detach(), _rand_like(m, ys[1], 1),
        m.tensor(_W4) * ys[2].detach()]),
    "svd reduced tall U": (lambda m, a: m.linalg.svd(a.mT, full_matrices=False), _CB2,
                           lambda m, ys: [m.tensor(_W4[..., :1]) * ys[0].detach(), None, None]),
    "svd wide Vh": (lambda m, a: m.linalg.svd(a, full_matrices=False), _CB2,
                    lambda m, ys: [None, None, m.tensor(_W[..., :1]) * ys[2].detach()]),
    "qr": (lambda m, a: m.linalg.qr(a), _CB2,
           lambda m, ys: [_rand_like(m, ys[0], 0), _rand_like(m, ys[1], 1)]),
    "qr tall": (lambda m, a: m.linalg.qr(a.mT), _CB2,
                lambda m, ys: [_rand_like(m, ys[0], 0), _rand_like(m, ys[1], 1)]),
    "lu_factor": (lambda m, a: m.linalg.lu_factor(a), _CA2,
                  lambda m, ys: [_rand_like(m, ys[0], 0), None]),
    "lu": (lambda m, a: m.linalg.lu(a), _CB2,
           lambda m, ys: [None, _rand_like(m, ys[1], 1), _rand_like(m, ys[2], 2)]),
    "householder_product": (lambda m, a: m.linalg.householder_product(a.mT, a[..., 0, :3]),
                            _CB2, lambda m, ys: [_rand_like(m, ys[0], 0)]),
    "ormqr adjoint": (lambda m, a: m.ormqr(a[..., :3], a[..., 0, :3], a, transpose=True), _CB2,
                      lambda m, ys: [_rand_like(m, ys[0], 0)]),
}


@pytest.mark.parametrize("name", list(SPECTRAL_GRAD_CALLS))
def test_complex_spectral_gradients_like_torch(name):
    call, a, grads = SPECTRAL_GRAD_CALLS[name]
    res = []
    for m in (autotensor, torch):
        x = m.tensor(a, requires_grad=True)
        ys = call(m, x)
        ys = ys if isinstance(ys, tuple) else (ys,)
        gs = grads(m, ys)
        g, = m.autograd.grad([y for y, g_ in zip(ys, gs) if g_ is not None], x,
                             [g_ for g_ in gs if g_ is not None])
        res.append(g.resolve_conj().numpy() if m is torch else g.numpy())
    np.testing.assert_allclose(res[0], res[1], rtol=1e-9, atol=1e-11)


def test_complex_eigh_and_svd_phase_checks_like_torch():
    """A loss that depends on the eigen- or singular vectors' phases: PyTorch's errors."""
    gv = np.zeros((2, 3, 3), complex)
    gv[0, 0, 0] = 1j
    errs = []
    for m in (autotensor, torch):
        x = m.tensor(_CHh, requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            m.autograd.grad(m.linalg.eigh(x).eigenvectors, x, m.tensor(gv))
        errs.append(str(info.value))
    assert errs[0] == errs[1]
    g = np.zeros((2, 3, 3), complex)
    g[0, 0, 0] = 1j
    errs = []
    for m in (autotensor, torch):
        x = m.tensor(_CB2, requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            m.autograd.grad(m.linalg.svd(x).U, x, m.tensor(g))
        errs.append(str(info.value))
    assert errs[0] == errs[1]


def test_complex_lu_pivots_like_lapack():
    """zgetrf pivots on |re| + |im| (izamax), not on the modulus."""
    rng = np.random.default_rng(13)
    a = rng.standard_normal((40, 4, 4)) + 1j * rng.standard_normal((40, 4, 4))
    got = autotensor.linalg.lu_factor(autotensor.tensor(a))
    want = torch.linalg.lu_factor(torch.tensor(a))
    np.testing.assert_array_equal(got.pivots.numpy(), want.pivots.numpy())
    np.testing.assert_allclose(got.LU.numpy(), want.LU.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("fn", ["svd_lowrank", "pca_lowrank"])
def test_complex_lowrank_values_like_torch(fn):
    """Complex inputs: the same complex random basis (torch's generator), S as torch's and U
    up to each column's phase; a gradient for a complex input raises (no differentiable
    conj yet)."""
    a = np.random.default_rng(0).standard_normal((6, 5)) + 1j * np.random.default_rng(
        1).standard_normal((6, 5))
    for A in (a, a.T.copy()):
        res = []
        for m in (autotensor, torch):
            m.manual_seed(1)
            U, S, V = getattr(m, fn)(m.tensor(A), q=3)
            res.append((U.resolve_conj().numpy() if m is torch else U.numpy(), S.numpy(),
                        m.rand(1).item()))
        (Ua, Sa, ra), (Ut, St, rt) = res
        np.testing.assert_allclose(Sa, St, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(_phase_align(Ut, Ua), Ut, rtol=1e-9, atol=1e-11)
        assert ra == rt
    with pytest.raises(NotImplementedError, match="gradients of complex inputs"):
        getattr(autotensor, fn)(autotensor.tensor(a, requires_grad=True))


@pytest.mark.parametrize("perm_a", [(0, 1), (1, 0)])
@pytest.mark.parametrize("perm_b", [(0, 1), (1, 0)])
@pytest.mark.parametrize("step", [1, 2])
@pytest.mark.parametrize("b_shape", [(2,), (2, 3), (1, 3), (3, 1), (2, 2, 2)])
def test_kron_of_permuted_inputs_raises_where_pytorch_does(perm_a, perm_b, step, b_shape):
    """PyTorch's kron is _unsafe_view(mul(views), shape), a view of a product laid out by
    TensorIterator after the inputs' strides: a transposed or sliced input can make it
    raise "view size is not compatible" (found by the fuzzer under a dual level)."""
    torch = pytest.importorskip("torch")
    rng = np.random.RandomState(0)
    x = rng.randn(3, 4).astype(np.float32)
    y = rng.randn(*b_shape).astype(np.float32)
    results = []
    for lib in (torch, autotensor):
        a = lib.tensor(x).permute(*perm_a)[..., ::step]
        b = lib.tensor(y)
        if b.dim() == 2:
            b = b.permute(*perm_b)
        try:
            results.append(np.asarray(lib.kron(a, b).tolist()))
        except RuntimeError as e:
            results.append(str(e))
    if isinstance(results[0], str):
        assert results[1] == results[0]
    else:
        np.testing.assert_allclose(results[1], results[0], rtol=1e-6)


@pytest.mark.parametrize("complex_", [False, True])
def test_torch_svd_as_aten(complex_):
    """torch.svd: V is Vh's adjoint (conjugated for complex input, a conjugate-bit view);
    without uv, S is svdvals and U, V are zeros of (m, m) and (n, n) (V the adjoint of a
    contiguous Vh), whatever ``some`` says."""
    g = np.random.RandomState(0)
    a = g.standard_normal((2, 4, 3)) + (1j * g.standard_normal((2, 4, 3)) if complex_ else 0)

    def run(m):
        out = []
        x = m.tensor(a, requires_grad=True)
        U, S, V = m.svd(x)
        Vh = m.linalg.svd(x, full_matrices=False)[2]  # (V up to LAPACK's phases: V^H Vh^H)
        out.append((np.round(np.abs((V.mH @ Vh.mH).detach().numpy()), 8).tolist(),
                    V.is_conj(), V.stride(), V.grad_fn.name()))
        for some in (True, False):
            U, S, V = m.svd(x, some=some, compute_uv=False)
            out.append((tuple(U.shape), U.stride(), tuple(V.shape), V.stride(),
                        S.grad_fn.name(), np.round(S.detach().numpy(), 10).tolist()))
        return out
    assert run(autotensor) == run(torch)
