"""op_db samples for shape, indexing, reduction and pointwise catalogue additions.

Imported by op_db.py at its end; ``add`` appends to the shared ``SAMPLES`` list, so every
sample here gets the generated tests (values, gradcheck, gradgradcheck, forward AD vs torch).
"""
import numpy as np  # noqa: F401

from op_db import add  # noqa: F401

# ---- repeat, tile, roll, rot90, flips -----------------------------------------------------
add("repeat", lambda m, x: x.repeat(2, 1, 3), lambda g: [g.u(2, 3)])
add("repeat_same_ndim", lambda m, x: x.repeat((2, 2)), lambda g: [g.u(2, 3)],
    ref=lambda x: np.tile(x, (2, 2)))
add("repeat_zero", lambda m, x: x.repeat(2, 0), lambda g: [g.u(2, 3)], gradgrad=False)
add("repeat_0d", lambda m, x: x.repeat(3), lambda g: [g.u()])
add("repeat_noncontig", lambda m, x: x.repeat(1, 2), lambda g: [g.u(3, 2)], noncontig=(0,))
add("tile", lambda m, x: m.tile(x, (2,)), lambda g: [g.u(2, 3)], ref=lambda x: np.tile(x, 2))
add("tile_more_dims", lambda m, x: x.tile((2, 1, 2)), lambda g: [g.u(2, 3)])
add("repeat_interleave_int", lambda m, x: x.repeat_interleave(2, dim=1), lambda g: [g.u(2, 3)],
    ref=lambda x: np.repeat(x, 2, 1))
add("repeat_interleave_flat", lambda m, x: m.repeat_interleave(x, 3), lambda g: [g.u(2, 2)],
    ref=lambda x: np.repeat(x, 3))
add("repeat_interleave_1d", lambda m, x: x.repeat_interleave(2), lambda g: [g.u(3)])
add("repeat_interleave_0d", lambda m, x: x.repeat_interleave(2), lambda g: [g.u()])
add("repeat_interleave_noncontig", lambda m, x: x.repeat_interleave(2), lambda g: [g.u(3, 2)],
    noncontig=(0,))
add("repeat_interleave_tensor", lambda m, x, r: x.repeat_interleave(r, dim=0),
    lambda g: [g.u(3, 2), np.array([1, 0, 2])], ref=lambda x, r: np.repeat(x, r, 0))
add("repeat_interleave_neg_dim", lambda m, x: x.repeat_interleave(2, dim=-2),
    lambda g: [g.u(2, 3)])
add("roll", lambda m, x: m.roll(x, 1, 0), lambda g: [g.u(3, 4)], ref=lambda x: np.roll(x, 1, 0))
add("roll_flat", lambda m, x: x.roll(5), lambda g: [g.u(3, 4)], ref=lambda x: np.roll(x, 5))
add("roll_multi", lambda m, x: x.roll((1, -2), (0, -1)), lambda g: [g.u(3, 4)],
    ref=lambda x: np.roll(x, (1, -2), (0, 1)))
add("roll_noncontig", lambda m, x: x.roll(2, 1), lambda g: [g.u(4, 3)], noncontig=(0,))
add("roll_empty", lambda m, x: x.roll(1, 0), lambda g: [g.u(0, 3)], kink=True)
add("rot90", lambda m, x: m.rot90(x), lambda g: [g.u(2, 3)], ref=np.rot90)
add("rot90_k2", lambda m, x: x.rot90(2, (1, 0)), lambda g: [g.u(2, 3)],
    ref=lambda x: np.rot90(x, 2, (1, 0)))
add("rot90_k3_3d", lambda m, x: x.rot90(-1, (0, 2)), lambda g: [g.u(2, 3, 2)],
    ref=lambda x: np.rot90(x, -1, (0, 2)))
add("rot90_k0", lambda m, x: x.rot90(0), lambda g: [g.u(2, 3)], ref=lambda x: x)
add("fliplr", lambda m, x: m.fliplr(x), lambda g: [g.u(2, 3)], ref=np.fliplr)
add("flipud", lambda m, x: x.flipud(), lambda g: [g.u(2, 3)], ref=np.flipud)

