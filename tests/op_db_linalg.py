"""op_db samples for linear algebra (torch.linalg, matmul family, decompositions).

Imported by op_db.py at its end; ``add`` appends to the shared ``SAMPLES`` list, so every
sample here gets the generated tests (values, gradcheck, gradgradcheck, forward AD vs torch).
"""
import numpy as np  # noqa: F401

from op_db import add  # noqa: F401


def _sq(g, *batch, n=3):
    """Well-conditioned square matrices: random plus n on the diagonal."""
    return g.u(*batch, n, n) + n * np.eye(n)


def _spd(g, *batch, n=3):
    """Half an SPD matrix: ``x + x^T`` is SPD (samples symmetrise, as eigh/cholesky read one
    triangle and PyTorch's gradients are the symmetric ones)."""
    x = g.u(*batch, n, n)
    return 0.5 * (x @ np.swapaxes(x, -1, -2)) + 1.5 * np.eye(n)


def _sym(m, x):
    return x + x.transpose(-2, -1)


# ---- products -------------------------------------------------------------------------------
add("la_vdot", lambda m, a, b: m.vdot(a, b), lambda g: [g.u(4), g.u(4)], ref=np.vdot)
add("la_vdot_method", lambda m, a, b: a.vdot(b), lambda g: [g.u(3), g.u(3)], ref=np.vdot)
add("la_inner_1d", lambda m, a, b: m.inner(a, b), lambda g: [g.u(4), g.u(4)], ref=np.inner)
add("la_inner_2d", lambda m, a, b: m.inner(a, b), lambda g: [g.u(2, 3), g.u(4, 3)],
    ref=np.inner)
add("la_inner_3d_1d", lambda m, a, b: a.inner(b), lambda g: [g.u(2, 2, 3), g.u(3)],
    ref=np.inner)
add("la_inner_scalar", lambda m, a, b: m.inner(a, b), lambda g: [g.u(), g.u(2, 3)],
    ref=np.inner)
add("la_ger", lambda m, a, b: m.ger(a, b), lambda g: [g.u(3), g.u(2)], ref=np.outer)
add("la_addmv", lambda m, s, a, v: m.addmv(s, a, v), lambda g: [g.u(2), g.u(2, 3), g.u(3)],
    ref=lambda s, a, v: s + a @ v)
add("la_addmv_beta_alpha_bcast", lambda m, s, a, v: m.addmv(s, a, v, beta=0.5, alpha=2),
    lambda g: [g.u(1), g.u(2, 3), g.u(3)], ref=lambda s, a, v: 0.5 * s + 2 * (a @ v))
add("la_addmv_method", lambda m, s, a, v: s.addmv(a, v, beta=0), lambda g: [g.u(2), g.u(2, 3),
    g.u(3)], ref=lambda s, a, v: a @ v)
add("la_addr", lambda m, s, a, b: m.addr(s, a, b), lambda g: [g.u(3, 2), g.u(3), g.u(2)],
    ref=lambda s, a, b: s + np.outer(a, b))
add("la_addr_bcast_alpha", lambda m, s, a, b: s.addr(a, b, beta=2, alpha=-1.5),
    lambda g: [g.u(2), g.u(3), g.u(2)], ref=lambda s, a, b: 2 * s - 1.5 * np.outer(a, b))
add("la_baddbmm", lambda m, s, a, b: m.baddbmm(s, a, b),
    lambda g: [g.u(2, 2, 4), g.u(2, 2, 3), g.u(2, 3, 4)], ref=lambda s, a, b: s + a @ b)
add("la_baddbmm_bcast", lambda m, s, a, b: s.baddbmm(a, b, beta=0.5, alpha=3),
    lambda g: [g.u(4), g.u(2, 2, 3), g.u(2, 3, 4)],
    ref=lambda s, a, b: 0.5 * s + 3 * (a @ b))
add("la_addbmm", lambda m, s, a, b: m.addbmm(s, a, b),
    lambda g: [g.u(2, 4), g.u(3, 2, 3), g.u(3, 3, 4)],
    ref=lambda s, a, b: s + (a @ b).sum(0))
add("la_addbmm_alpha", lambda m, s, a, b: s.addbmm(a, b, beta=2, alpha=0.5),
    lambda g: [g.u(1, 4), g.u(3, 2, 3), g.u(3, 3, 4)],
    ref=lambda s, a, b: 2 * s + 0.5 * (a @ b).sum(0))
