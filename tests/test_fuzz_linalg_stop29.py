"""Stop 29, helper la29: the final stop-28 run's reproducers of svd, renorm and in-place
ops on split outputs (tests/fuzz/pending_stop28/fin_repro_003, 006, 007, 010, 021) and
their classes, against PyTorch:

- svd in the input's precision (gesdd's float32 rounding residues, read by pinverse,
  matrix_rank, cond), and gesdd's steps for vectors holding an infinity or a -0.0 (MKL's
  signs: svd([[inf]]) has U = 1); svd's and pinv's forward rules as PyTorch's
  linalg_svd_jvp and pinv_jvp, E's diagonal written over (huge and infinite singular
  values);
- renorm's tangent and gradient in float32 for float16/bfloat16 (renorm_jvp's and
  renorm_backward's accumulate type), norm_jvp's in-place division for p = 2 (the sum's
  dtype), the inf norm over an empty dim refused;
- an in-place op under no_grad whose other operand is a multi-output (or no_grad) view of
  the written tensor, under forward AD: computed, as PyTorch's _fw_primal collects no edge
  without grad mode."""
import itertools
import os
import warnings

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_HERE = os.path.dirname(os.path.abspath(__file__))
_INF = float("inf")


@pytest.mark.parametrize("n", ["003", "006", "007", "010", "021"])
def test_final_stop28_reproducers(n):
    from tests.fuzz.core import run_reproducer
    run_reproducer(os.path.join(_HERE, "fuzz", "pending_stop28", f"fin_repro_{n}.py"))


def _arrays(r):
    r = r if isinstance(r, tuple) else (r,)
    return [np.array(t.detach().tolist(), dtype=float) for t in r]


def _same(ours, theirs, rtol, what):
    assert len(ours) == len(theirs), what
    for a, b in zip(ours, theirs):
        assert a.shape == b.shape, what
        assert np.array_equal(np.isnan(a), np.isnan(b)), (what, a, b)
        f = np.isfinite(b)
        assert np.array_equal(a[~f & ~np.isnan(b)], b[~f & ~np.isnan(b)]), (what, a, b)
        scale = np.abs(b[f]).max() if f.any() else 0.0
        np.testing.assert_allclose(a[f], b[f], rtol=rtol, atol=rtol * scale, err_msg=str(what))


def _both(fn, a, dtype):
    return [fn(m, m.tensor(a, dtype=getattr(m, dtype))) for m in (autotensor, torch)]


# ---- svd in single precision (fin_repro_021) ---------------------------------------------
def test_float32_svd_is_single_precision():
    """PyTorch's sgesdd leaves sigma_2 = 1.35e-8 for ones(2, 2) in float32 on an Intel CPU
    (NumPy's double route gave 3.4e-17), and pinverse's rcond=1e-15 keeps it: entries
    3.7e7, not 0.25; on an AMD EPYC both libraries' float32 sweeps give an exact 0 (and
    0.25)."""
    ones = np.ones((2, 2))
    ours, theirs = _both(lambda m, x: m.linalg.svdvals(x), ones, "float32")
    assert (ours[1].item() > 1e-9) == (theirs[1].item() > 1e-9)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-3)
    for fn in (lambda m, x: m.pinverse(x), lambda m, x: m.linalg.pinv(x, rtol=1e-12),
               lambda m, x: m.linalg.matrix_rank(x, rtol=1e-12),
               lambda m, x: m.linalg.cond(x)):
        ours, theirs = _both(fn, ones, "float32")
        _same(_arrays(ours), _arrays(theirs), 1e-3, fn)
    # float64 keeps double precision: sigma_2 of ones(2, 2) is 3.4e-17 in both
    ours, theirs = _both(lambda m, x: m.linalg.svdvals(x), ones, "float64")
    _same(_arrays(ours), _arrays(theirs), 1e-9, "float64")


def test_float32_rank_one_pinv_as_pytorch():
    """The pseudo-inverses of float32 rank-1 matrices read the residue singular value
    (pinverse's rcond is 1e-15): measured, 50 of 50 2 x 2 and 43 of 50 2 x 3 agree with
    PyTorch's to 1e-4 (3 x 3: 24, 3 x 2: 0: OpenBLAS's and MKL's residues differ), the
    double route none."""
    rng = np.random.default_rng(29)
    for shape, need in (((2, 2), 20), ((2, 3), 14)):
        agree = double = 0
        for _ in range(20):
            a = np.outer(rng.standard_normal(shape[0]), rng.standard_normal(shape[1]))
            a = a.astype(np.float32)
            ours, theirs = _both(lambda m, x: m.pinverse(x), a.astype(float), "float32")
            theirs = theirs.numpy()
            close = dict(rtol=1e-4, atol=1e-4 * np.abs(theirs).max())
            agree += np.allclose(ours.numpy(), theirs, **close)
            double += np.allclose(np.linalg.pinv(a.astype(float), rcond=1e-15), theirs,
                                  **close)
        assert agree >= need and double == 0, (shape, agree, double)