# ---- splits, grids, stacks ------------------------------------------------------------------
add("tensor_split_sections", lambda m, x: m.tensor_split(x, 3, dim=1), lambda g: [g.u(2, 5)])
add("tensor_split_indices", lambda m, x: x.tensor_split([1, 3]), lambda g: [g.u(4, 2)])
add("tensor_split_indices_unsorted", lambda m, x: x.tensor_split((3, 1), dim=-1),
    lambda g: [g.u(2, 4)], gradgrad=False)  # (an empty piece: gradgradcheck's stride check)
add("tensor_split_tensor", lambda m, x, i: x.tensor_split(i, 1),
    lambda g: [g.u(2, 4), np.array([1, 2])])
add("tensor_split_more_than_size", lambda m, x: x.tensor_split(4), lambda g: [g.u(3)])
add("hsplit", lambda m, x: m.hsplit(x, 2), lambda g: [g.u(2, 4)])
add("hsplit_1d", lambda m, x: x.hsplit([1]), lambda g: [g.u(4)])
add("vsplit", lambda m, x: m.vsplit(x, [1]), lambda g: [g.u(3, 2)])
add("dsplit", lambda m, x: m.dsplit(x, 2), lambda g: [g.u(2, 1, 4)])
add("meshgrid_ij", lambda m, x, y: m.meshgrid(x, y, indexing="ij"), lambda g: [g.u(3), g.u(2)])
add("meshgrid_xy", lambda m, x, y, z: m.meshgrid([x, y, z], indexing="xy"),
    lambda g: [g.u(3), g.u(2), g.u(2)])
add("meshgrid_0d", lambda m, x, y: m.meshgrid(x, y, indexing="ij"), lambda g: [g.u(), g.u(3)])
add("atleast_1d", lambda m, x: m.atleast_1d(x), lambda g: [g.u()], ref=np.atleast_1d)
add("atleast_2d", lambda m, x: m.atleast_2d(x), lambda g: [g.u(3)], ref=np.atleast_2d)
add("atleast_2d_0d", lambda m, x: m.atleast_2d(x), lambda g: [g.u()], ref=np.atleast_2d)
add("atleast_3d", lambda m, x, y: m.atleast_3d(x, y), lambda g: [g.u(3), g.u(2, 2)])
add("atleast_3d_0d", lambda m, x: m.atleast_3d(x), lambda g: [g.u()], ref=np.atleast_3d)
add("column_stack", lambda m, x, y: m.column_stack((x, y)), lambda g: [g.u(3), g.u(3, 2)],
    ref=lambda x, y: np.column_stack((x, y)))
add("row_stack", lambda m, x, y: m.row_stack((x, y)), lambda g: [g.u(3), g.u(2, 3)],
    ref=lambda x, y: np.vstack((x, y)))
add("dstack", lambda m, x, y: m.dstack([x, y]), lambda g: [g.u(2, 3), g.u(2, 3)],
    ref=lambda x, y: np.dstack((x, y)))
add("dstack_1d", lambda m, x, y: m.dstack([x, y]), lambda g: [g.u(3), g.u(3)],
    ref=lambda x, y: np.dstack((x, y)))
add("hstack_1d", lambda m, x, y: m.hstack([x, y]), lambda g: [g.u(3), g.u(2)],
    ref=lambda x, y: np.hstack((x, y)))
add("broadcast_tensors", lambda m, x, y: m.broadcast_tensors(x, y),
    lambda g: [g.u(2, 1), g.u(3)])
add("broadcast_tensors_same", lambda m, x, y: m.broadcast_tensors(x, y)[1] * 2,
    lambda g: [g.u(2, 3), g.u(3)])
add("block_diag", lambda m, a, b, c: m.block_diag(a, b, c),
    lambda g: [g.u(2, 3), g.u(), g.u(2)])