add("la_tensordot_int", lambda m, a, b: m.tensordot(a, b, 2),
    lambda g: [g.u(2, 3, 4), g.u(3, 4, 2)], ref=lambda a, b: np.tensordot(a, b, 2))
add("la_tensordot_lists", lambda m, a, b: m.tensordot(a, b, dims=([1, 2], [1, 0])),
    lambda g: [g.u(2, 3, 4), g.u(4, 3, 2)],
    ref=lambda a, b: np.tensordot(a, b, ([1, 2], [1, 0])))
add("la_tensordot_1", lambda m, a, b: m.tensordot(a, b, dims=1),
    lambda g: [g.u(3, 3), g.u(3, 2)], ref=lambda a, b: np.tensordot(a, b, 1))
add("la_tensordot_0", lambda m, a, b: m.tensordot(a, b, dims=0),
    lambda g: [g.u(2), g.u(3)], ref=lambda a, b: np.tensordot(a, b, 0))
add("la_kron", lambda m, a, b: m.kron(a, b), lambda g: [g.u(2, 3), g.u(3, 2)], ref=np.kron)
add("la_kron_mixed_rank", lambda m, a, b: a.kron(b), lambda g: [g.u(2, 2), g.u(3)],
    ref=np.kron)
add("la_multi_dot", lambda m, a, b, c: m.linalg.multi_dot([a, b, c]),
    lambda g: [g.u(2, 3), g.u(3, 4), g.u(4, 2)], ref=lambda a, b, c: a @ b @ c)
add("la_multi_dot_vectors", lambda m, a, b, c: m.linalg.multi_dot([a, b, c]),
    lambda g: [g.u(3), g.u(3, 4), g.u(4)], ref=lambda a, b, c: a @ b @ c)
add("la_multi_dot_4", lambda m, a, b, c, d: m.linalg.multi_dot([a, b, c, d]),
    lambda g: [g.u(4, 2), g.u(2, 5), g.u(5, 1), g.u(1, 3)], ref=lambda a, b, c, d: a @ b @ c @ d)
add("la_vecdot", lambda m, a, b: m.linalg.vecdot(a, b), lambda g: [g.u(2, 3), g.u(3)],
    ref=lambda a, b: (a * b).sum(-1))
add("la_vecdot_dim", lambda m, a, b: m.linalg.vecdot(a, b, dim=0),
    lambda g: [g.u(3, 2), g.u(3, 2)], ref=lambda a, b: (a * b).sum(0))
add("la_trace", lambda m, a: m.trace(a), lambda g: [g.u(3, 3)], ref=np.trace)
add("la_trace_rect", lambda m, a: a.trace(), lambda g: [g.u(2, 4)], ref=np.trace)
add("la_cross", lambda m, a, b: m.linalg.cross(a, b), lambda g: [g.u(2, 3), g.u(2, 3)],
    ref=lambda a, b: np.cross(a, b))
add("la_cross_dim_bcast", lambda m, a, b: m.cross(a, b, dim=0), lambda g: [g.u(3, 2),
    g.u(3, 1)], ref=lambda a, b: np.cross(a, b, axis=0))
add("la_diag_matrix", lambda m, a: m.diag(a), lambda g: [g.u(3, 4)], ref=np.diag)
add("la_diag_offset", lambda m, a: a.diag(1), lambda g: [g.u(3, 4)], ref=lambda a: np.diag(a, 1))
add("la_diag_vector", lambda m, a: m.diag(a, -1), lambda g: [g.u(3)],
    ref=lambda a: np.diag(a, -1))
add("la_diag_embed", lambda m, a: m.diag_embed(a), lambda g: [g.u(2, 3)])
add("la_diag_embed_dims", lambda m, a: m.diag_embed(a, 1, 0, 2), lambda g: [g.u(2, 3)])
add("la_diagflat", lambda m, a: m.diagflat(a), lambda g: [g.u(2, 2)],
    ref=lambda a: np.diagflat(a))
add("la_matrix_power_3", lambda m, a: m.matrix_power(a, 3), lambda g: [g.u(3, 3)],
    ref=lambda a: np.linalg.matrix_power(a, 3))