# ---- vectors with an infinity or a -0.0 (fin_repro_003, 010) ---------------------------
def _vector_inputs():
    out = []
    for shape in ((1, 1), (2, 1), (3, 1), (1, 2), (1, 3)):
        for vals in itertools.product([1.0, -2.0, _INF, -_INF, -0.0, 0.0], repeat=max(shape)):
            if any(np.isinf(vals)) or any(v == 0 and np.signbit(v) for v in vals):
                out.append(np.array(vals).reshape(shape))
    return out


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_svd_of_vectors_with_infinities_and_negative_zeros(dtype):
    """gesdd's steps for one row or column: lascl's A * 0 for an infinite norm, the geqrf /
    gelqf reflector (MKL's larfg) and bdsdc's 1 x 1 sign, +1 for a NaN and for -0.0 in MKL
    (NumPy's OpenBLAS: -1). Values, and the tangents of all three outputs."""
    fw = {m: m.autograd.forward_ad for m in (autotensor, torch)}
    bad = []
    for a in _vector_inputs():
        t = np.linspace(-1.3, 0.7, a.size).reshape(a.shape)
        for full in (False, True):
            res = []
            for m in (autotensor, torch):
                x = m.tensor(a, dtype=getattr(m, dtype))
                vals = _arrays(m.linalg.svd(x, full_matrices=full))
                with fw[m].dual_level():
                    d = fw[m].make_dual(x, m.tensor(t, dtype=getattr(m, dtype)))
                    tans = [fw[m].unpack_dual(o).tangent for o in m.linalg.svd(d, full)]
                res.append((vals, _arrays(tuple(tans))))
            try:
                _same(res[0][0], res[1][0], 2e-6, "values")
                if not full:  # (full U's extra columns: PyTorch pads zeros, a gauge anyway)
                    _same(res[0][1], res[1][1], 2e-6, "tangents")
            except AssertionError:
                bad.append((a.tolist(), full))
    assert not bad, bad[:5]


def test_svd_of_one_by_one_matches_mkl():
    """[[inf]], [[-inf]]: U = V = 1, S = NaN; [[-0.0]]: U = 1; batches of them; svd()[1]'s
    tangent is u t v (fin_repro_003: -1.624 here before)."""
    a = np.array([[[_INF]], [[-_INF]], [[-0.0]], [[-2.0]], [[3.0]]])
    for dtype in ("float32", "float64"):
        ours, theirs = _both(lambda m, x: m.svd(x), a, dtype)
        _same(_arrays(ours), _arrays(theirs), 1e-12, dtype)
        for m in (autotensor, torch):
            fw = m.autograd.forward_ad
            with fw.dual_level():
                x = fw.make_dual(m.tensor([[_INF]], dtype=getattr(m, dtype)),
                                 m.tensor([[1.624]], dtype=getattr(m, dtype)))
                assert fw.unpack_dual(x.svd()[1]).tangent.item() == pytest.approx(1.624)


def test_svd_of_vector_with_nan_raises_pytorchs_error():
    for shape in ((1, 1), (2, 1), (1, 3)):
        a = np.full(shape, _INF)
        a.flat[-1] = float("nan")
        for m in (autotensor, torch):
            with pytest.raises(RuntimeError, match="contained non-finite values"):
                m.linalg.svd(m.tensor(a))


_HANG = [[-7.6269627e-01, 1.0e30, -1.9744298e-01], [-_INF, 1.4012985e-45, -5.7416475e-01],
         [-1.0694776e+00, -8.4580278e-01, 1.3119833e+00]]


_HANG_LSTSQ = [[_INF, 1e-40, 0.905355867, 1.0], [-0.536953235, 0.581118104, 0.364572396,
                0.294132497], [0.0284222413, -1e-30, 1e-300, -0.162909948],
               [-0.482119313, -0.0, 0.0397221075, -0.292456751]]