add("block_diag_one", lambda m, a: m.block_diag(a), lambda g: [g.u(2, 2)], ref=lambda a: a)
add("cartesian_prod", lambda m, a, b: m.cartesian_prod(a, b), lambda g: [g.u(3), g.u(2)])
add("cartesian_prod_one", lambda m, a: m.cartesian_prod(a) * 1, lambda g: [g.u(3)])
add("combinations", lambda m, a: m.combinations(a), lambda g: [g.u(4)])
add("combinations_r3_replacement", lambda m, a: m.combinations(a, 3, with_replacement=True),
    lambda g: [g.u(3)])
add("combinations_r_too_big", lambda m, a: m.combinations(a, 4), lambda g: [g.u(3)],
    gradgrad=False)

# ---- copies of slices, diagonals, in-place views -------------------------------------------
add("narrow_copy", lambda m, x: m.narrow_copy(x, 1, 1, 2), lambda g: [g.u(2, 4)],
    ref=lambda x: x[:, 1:3])
add("narrow_copy_neg_dim", lambda m, x: x.narrow_copy(-1, 2, 2), lambda g: [g.u(2, 4)],
    ref=lambda x: x[:, 2:])
add("diag_embed", lambda m, x: m.diag_embed(x), lambda g: [g.u(2, 3)])
add("diag_embed_offset_dims", lambda m, x: x.diag_embed(1, 0, 2), lambda g: [g.u(2, 3)])
add("diag_embed_neg_offset", lambda m, x: m.diag_embed(x, -2), lambda g: [g.u(3)])
add("transpose_", lambda m, x: (x * 1).transpose_(0, 1), lambda g: [g.u(2, 3)],
    ref=lambda x: x.T)
add("swapaxes_", lambda m, x: (x * 1).swapaxes_(-1, 0), lambda g: [g.u(2, 3, 2)])
add("t_", lambda m, x: (x * 1).t_(), lambda g: [g.u(2, 3)], ref=lambda x: x.T)
add("unsqueeze_", lambda m, x: (x * 1).unsqueeze_(-1), lambda g: [g.u(2, 3)],
    ref=lambda x: x[..., None])
add("squeeze_", lambda m, x: (x * 1).squeeze_(), lambda g: [g.u(1, 3, 1)], ref=np.squeeze)
add("squeeze_dim_", lambda m, x: (x * 1).squeeze_(0), lambda g: [g.u(1, 3, 1)])
add("squeeze_dims_", lambda m, x: (x * 1).squeeze_((0, 2)), lambda g: [g.u(1, 3, 1)])
add("unsqueeze_view_", lambda m, x: (x * 1)[0].unsqueeze_(0), lambda g: [g.u(2, 3)])
add("transpose_then_use", lambda m, x: ((x * 1).t_() * 2).sum(0), lambda g: [g.u(2, 3)])

# ---- indexing -------------------------------------------------------------------------------
add("index_copy", lambda m, x, i, s: m.index_copy(x, 1, i, s),
    lambda g: [g.u(3, 4), np.array([2, 0]), g.u(3, 2)])
add("index_copy_dim0", lambda m, x, i, s: x.index_copy(0, i, s),
    lambda g: [g.u(3, 2), np.array([1]), g.u(1, 2)])
add("index_copy_", lambda m, x, i, s: (x * 1).index_copy_(-1, i, s),
    lambda g: [g.u(3, 4), np.array([3, 1]), g.u(3, 2)])
add("index_fill", lambda m, x, i: m.index_fill(x, 1, i, 1.5),
    lambda g: [g.u(3, 4), np.array([2, 0])])
add("index_fill_neg_index", lambda m, x, i: x.index_fill(0, i, -2.0),
    lambda g: [g.u(3, 4), np.array([-1])])
add("index_fill_tensor_value", lambda m, x, i, v: x.index_fill(1, i, v),
    lambda g: [g.u(3, 4), np.array([1, 3]), g.u()])
add("index_fill_", lambda m, x, i: (x * 1).index_fill_(1, i, 0.5),
    lambda g: [g.u(2, 3), np.array([1])])