add("la_matrix_power_5_batched", lambda m, a: m.linalg.matrix_power(a, 5),
    lambda g: [g.u(2, 2, 2)], ref=lambda a: np.linalg.matrix_power(a, 5))
add("la_matrix_power_neg", lambda m, a: a.matrix_power(-2), lambda g: [_sq(g)])
add("la_matrix_power_0", lambda m, a: m.matrix_power(a, 0), lambda g: [g.u(3, 3)])

# ---- determinants and inverses ------------------------------------------------------------------
add("la_det", lambda m, a: m.linalg.det(a), lambda g: [_sq(g)], ref=np.linalg.det)
add("la_det_batched", lambda m, a: m.det(a), lambda g: [_sq(g, 2)], ref=np.linalg.det)
add("la_det_noncontig", lambda m, a: a.det(), lambda g: [_sq(g)], noncontig=(0,))
# (the sign alone is not returned: PyTorch's forward mode gives it a ZeroTensor tangent)
add("la_slogdet", lambda m, a: m.linalg.slogdet(a).logabsdet,
    lambda g: [_sq(g) - 4 * np.eye(3)])
add("la_slogdet_sign_times", lambda m, a: (lambda r: r.sign * r.logabsdet)(m.linalg.slogdet(a)),
    lambda g: [_sq(g, 2) - 4 * np.eye(3)])
add("la_slogdet_batched", lambda m, a: m.slogdet(a), lambda g: [_sq(g, 2)])
add("la_logdet", lambda m, a: m.logdet(a), lambda g: [_sq(g, 2)])
add("la_inv", lambda m, a: m.linalg.inv(a), lambda g: [_sq(g)], ref=np.linalg.inv)
add("la_inv_batched", lambda m, a: m.inverse(a), lambda g: [_sq(g, 2, n=2)], ref=np.linalg.inv)
add("la_inv_ex", lambda m, a: m.linalg.inv_ex(a), lambda g: [_sq(g)])
add("la_pinv_tall", lambda m, a: m.linalg.pinv(a), lambda g: [g.u(4, 3)],
    ref=np.linalg.pinv)
add("la_pinv_wide_batched", lambda m, a: m.linalg.pinv(a), lambda g: [g.u(2, 2, 3)])
add("la_pinverse", lambda m, a: m.pinverse(a), lambda g: [_sq(g)])
add("la_pinv_hermitian", lambda m, a: m.linalg.pinv(_sym(m, a), hermitian=True),
    lambda g: [_spd(g)])

# ---- solvers ------------------------------------------------------------------------------------
add("la_solve", lambda m, a, b: m.linalg.solve(a, b), lambda g: [_sq(g), g.u(3, 2)],
    ref=np.linalg.solve)
add("la_solve_vector", lambda m, a, b: m.linalg.solve(a, b), lambda g: [_sq(g), g.u(3)])
add("la_solve_batched_bcast", lambda m, a, b: m.linalg.solve(a, b),
    lambda g: [_sq(g, 2), g.u(3, 2)])
add("la_solve_batch_vector", lambda m, a, b: m.linalg.solve(a, b),
    lambda g: [_sq(g, 2), g.u(2, 3)])
add("la_solve_right", lambda m, a, b: m.linalg.solve(a, b, left=False),
    lambda g: [_sq(g), g.u(2, 3)])
add("la_solve_ex", lambda m, a, b: m.linalg.solve_ex(a, b), lambda g: [_sq(g), g.u(3, 1)])
add("la_solve_triangular_upper", lambda m, a, b: m.linalg.solve_triangular(a, b, upper=True),
    lambda g: [_sq(g), g.u(3, 2)])
add("la_solve_triangular_lower_right",
    lambda m, a, b: m.linalg.solve_triangular(a, b, upper=False, left=False),
    lambda g: [_sq(g, 2), g.u(2, 3)])
add("la_solve_triangular_unit",
    lambda m, a, b: m.linalg.solve_triangular(a, b, upper=False, unitriangular=True),
    lambda g: [_sq(g), g.u(3, 2)])
add("la_lstsq", lambda m, a, b: m.linalg.lstsq(a, b)[0], lambda g: [g.u(4, 3), g.u(4, 2)])
add("la_lstsq_gelsd", lambda m, a, b: m.linalg.lstsq(a, b, driver="gelsd")[:2],
    lambda g: [g.u(5, 3), g.u(5, 2)])