def test_svd_of_a_matrix_with_an_infinity_returns():
    """OpenBLAS's gesdd never returns on this float32 3 x 3 (either precision; the stop-28
    end run's hang): a matrix with an infinity and both dims >= 3 does not reach LAPACK,
    S, U and Vh are NaN (MKL's S is all NaN; its U, Vh NaN in its own pattern). Run in a
    subprocess, so that a regression fails instead of hanging the suite. lstsq's gelsd
    (NumPy's) the same: NumPy's error without calling it."""
    import subprocess
    import sys
    code = ("import autotensor as t; inf = float('inf'); a = t.tensor(%r); "
            "U, S, Vh = t.linalg.svd(a); "
            "assert S.isnan().all(); assert t.linalg.svdvals(a).isnan().all(); "
            "t.linalg.pinv(a); t.linalg.matrix_rank(a); t.linalg.matrix_norm(a, 'nuc'); "
            "t.linalg.svd(t.stack([a, a.nan_to_num(posinf=0.0, neginf=0.0)]))\n"
            "A = t.tensor(%r, dtype=t.float64)\n"
            "try:\n    t.linalg.lstsq(A, t.ones(4, 2, dtype=t.float64))\n"
            "except ValueError as e:\n    assert 'did not converge' in str(e)\n"
            % (_HANG, _HANG_LSTSQ))
    root = os.path.dirname(_HERE)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, timeout=60,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    theirs = torch.linalg.svdvals(torch.tensor(_HANG))
    assert theirs.isnan().all()
    # a batch: the finite matrix is computed, the infinite one NaN
    a = np.array(_HANG, np.float32)
    batch = np.stack([a, np.nan_to_num(a, posinf=0.0, neginf=0.0)])
    S = autotensor.linalg.svdvals(autotensor.tensor(batch)).numpy()
    assert np.isnan(S[0]).all()
    np.testing.assert_allclose(S[1], torch.linalg.svdvals(torch.tensor(batch[1])).numpy(),
                               rtol=1e-5)


# ---- svd's forward rule as PyTorch's linalg_svd_jvp --------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_svd_jvp_of_huge_singular_values(dtype):
    """S * S overflows for 3e38 (float32) / 1e308 (float64): PyTorch's E has its diagonal
    written over with 1 (not inf - inf + 1) and its jvp groups the terms its own way, so
    a 1 x 1 or vector input has zero tangents for U and Vh (ours were NaN) and a 2 x 2 the
    NaNs where PyTorch's are."""
    big = 3e38 if dtype == "float32" else 1e308
    rng = np.random.default_rng(3)
    fw = {m: m.autograd.forward_ad for m in (autotensor, torch)}
    for shape in ((1, 1), (2, 1), (1, 2), (2, 2), (3, 2)):
        base = rng.standard_normal(shape)
        t = rng.standard_normal(shape)
        for pos in itertools.product(range(shape[0]), range(shape[1])):
            for v in (big, -big):
                a = base.copy()
                a[pos] = v
                res = []
                for m in (autotensor, torch):
                    with fw[m].dual_level():
                        d = fw[m].make_dual(m.tensor(a, dtype=getattr(m, dtype)),
                                            m.tensor(t, dtype=getattr(m, dtype)))
                        outs = m.linalg.svd(d, full_matrices=False)
                        res.append(_arrays(tuple(fw[m].unpack_dual(o).tangent for o in outs)))
                _same(res[0], res[1], 1e-4 if dtype == "float32" else 1e-9, (shape, pos, v))


def test_svd_jvp_real_values_and_full_matrices():
    """Gauge-free tangents (S, U diag(S) Vh, U U^H) of random real matrices, reduced and
    full, against PyTorch's."""
    rng = np.random.default_rng(5)
    for dtype, tol in (("float64", 1e-10), ("float32", 1e-4)):
        for shape in ((3, 3), (4, 2), (2, 4), (2, 3, 2)):
            for full in (False, True):
                a, t = rng.standard_normal(shape), rng.standard_normal(shape)
                res = []
                for m in (autotensor, torch):
                    fw = m.autograd.forward_ad
                    with fw.dual_level():
                        d = fw.make_dual(m.tensor(a, dtype=getattr(m, dtype)),
                                         m.tensor(t, dtype=getattr(m, dtype)))
                        U, S, Vh = m.linalg.svd(d, full_matrices=full)
                        k = S.shape[-1]
                        U, Vh = U[..., :k], Vh[..., :k, :]
                        outs = (S, (U * S.unsqueeze(-2)) @ Vh, U @ U.mT)
                        res.append(_arrays(tuple(fw.unpack_dual(o).tangent for o in outs)))
                for a_, b_ in zip(*res):  # (U U^T's tangent is 0 up to rounding if square)
                    np.testing.assert_allclose(a_, b_, rtol=tol, atol=tol)