add("take", lambda m, x, i: m.take(x, i), lambda g: [g.u(3, 4), np.array([[0, 5], [11, -1]])],
    ref=lambda x, i: np.take(x, i))
add("take_repeated", lambda m, x, i: x.take(i), lambda g: [g.u(2, 3), np.array([1, 1, 4])])
add("take_noncontig", lambda m, x, i: x.take(i), lambda g: [g.u(3, 2), np.array([0, 1, 2])],
    noncontig=(0,))
add("take_along_dim", lambda m, x, i: m.take_along_dim(x, i, 1),
    lambda g: [g.u(3, 4), np.array([[0], [1], [3]])])
add("take_along_dim_broadcast", lambda m, x, i: m.take_along_dim(x, i, dim=0),
    lambda g: [g.u(3, 4), np.array([[0, 2, 1, 1]])])
add("take_along_dim_none", lambda m, x, i: m.take_along_dim(x, i),
    lambda g: [g.u(3, 4), np.array([0, 5, 5])])
add("put", lambda m, x, i, s: m.put(x, i, s), lambda g: [g.u(3, 4), np.array([0, 5]), g.u(2)])
add("put_accumulate", lambda m, x, i, s: x.put(i, s, accumulate=True),
    lambda g: [g.u(3, 4), np.array([[0, 5], [5, -1]]), g.u(2, 2)])
add("put_", lambda m, x, i, s: (x * 1).put_(i, s), lambda g: [g.u(2, 3), np.array([4]), g.u(1)])
add("masked_scatter", lambda m, x, mask, s: m.masked_scatter(x, mask, s),
    lambda g: [g.u(3, 4), g.mask(3, 4), g.u(12)])
add("masked_scatter_broadcast", lambda m, x, mask, s: x.masked_scatter(mask, s),
    lambda g: [g.u(4), np.array([[True, False, True, True], [False, True, False, False]]),
               g.u(3, 3)])
add("masked_scatter_", lambda m, x, mask, s: (x * 1).masked_scatter_(mask, s),
    lambda g: [g.u(2, 3), np.array([True, False, True]), g.u(2, 3)])
add("masked_select", lambda m, x, mask: m.masked_select(x, mask),
    lambda g: [g.u(3, 4), g.mask(3, 4)], ref=lambda x, mask: x[mask])
add("masked_select_broadcast", lambda m, x, mask: x.masked_select(mask),
    lambda g: [g.u(4), np.array([[True, False, True, True], [False, True, False, False]])])
add("select_scatter", lambda m, x, s: m.select_scatter(x, s, 1, 0),
    lambda g: [g.u(3, 4), g.u(3)])
add("select_scatter_neg", lambda m, x, s: x.select_scatter(s, 0, -1),
    lambda g: [g.u(3, 4), g.u(4)])
add("slice_scatter", lambda m, x, s: m.slice_scatter(x, s, 1, 0, 2),
    lambda g: [g.u(3, 4), g.u(3, 2)])
add("slice_scatter_step", lambda m, x, s: x.slice_scatter(s, dim=1, start=1, step=2),
    lambda g: [g.u(3, 4), g.u(3, 2)])
add("diagonal_scatter", lambda m, x, s: m.diagonal_scatter(x, s),
    lambda g: [g.u(3, 4), g.u(3)])
add("diagonal_scatter_offset", lambda m, x, s: x.diagonal_scatter(s, -1, 1, 0),
    lambda g: [g.u(3, 4), g.u(3)])
for _red in ("sum", "prod", "mean", "amax", "amin"):
    for _inc in (True, False):
        add(f"scatter_reduce_{_red}_{'self' if _inc else 'noself'}",
            lambda m, x, i, s, _r=_red, _i=_inc: m.scatter_reduce(x, 1, i, s, _r,
                                                                  include_self=_i),
            lambda g: [g.away(3, 4), np.array([[0, 1, 1], [2, 2, 0], [3, 0, 3]]),
                       g.away(3, 3)])