add("la_lstsq_batched", lambda m, a, b: m.linalg.lstsq(a, b).solution,
    lambda g: [g.u(2, 4, 3), g.u(2, 4, 2)])

# ---- decompositions -----------------------------------------------------------------------------
add("la_cholesky", lambda m, a: m.linalg.cholesky(_sym(m, a)), lambda g: [_spd(g)])
add("la_cholesky_upper_batched", lambda m, a: m.linalg.cholesky(_sym(m, a), upper=True),
    lambda g: [_spd(g, 2)])
add("la_cholesky_ex", lambda m, a: m.linalg.cholesky_ex(_sym(m, a)), lambda g: [_spd(g)])
add("la_cholesky_old", lambda m, a: m.cholesky(_sym(m, a)), lambda g: [_spd(g)])
add("la_cholesky_old_upper", lambda m, a: _sym(m, a).cholesky(True), lambda g: [_spd(g)])
add("la_eigh", lambda m, a: (lambda r: (r[0], r[1] * r[1]))(m.linalg.eigh(_sym(m, a))),
    lambda g: [g.u(3, 3)])
add("la_eigh_upper_batched",
    lambda m, a: (lambda r: (r.eigenvalues, r.eigenvectors.abs()))(
        m.linalg.eigh(_sym(m, a), UPLO="U")), lambda g: [_spd(g, 2)])
add("la_eigh_values_only", lambda m, a: m.linalg.eigh(_sym(m, a))[0], lambda g: [g.u(2, 3, 3)])
add("la_eigvalsh", lambda m, a: m.linalg.eigvalsh(_sym(m, a)), lambda g: [g.u(4, 4)])
add("la_svd", lambda m, a: (lambda r: (r[0] * r[0], r[1], r[2] * r[2]))(
    m.linalg.svd(a, full_matrices=False)), lambda g: [g.u(4, 3)])
add("la_svd_wide_batched", lambda m, a: (lambda r: (r.U * r.U, r.S, r.Vh * r.Vh))(
    m.linalg.svd(a, full_matrices=False)), lambda g: [g.u(2, 2, 4)])
add("la_svd_invariant", lambda m, a: (lambda r: m.matmul(r[0] * r[1].unsqueeze(-2), r[2]))(
    m.linalg.svd(a, full_matrices=False)), lambda g: [g.u(3, 3)])
add("la_svd_full", lambda m, a: (lambda r: (r[0][:, :3].abs(), r[1]))(m.linalg.svd(a)),
    lambda g: [g.u(4, 3)])
add("la_svdvals", lambda m, a: m.linalg.svdvals(a), lambda g: [g.u(3, 4)])
add("la_svd_old", lambda m, a: (lambda r: (r[0].abs(), r[1], r[2].abs()))(m.svd(a)),
    lambda g: [g.u(4, 3)])
add("la_qr", lambda m, a: m.linalg.qr(a), lambda g: [g.u(4, 3)])
add("la_qr_square_batched", lambda m, a: m.linalg.qr(a), lambda g: [g.u(2, 3, 3)])
add("la_qr_wide", lambda m, a: m.linalg.qr(a), lambda g: [g.u(2, 4)])
add("la_qr_complete_square", lambda m, a: m.linalg.qr(a, mode="complete"),
    lambda g: [g.u(3, 3)])
add("la_matrix_exp", lambda m, a: m.linalg.matrix_exp(a), lambda g: [g.u(3, 3)])
add("la_matrix_exp_batched_large", lambda m, a: m.matrix_exp(a), lambda g: [3 * g.u(2, 3, 3)])
add("la_matrix_exp_1x1", lambda m, a: m.linalg.matrix_exp(a), lambda g: [g.u(1, 1)])

# ---- norms ---------------------------------------------------------------------------------------
add("la_vector_norm", lambda m, a: m.linalg.vector_norm(a), lambda g: [g.u(2, 3)],
    ref=lambda a: np.linalg.norm(a.ravel()))
add("la_vector_norm_ord_dim", lambda m, a: m.linalg.vector_norm(a, 3, dim=(0, 2), keepdim=True),
    lambda g: [g.away(2, 3, 2)])
add("la_vector_norm_inf", lambda m, a: m.linalg.vector_norm(a, float("inf"), dim=-1),
    lambda g: [g.away(2, 3)])