def test_pinv_jvp_as_pytorchs():
    """pinv's forward rule is PyTorch's pinv_jvp (was the backward's transpose): equal
    up to rounding on random matrices, and the same zeros (not NaNs) for a 3e38 entry."""
    rng = np.random.default_rng(7)
    cases = [(rng.standard_normal(s), "float64") for s in ((3, 3), (3, 2), (2, 3), (2, 3, 2))]
    for pos in ((0, 0), (1, 1), (0, 1)):
        a = rng.standard_normal((2, 2))
        a[pos] = 3e38
        cases.append((a, "float32"))
    for a, dtype in cases:
        t = rng.standard_normal(a.shape)
        res = []
        for m in (autotensor, torch):
            fw = m.autograd.forward_ad
            with fw.dual_level():
                d = fw.make_dual(m.tensor(a, dtype=getattr(m, dtype)),
                                 m.tensor(t, dtype=getattr(m, dtype)))
                res.append(_arrays(fw.unpack_dual(m.linalg.pinv(d)).tangent))
        _same(res[0], res[1], 1e-10 if dtype == "float64" else 1e-4, a)


def test_svd_family_of_non_finite_vectors_gradients():
    """Gradients of svdvals, matrix_norm(2 / nuc) and pinv of vectors with an infinity:
    they read U and V, now MKL's."""
    fns = (lambda m, x: m.linalg.svdvals(x).sum(),
           lambda m, x: m.linalg.matrix_norm(x, ord=2),
           lambda m, x: m.linalg.matrix_norm(x, ord="nuc"),
           lambda m, x: m.linalg.pinv(x).sum())
    for a in ([[_INF]], [[-_INF]], [[_INF], [1.0]], [[2.0, -_INF, 1.0]], [[-0.0, 1.0]]):
        for i, fn in enumerate(fns):
            grads = []
            for m in (autotensor, torch):
                x = m.tensor(a, dtype=m.float64, requires_grad=True)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    grads.append(_arrays(m.autograd.grad(fn(m, x), x)))
            _same(grads[0], grads[1], 1e-12, (a, i))


# ---- renorm (fin_repro_006) --------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_renorm_tangent_and_gradient_dtypes_and_values(dtype):
    """renorm_jvp takes the norm in float32 for float16/bfloat16 (where() then promotes the
    tangent to float32, empty inputs too); renorm_backward sums self * grad in float32 and
    casts the result back to grad's dtype."""
    tol = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 2e-6, "float64": 1e-12}[dtype]
    rng = np.random.default_rng(1)
    for shape, dim, maxnorm in (((3, 4), 0, 1.0), ((3, 4), 1, 0.5), ((2, 3, 2), 1, 2.0),
                                ((0, 0), 0, 1.0), ((0, 3), 1, 1.0), ((3, 0), 0, 1.0)):
        for p in (2, 1, 3, 1.5, 0.5, _INF):
            if p == _INF and 0 in [s for i, s in enumerate(shape) if i != dim]:
                continue
            a, t, g = (rng.standard_normal(shape) for _ in range(3))
            res = []
            for m in (autotensor, torch):
                dt = getattr(m, dtype)
                fw = m.autograd.forward_ad
                with fw.dual_level():
                    y = fw.make_dual(m.tensor(a, dtype=dt), m.tensor(t, dtype=dt)).renorm(
                        p, dim, maxnorm)
                    tan = fw.unpack_dual(y).tangent
                x = m.tensor(a, dtype=dt, requires_grad=True)
                gr, = m.autograd.grad(x.renorm(p, dim, maxnorm), x, m.tensor(g, dtype=dt))
                res.append((str(tan.dtype).split(".")[-1], str(gr.dtype).split(".")[-1],
                            _arrays((y, tan, gr))))
            assert res[0][:2] == res[1][:2], (shape, p, res[0][:2], res[1][:2])
            _same(res[0][2], res[1][2], tol, (dtype, shape, dim, p))


def test_renorm_inf_norm_over_an_empty_dim_refused():
    msgs = []
    for m in (autotensor, torch):
        with pytest.raises(RuntimeError) as e:
            m.zeros(3, 0).renorm(_INF, 0, 1.0)
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]
    assert "cannot compute the inf norm on the dimension 1because" in msgs[0]
    for m in (autotensor, torch):  # (an empty result is computed)
        assert m.zeros(0, 3).renorm(_INF, 0, 1.0).shape == (0, 3)