add("scatter_reduce_prod_zero", lambda m, x, i, s: x.scatter_reduce(0, i, s, "prod"),
    lambda g: [np.array([2.0, 0.0, 3.0]), np.array([0, 1, 1, 2]),
               np.array([0.0, 1.5, -2.0, 0.5])])
add("scatter_reduce_amax_ties", lambda m, x, i, s: x.scatter_reduce(0, i, s, "amax"),
    lambda g: [np.array([2.0, 1.0]), np.array([0, 0, 1]), np.array([2.0, 1.0, 1.0])],
    kink=True)
add("scatter_reduce_", lambda m, x, i, s: (x * 1).scatter_reduce_(0, i, s, "mean"),
    lambda g: [g.u(3), np.array([0, 0, 2]), g.u(3)])

# ---- reductions and statistics: mode, msort, quantiles, renorm, cov/corrcoef -----------------
add("mode_ties", lambda m, x: m.mode(x),
    lambda g: [np.array([[1.0, 2.5, 2.5, 3.0], [5.0, 4.0, 4.0, 5.0]])], kink=True)
add("mode_dim0_keepdim", lambda m, x: x.mode(0, keepdim=True),
    lambda g: [np.array([[1.0, 2.0], [1.0, 3.0], [0.5, 3.0]])], kink=True)
add("mode_distinct", lambda m, x: x.mode(1), lambda g: [g.u(2, 3)])
add("mode_0d", lambda m, x: x.mode(), lambda g: [g.u()])
add("msort", lambda m, x: m.msort(x), lambda g: [g.u(3, 2)], ref=lambda x: np.sort(x, 0))
for _interp in ("linear", "lower", "higher", "midpoint", "nearest"):
    add(f"quantile_{_interp}", lambda m, x, _i=_interp: m.quantile(x, 0.3, interpolation=_i),
        lambda g: [g.u(2, 3)])
add("quantile_dim", lambda m, x: x.quantile(0.4, dim=1), lambda g: [g.u(2, 4)])
add("quantile_dim0_keepdim", lambda m, x: x.quantile(0.75, 0, True), lambda g: [g.u(3, 2)])
add("quantile_tensor_q", lambda m, x, q: m.quantile(x, q, dim=-1),
    lambda g: [g.u(2, 5), np.array([0.1, 0.5, 0.9])], grad=(True, False))
add("quantile_tensor_q_all_keepdim", lambda m, x, q: x.quantile(q, keepdim=True),
    lambda g: [g.u(2, 3), np.array([0.25, 0.6])], grad=(True, False))
add("quantile_0d_q_tensor", lambda m, x, q: x.quantile(q, dim=0),
    lambda g: [g.u(4, 2), np.array(0.3)], grad=(True, False))
add("nanquantile", lambda m, x: m.nanquantile(x, 0.3),
    lambda g: [np.array([[1.0, np.nan, -0.5], [2.0, 0.3, 0.7]])])
add("nanquantile_dim", lambda m, x: x.nanquantile(0.6, dim=1, interpolation="midpoint"),
    lambda g: [np.array([[1.0, np.nan, -0.5, 0.25], [2.0, 0.3, 0.7, np.nan]])])
add("renorm", lambda m, x: m.renorm(x, 2, 0, 1.0), lambda g: [g.u(3, 4)])
add("renorm_p1_dim1", lambda m, x: x.renorm(1, 1, 1.5), lambda g: [g.away(3, 4)])
add("renorm_p3", lambda m, x: x.renorm(3, -1, 0.8), lambda g: [g.away(2, 3, 2)])
add("renorm_inf", lambda m, x: x.renorm(float("inf"), 0, 1.0), lambda g: [g.u(3, 4)])
add("renorm_", lambda m, x: (x * 1).renorm_(2, 1, 1.0), lambda g: [g.u(3, 4)])
add("cov", lambda m, x: m.cov(x), lambda g: [g.u(2, 5)], ref=lambda x: np.cov(x))
add("cov_correction0", lambda m, x: m.cov(x, correction=0), lambda g: [g.u(3, 4)],
    ref=lambda x: np.cov(x, ddof=0))