add("la_matrix_norm_fro", lambda m, a: m.linalg.matrix_norm(a), lambda g: [g.u(2, 3, 3)])
add("la_matrix_norm_nuc", lambda m, a: m.linalg.matrix_norm(a, "nuc"), lambda g: [g.u(3, 4)])
add("la_matrix_norm_2", lambda m, a: m.linalg.matrix_norm(a, 2), lambda g: [g.u(2, 3, 3)])
add("la_matrix_norm_m2_keepdim", lambda m, a: m.linalg.matrix_norm(a, -2, keepdim=True),
    lambda g: [g.u(3, 3)])
add("la_matrix_norm_1", lambda m, a: m.linalg.matrix_norm(a, 1), lambda g: [g.away(3, 4)])
add("la_matrix_norm_inf_dims", lambda m, a: m.linalg.matrix_norm(a, float("inf"), dim=(0, 2)),
    lambda g: [g.away(3, 2, 4)])
add("la_matrix_norm_m1", lambda m, a: m.linalg.matrix_norm(a, -1, keepdim=True),
    lambda g: [g.away(3, 3)])
add("la_norm_default", lambda m, a: m.linalg.norm(a), lambda g: [g.u(2, 3, 2)])
add("la_norm_matrix_ord", lambda m, a: m.linalg.norm(a, "nuc"), lambda g: [g.u(3, 3)])
add("la_norm_vector_ord_dim", lambda m, a: m.linalg.norm(a, 1, dim=1), lambda g: [g.away(2, 3)])
add("la_cond", lambda m, a: m.linalg.cond(a), lambda g: [g.u(3, 3)])
add("la_tensorinv", lambda m, a: m.linalg.tensorinv(a, ind=1), lambda g: [_sq(g, n=4).reshape(
    4, 2, 2)])
add("la_tensorsolve", lambda m, a, b: m.linalg.tensorsolve(a, b),
    lambda g: [_sq(g, n=4).reshape(2, 2, 2, 2), g.u(2, 2)])
add("la_diagonal", lambda m, a: m.linalg.diagonal(a), lambda g: [g.u(2, 3, 3)])

# ---- einsum (PyTorch's contraction order: the graph is compared node for node) ------------
for _eq, _shapes in [
        ("ij,jk->ik", [(2, 3), (3, 4)]), ("i,i->", [(3,), (3,)]), ("ii->i", [(3, 3)]),
        ("ij->", [(2, 3)]), ("ij->ji", [(2, 3)]), ("i,j->ij", [(2,), (3,)]),
        ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]), ("i,ij,j->", [(3,), (3, 4), (4,)]),
        ("bi,ij,bj->b", [(2, 3), (3, 4), (2, 4)]), ("...ij,...jk", [(2, 2, 3), (3, 2)]),
        ("ij,kj", [(2, 3), (4, 3)]), ("iij->j", [(2, 2, 3)]), ("ba...,b->a...", [(2, 3, 2), (2,)]),
        ("ijk,ikl,jl->ij", [(2, 3, 2), (2, 2, 3), (3, 3)]), ("i,i,i->i", [(3,), (3,), (3,)]),
        ("bn,anm,bm->ba", [(2, 3), (4, 3, 2), (2, 2)])]:
    add(f"la_einsum_{_eq.replace('->', '_to_').replace(',', '_').replace('...', 'E')}",
        lambda m, *xs, _e=_eq: m.einsum(_e, *xs),
        lambda g, _s=_shapes: [g.u(*s) for s in _s],
        ref=lambda *xs, _e=_eq: np.einsum(_e, *xs))
add("la_einsum_list", lambda m, a, b: m.einsum("ij,j->i", [a, b]), lambda g: [g.u(2, 3), g.u(3)],
    ref=lambda a, b: a @ b)
add("la_einsum_sublist", lambda m, a, b: m.einsum(a, [0, 1], b, [1, 2], [0, 2]),
    lambda g: [g.u(2, 3), g.u(3, 2)], ref=lambda a, b: a @ b)
add("la_einsum_broadcast_1", lambda m, a, b: m.einsum("ij,ij->i", a, b),
    lambda g: [g.u(2, 3), g.u(1, 3)], ref=lambda a, b: (a * b).sum(-1))