def test_vector_norm_p2_tangent_keeps_the_sums_dtype():
    """norm_jvp's p = 2 term is sum(self * self_t).div_(norm): in place, so a float32 input
    with dtype=float64 has a float32 tangent (float16 with dtype=float32: float16)."""
    for dt, out in (("float32", "float64"), ("float16", "float32"), ("bfloat16", "float64")):
        for p in (2, 1, 3, _INF):
            res = []
            for m in (autotensor, torch):
                fw = m.autograd.forward_ad
                with fw.dual_level():
                    x = fw.make_dual(m.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]],
                                              dtype=getattr(m, dt)),
                                     m.tensor([[0.3, 0.7, -1.1], [1.0, 2.0, 3.0]],
                                              dtype=getattr(m, dt)))
                    tan = fw.unpack_dual(m.linalg.vector_norm(
                        x, p, dim=1, dtype=getattr(m, out))).tangent
                res.append((str(tan.dtype).split(".")[-1], _arrays(tan)))
            assert res[0][0] == res[1][0], (dt, out, p, res[0][0], res[1][0])
            _same(res[0][1], res[1][1], 1e-2 if "16" in dt else 2e-6, (dt, out, p))


def test_inplace_jvp_terms_keep_the_primals_dtype():
    """var(0) of a 0-d float16 has a float32 tangent (in both); PyTorch's logsumexp_jvp
    (``self_p_exp *= self_t``) and norm_jvp's p = 1 term (``sgn(self_p).mul_(self_t)``)
    multiply in place, so what follows has a float16 tangent again (a final-run program of
    this stop: var(0).logsumexp(0)); ours promoted to float32."""
    ops = (lambda v: v.logsumexp(0), lambda v: autotensor_or(v).linalg.vector_norm(v, 1),
           lambda v: autotensor_or(v).linalg.vector_norm(v, 2), lambda v: v.softmax(0),
           lambda v: v.log_softmax(0), lambda v: v.exp(), lambda v: v.sum())
    for dtype in ("float16", "bfloat16"):
        for i, fn in enumerate(ops):
            res = []
            for m in (autotensor, torch):
                fw = m.autograd.forward_ad
                with fw.dual_level(), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    x = fw.make_dual(m.tensor(1.7, dtype=getattr(m, dtype)),
                                     m.tensor(1.6, dtype=getattr(m, dtype)))
                    t = fw.unpack_dual(fn(x.var(0))).tangent
                    res.append(str(t.dtype).split(".")[-1])
            assert res[0] == res[1], (dtype, i, res)


def autotensor_or(t):
    return autotensor if isinstance(t, autotensor.Tensor) else torch


# ---- in-place ops on a split output's base (fin_repro_007) -------------------------------
def _inplace_scenario(m, n, grad_mode, requires_grad, kind, target, nograd_view):
    fw = m.autograd.forward_ad
    with fw.dual_level():
        leaf = m.zeros(2 * n + (1 if n else 0), requires_grad=requires_grad)
        base = fw.make_dual(leaf, m.ones_like(leaf)) * 1.0

        def make():
            if kind == "split":
                return base.split(n)[-1] if n else base.split(1)[0]
            if kind == "chunk":
                return base.chunk(2)[-1] if n else base.chunk(1)[0]
            if kind == "unbind":
                return base.view(-1, 1).unbind(0)[-1]
            if kind == "tensor_split":
                return base.tensor_split(2)[-1]
            return base[n:]
        if nograd_view:
            with m.no_grad():
                x = make()
        else:
            x = make()
        t = base if target == "base" else base[:n]
        try:
            if grad_mode:
                t.mul_(x)
            else:
                with m.no_grad():
                    t.mul_(x)
            return "ok"
        except RuntimeError as e:
            return str(e)


def test_inplace_with_a_multi_output_view_operand_under_no_grad():
    """PyTorch's forward rule reads other's primal through _fw_primal, which collects the
    input's edges (regenerating a stale view's grad_fn, refused for split/chunk/unbind
    outputs and no_grad views) only when grad mode is on: under no_grad it computes."""
    diffs = []
    for kind, n, gm, rg, target, ngv in itertools.product(
            ("split", "chunk", "unbind", "tensor_split", "slice"), (0, 2), (True, False),
            (True, False), ("base", "slice"), (False, True)):
        if kind == "unbind" and n == 0:
            continue
        r = [_inplace_scenario(m, n, gm, rg, kind, target, ngv) for m in (autotensor, torch)]
        if r[0] != r[1]:
            diffs.append((kind, n, gm, rg, target, ngv, r))
    assert not diffs, diffs[:3]
    # the case the final run found: no_grad, an empty tensor times its own split output
    assert _inplace_scenario(autotensor, 0, False, True, "split", "base", False) == "ok"