add("cov_1d", lambda m, x: m.cov(x), lambda g: [g.u(5)], ref=lambda x: np.cov(x))
add("cov_weights", lambda m, x, f, a: m.cov(x, fweights=f, aweights=a),
    lambda g: [g.u(2, 4), np.array([1, 2, 1, 3]), g.pos(4)], grad=(True, False, False),
    ref=lambda x, f, a: np.cov(x, fweights=f, aweights=a))
add("corrcoef", lambda m, x: m.corrcoef(x), lambda g: [g.u(3, 5)], ref=np.corrcoef)
add("corrcoef_1d", lambda m, x: m.corrcoef(x), lambda g: [g.u(4)])

# ---- special functions and pointwise leftovers ------------------------------------------------
_sp = lambda name, **kw: (lambda m, x: getattr(m.special, name)(x, **kw))  # noqa: E731
for _name, _gen in [("i0", "u"), ("i0e", "u"), ("i1", "u"), ("i1e", "u"), ("erfcx", "u"),
                    ("ndtr", "u"), ("log_ndtr", "u"), ("entr", "pos"), ("expit", "u"),
                    ("gammaln", "pos"), ("psi", "pos"), ("exp2", "u"), ("sinc", "u")]:
    add("special_" + _name, _sp(_name), lambda g, _g=_gen: [getattr(g, _g)(2, 3)])
add("special_i0_large", _sp("i0e"), lambda g: [np.array([-40.0, -3.0, 35.0, 60.0])])
add("special_i1_large", _sp("i1"), lambda g: [np.array([-40.0, -3.0, 35.0, 50.0])])
add("special_i1e_large", _sp("i1e"), lambda g: [np.array([-40.0, -3.0, 35.0, 60.0])])
add("special_log_ndtr_tail", _sp("log_ndtr"), lambda g: [np.array([-30.0, -5.0, -1.5, 4.0])])
add("special_erfcx_range", _sp("erfcx"), lambda g: [np.array([-3.0, 0.5, 4.9, 5.1, 30.0])])
add("special_ndtri", _sp("ndtri"), lambda g: [g.u(2, 3, lo=0.05, hi=0.95)])
add("special_multigammaln", lambda m, x: m.special.multigammaln(x, 3),
    lambda g: [g.u(2, 3, lo=1.2, hi=3.0)])
add("mvlgamma", lambda m, x: m.mvlgamma(x, 2), lambda g: [g.u(4, lo=0.7, hi=3.0)])
add("mvlgamma_", lambda m, x: (x * 1).mvlgamma_(1), lambda g: [g.pos(3)])
add("i0_method", lambda m, x: x.i0(), lambda g: [g.u(3)])
add("i0_", lambda m, x: m.i0_(x * 1), lambda g: [g.u(3)])
add("special_xlog1py", lambda m, x, y: m.special.xlog1py(x, y),
    lambda g: [g.u(2, 3), g.pos(2, 3)])
add("special_xlog1py_scalar_other", lambda m, x: m.special.xlog1py(x, 2.0), lambda g: [g.u(3)])
add("special_xlog1py_scalar_self", lambda m, y: m.special.xlog1py(3.0, y), lambda g: [g.pos(3)])
add("special_xlog1py_zero", lambda m, x, y: m.special.xlog1py(x, y),
    lambda g: [np.array([0.0, 1.0]), g.pos(2)], kink=True)
add("special_zeta_q", lambda m, x, q: m.special.zeta(x, q),
    lambda g: [g.u(2, 3, lo=1.5, hi=4.0), g.u(2, 3, lo=0.5, hi=3.0)], grad=(False, True))