# ---- LU and cdist ------------------------------------------------------------------------------
add("la_lu_factor", lambda m, a: m.linalg.lu_factor(a)[0], lambda g: [g.u(3, 3)])
add("la_lu_factor_batched", lambda m, a: m.linalg.lu_factor_ex(a).LU, lambda g: [g.u(2, 3, 3)])
add("la_lu_factor_wide", lambda m, a: m.linalg.lu_factor(a).LU, lambda g: [g.u(2, 4)])
add("la_lu_factor_tall", lambda m, a: m.linalg.lu_factor(a).LU, lambda g: [g.u(4, 2)])
add("la_lu", lambda m, a: m.linalg.lu(a)[1:], lambda g: [g.u(3, 3)])
add("la_lu_wide_batched", lambda m, a: m.linalg.lu(a)[1:], lambda g: [g.u(2, 2, 3)])
add("la_lu_tall", lambda m, a: m.linalg.lu(a)[1:], lambda g: [g.u(4, 3)])
add("la_lu_solve", lambda m, a, b: (lambda f: m.linalg.lu_solve(f[0], f[1], b))(
    m.linalg.lu_factor(a)), lambda g: [_sq(g), g.u(3, 2)])
add("la_lu_solve_adjoint", lambda m, a, b: (lambda f: m.linalg.lu_solve(f[0], f[1], b,
                                                                        adjoint=True))(
    m.linalg.lu_factor(a)), lambda g: [_sq(g), g.u(3, 2)])
add("la_lu_solve_right", lambda m, a, b: (lambda f: m.linalg.lu_solve(f[0], f[1], b,
                                                                      left=False))(
    m.linalg.lu_factor(a)), lambda g: [_sq(g), g.u(2, 3)])
add("la_lu_solve_right_adjoint", lambda m, a, b: (lambda f: m.linalg.lu_solve(
    f[0], f[1], b, left=False, adjoint=True))(m.linalg.lu_factor(a)),
    lambda g: [_sq(g), g.u(2, 3)])
add("la_cdist", lambda m, a, b: m.cdist(a, b), lambda g: [g.u(3, 2), g.u(4, 2)])
add("la_cdist_p1", lambda m, a, b: m.cdist(a, b, p=1), lambda g: [g.u(3, 2), g.u(4, 2)])
add("la_cdist_p3_batched", lambda m, a, b: m.cdist(a, b, p=3),
    lambda g: [g.u(2, 3, 2), g.u(1, 4, 2)])
add("la_cdist_inf", lambda m, a, b: m.cdist(a, b, p=float("inf")),
    lambda g: [g.u(3, 2), g.u(4, 2)])
add("la_cdist_mm", lambda m, a, b: m.cdist(a, b), lambda g: [g.u(26, 2), g.u(3, 2)])
add("la_cdist_mm_forced", lambda m, a, b: m.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
    lambda g: [g.u(2, 3, 2), g.u(2, 4, 2)])

# ---- the older spellings -----------------------------------------------------------------------
add("la_qr_old", lambda m, a: m.qr(a), lambda g: [g.u(4, 3)])
add("la_qr_old_some_false", lambda m, a: a.qr(some=False), lambda g: [g.u(3, 3)])
add("la_triangular_solve", lambda m, b, a: m.triangular_solve(b, a),
    lambda g: [g.u(3, 2), _sq(g)])
add("la_triangular_solve_lower_t_unit",
    lambda m, b, a: b.triangular_solve(a, upper=False, transpose=True, unitriangular=True),
    lambda g: [g.u(2, 3, 2), _sq(g, 2)])
add("la_triangular_solve_solution", lambda m, b, a: m.triangular_solve(b, a, False).solution,
    lambda g: [g.u(3, 2), _sq(g)])
add("la_cholesky_solve", lambda m, b, a: m.cholesky_solve(b, a.tril()),
    lambda g: [g.u(3, 2), np.linalg.cholesky(_spd(g) * 2)])
add("la_cholesky_solve_upper", lambda m, b, a: b.cholesky_solve(a.triu(), upper=True),
    lambda g: [g.u(2, 3, 2), np.swapaxes(np.linalg.cholesky(_spd(g, 2) * 2), -1, -2)])
add("la_cholesky_inverse", lambda m, a: m.cholesky_inverse(a.tril()),
    lambda g: [np.linalg.cholesky(_spd(g) * 2)])
add("la_cholesky_inverse_upper", lambda m, a: a.triu().cholesky_inverse(True),
    lambda g: [np.linalg.cholesky(_spd(g) * 2).T.copy()])

# ---- Householder products, Vandermonde matrices (torch.linalg, part 3) ---------------------------
add("la_householder_product", lambda m, a, t: m.linalg.householder_product(a, t),
    lambda g: [g.u(4, 3), g.u(3)])
add("la_householder_product_fewer_tau", lambda m, a, t: m.linalg.householder_product(a, t),
    lambda g: [g.u(4, 3), g.u(2)])
add("la_householder_product_batched", lambda m, a, t: m.linalg.householder_product(a, t),
    lambda g: [g.u(2, 3, 3), g.u(2, 3)])
add("la_orgqr_method", lambda m, a, t: a.orgqr(t), lambda g: [g.u(3, 2), g.u(2)])
add("la_ormqr", lambda m, a, t, c: m.ormqr(a, t, c), lambda g: [g.u(4, 2), g.u(2), g.u(4, 3)])
add("la_ormqr_transpose", lambda m, a, t, c: m.ormqr(a, t, c, transpose=True),
    lambda g: [g.u(3, 3), g.u(3), g.u(3, 2)])
add("la_ormqr_right", lambda m, a, t, c: a.ormqr(t, c, left=False),
    lambda g: [g.u(3, 2), g.u(2), g.u(2, 3)])
add("la_ormqr_right_transpose_batched",
    lambda m, a, t, c: m.ormqr(a, t, c, left=False, transpose=True),
    lambda g: [g.u(2, 3, 4), g.u(2, 3), g.u(2, 2, 3)])
add("la_vander", lambda m, x: m.linalg.vander(x), lambda g: [g.u(3)],
    ref=lambda x: np.vander(x, increasing=True))
add("la_vander_N_batched", lambda m, x: m.linalg.vander(x, N=4), lambda g: [g.u(2, 3)])


def _seeded(m, f):
    m.manual_seed(0)  # (the random basis is drawn from the default generator, as torch's)
    return f()


add("la_svd_lowrank_S", lambda m, a: _seeded(m, lambda: m.svd_lowrank(a, q=3)[1]),
    lambda g: [g.u(5, 4)])
add("la_svd_lowrank_wide_M", lambda m, a, b: _seeded(m, lambda: m.svd_lowrank(a, q=2, niter=1,
                                                                               M=b)[1]),
    lambda g: [g.u(3, 5), g.u(1, 5)])
add("la_pca_lowrank_S", lambda m, a: _seeded(m, lambda: m.pca_lowrank(a, q=2)[1]),
    lambda g: [g.u(6, 3)])
add("la_frobenius_norm", lambda m, a: m.frobenius_norm(a, (1, 2)), lambda g: [g.away(2, 3, 4)])
add("la_frobenius_norm_keepdim", lambda m, a: m.frobenius_norm(a, 0, keepdim=True),
    lambda g: [g.away(3, 2)])
add("la_nuclear_norm", lambda m, a: m.nuclear_norm(a), lambda g: [g.u(3, 4)])
add("la_nuclear_norm_dim_keepdim", lambda m, a: m.nuclear_norm(a, (0, 2), keepdim=True),
    lambda g: [g.u(3, 2, 4)])


# ---- the in-place add family (tests/test_catalogue_audit.py) -----------------------------------
add("addmm_", lambda m, x, a, b: (x * 1).addmm_(a, b, beta=0.5, alpha=2),
    lambda g: [g.u(2, 4), g.u(2, 3), g.u(3, 4)])
add("addmv_", lambda m, x, a, v: m.addmv_(x * 1, a, v), lambda g: [g.u(2), g.u(2, 3), g.u(3)])
add("addr_", lambda m, x, a, b: (x * 1).addr_(a, b, alpha=-1), lambda g: [g.u(2, 3), g.u(2),
                                                                          g.u(3)])
add("baddbmm_", lambda m, x, a, b: (x * 1).baddbmm_(a, b, beta=2),
    lambda g: [g.u(2, 2, 3), g.u(2, 2, 4), g.u(2, 4, 3)])
add("addbmm_", lambda m, x, a, b: (x * 1).addbmm_(a, b), lambda g: [g.u(2, 3), g.u(2, 2, 4),
                                                                    g.u(2, 4, 3)])