add("special_zeta_scalar_self", lambda m, q: m.special.zeta(2.5, q), lambda g: [g.pos(4)])
add("special_round", lambda m, x: m.special.round(x), lambda g: [g.u(2, 3)])
add("special_round_decimals", lambda m, x: m.special.round(x, decimals=1), lambda g: [g.u(4)])
add("special_softmax", lambda m, x: m.special.softmax(x, 1), lambda g: [g.u(2, 3)])
add("special_log_softmax", lambda m, x: m.special.log_softmax(x, 0), lambda g: [g.u(2, 3)])
add("prelu", lambda m, x, w: m.prelu(x, w), lambda g: [g.away(2, 3), g.u(1)])
add("prelu_channels", lambda m, x, w: x.prelu(w), lambda g: [g.away(2, 3, 2), g.u(3)])
add("prelu_1d", lambda m, x, w: m.prelu(x, w), lambda g: [g.away(4), g.u(1)])
add("prelu_0d_weight", lambda m, x, w: m.prelu(x, w), lambda g: [g.away(2, 3), g.u()])
add("prelu_nn", lambda m, x, w: m.nn.functional.prelu(x, w), lambda g: [g.away(2, 3), g.u(3)])


def _seeded(m, f):
    m.manual_seed(0)  # the same noise on every call (gradcheck) and in both libraries
    return f()


add("rrelu_training", lambda m, x: _seeded(m, lambda: m.nn.functional.rrelu(x, training=True)),
    lambda g: [g.away(3, 4)])
add("rrelu_training_bounds_f32_noncontig",
    lambda m, x: _seeded(m, lambda: m.nn.functional.rrelu(x, 0.2, 0.6, True)),
    lambda g: [g.away(4, 3)], noncontig=(0,))
add("rrelu_training_inplace", lambda m, x: _seeded(
    m, lambda: m.nn.functional.rrelu(x * 1, training=True, inplace=True)), lambda g: [g.away(5)])
add("rrelu_training_fn_", lambda m, x: _seeded(m, lambda: m.rrelu_(x * 1, 0.1, 0.3, True)),
    lambda g: [g.away(5)])
add("tril_", lambda m, x: (x * 1).tril_(), lambda g: [g.u(3, 4)], ref=np.tril)
add("triu_", lambda m, x: (x * 1).triu_(-1), lambda g: [g.u(2, 3, 3)],
    ref=lambda x: np.triu(x, -1))
add("unsafe_split", lambda m, x: m.unsafe_split(x, 2, 1), lambda g: [g.u(3, 5)])
add("unsafe_chunk_method", lambda m, x: x.unsafe_chunk(3, 0), lambda g: [g.u(7, 2)])

# ---- names the catalogue audit found missing (tests/test_catalogue_audit.py) -------------------
add("split_with_sizes", lambda m, x: m.split_with_sizes(x, [1, 3], 1), lambda g: [g.u(2, 4)])
add("split_with_sizes_method", lambda m, x: x.split_with_sizes((2, 1), dim=-2),
    lambda g: [g.u(3, 2)])
add("as_strided_", lambda m, x: (x * 1).as_strided_((2, 2), (1, 2), 1), lambda g: [g.u(6)])
add("as_strided__overlap", lambda m, x: (x * 1).as_strided_((3, 2), (1, 1)), lambda g: [g.u(5)])
add("scatter_reduce_add_legacy", lambda m, x, i, s: x.scatter(0, i, s, reduce="add"),
    lambda g: [g.u(2, 3), np.array([[0, 1, 0], [0, 0, 1]]), g.u(2, 3)], grad=(False,) * 3,
    kink=True)
add("scatter_reduce_multiply_value_legacy",
    lambda m, x, i: x.scatter(1, i, 1.5, reduce="multiply"),
    lambda g: [g.u(2, 3), np.array([[0, 0], [2, 1]])], grad=(False, False), kink=True)
add("scatter__reduce_legacy", lambda m, x, i, s: (x * 1).scatter_(0, i, s, reduce="multiply"),
    lambda g: [g.u(2, 3), np.array([[1, 1, 0]]), g.u(1, 3)], grad=(False,) * 3, kink=True)
add("scatter__reduce_value_legacy", lambda m, x, i: (x * 1).scatter_(0, i, 2.0, reduce="add"),
    lambda g: [g.u(2, 3), np.array([[1, 1, 0]])], grad=(False,) * 2, kink=True)
