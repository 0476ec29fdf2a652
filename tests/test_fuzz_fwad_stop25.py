"""Fuzz stop 25 (helper fz10b): forward-AD fidelity classes, each as its reproducer
(tests/fuzz/pending_stop24, pending_stop25) and a differential sweep of its neighbours
against PyTorch. Every test compares with torch, so the file needs it."""
import itertools

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

LEVEL = "torch.autograd.forward_ad.enter_dual_level()"
F32_DUAL = ("v0 = torch.tensor(np.array({}, dtype='float32').reshape({}){})",
            "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array({}, "
            "dtype='float64').reshape({}), dtype=v0.dtype))")


def _dual(value, shape, tangent, rg=False):
    return [F32_DUAL[0].format(value, shape, ", requires_grad=True" if rg else ""),
            F32_DUAL[1].format(tangent, shape)]


FINDINGS = {
    # dot(self_p, other_t) of a missing tangent is dot's ZeroTensor short cut: no 0 * inf
    "matmul of an inf dual requiring grad (s24 end_repro_002)":
        [LEVEL, *_dual("[inf]", "(1,)", "[1.624]", rg=True),
         "v1 = v0.matmul(torch.tensor(np.array([1.7640000581741333], dtype='float32')"
         ".reshape((1,))))"],
    # a view without a tangent reads its base's (AutogradMeta::fw_grad)
    "setitem of a dual into a gradient (s24 end_repro_004)":
        [LEVEL, *_dual("[1.7640000581741333]", "(1,)", "[1.624]", rg=True),
         "v1 = v0.exp()", "v2 = v0.exp()",
         "v3 = torch.autograd.grad(v0.sum(), [v0], retain_graph=False, create_graph=True, "
         "allow_unused=False)[0]",
         "v3[0] = v0"],
    "custom Function view of a tensor given a tangent in place (s25 start_repro_003)":
        [LEVEL, *_dual("1.7640000581741333", "()", "1.624", rg=True),
         "v1 = v0.exp()", "v2 = v0.exp()",
         "v3 = torch.autograd.grad(v0, [v0], retain_graph=False, create_graph=False, "
         "allow_unused=False)[0]",
         "v4 = v0.exp()", "v5 = _View.apply(v3)", "v6 = v0.floor_divide(v0)",
         "v7 = v0 // v0", "v8 = v0 // v0", "with torch.no_grad():\n    v3.atan2_(v0)"],
    # forward-over-reverse through _softmax_backward_data: its jvp decomposition
    "tangent of softmax's gradient: +0.0 (s24 end_repro_011)":
        [LEVEL, *_dual("[-0.2750000059604645, 0.23999999463558197]", "(2,)",
                       "[-0.586, 0.082]", rg=True),
         "v1 = v0.exp()", "v2 = v0.exp()", "v3 = v0.exp()", "v4 = v0.softmax(0)",
         "v5 = torch.autograd.grad(v4.sum(), [v0], retain_graph=False, create_graph=False, "
         "allow_unused=False)[0]"],
    # autograd's check_inplace before the kernel's scalar conversion
    "clamp_min_ of a float16 dual leaf view by a huge int (s24 end_repro_003)":
        [LEVEL, *_dual("1.7640000581741333", "()", "1.624"),
         "v2 = torch.tensor(np.array(1.763671875, dtype='float16').reshape(()), "
         "requires_grad=True)",
         "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array(1.624, "
         "dtype='float64').reshape(()), dtype=v2.dtype))",
         "v2.clamp_min_(1099511627777)"],
    # setitem by a number is copy_ from a source without a tangent: self_t.fill_(0)
    "setitem into sgn's ZeroTensor tangent: the fallback's words (s24 end_repro_008)":
        [LEVEL, *_dual("1.7640000581741333", "()", "1.624"),
         "v1 = v0.sgn()", "v1[...] = 0"],
}


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_fuzz_finding(name):
    from tests.fuzz.core import run_and_compare
    try:
        run_and_compare(FINDINGS[name])
    finally:
        if autotensor.autograd.forward_ad._current[0] >= 0:
            autotensor.autograd.forward_ad.exit_dual_level()


def _summary(t):
    """(values as float64, requires_grad) of a tangent, None when absent."""
    if t is None:
        return None
    return np.asarray(t.detach().double().numpy()), t.requires_grad


TOL = {"float64": 1e-12, "float32": 1e-6, "float16": 2e-3, "bfloat16": 1.6e-2}


def _assert_tangents(a, b, dt, what):
    """Presence, requires_grad, NaN positions, signs of exact zeros, values to ``dt``'s
    tolerance (relative to the larger magnitude)."""
    if a is None or b is None:
        assert a is None and b is None, f"{what}: tangent {a} vs torch's {b}"
        return
    (va, ra), (vb, rb) = a, b
    assert ra == rb, f"{what}: requires_grad {ra} vs {rb}"
    assert va.shape == vb.shape, what
    assert np.array_equal(np.isnan(va), np.isnan(vb)), f"{what}: {va} vs {vb}"
    z = (va == 0) & (vb == 0)
    assert np.array_equal(np.signbit(va[z]), np.signbit(vb[z])), f"{what}: {va} vs {vb}"
    ok = ~np.isnan(va)
    scale = max(1.0, float(np.max(np.abs(vb[ok & np.isfinite(vb)]), initial=0)))
    np.testing.assert_allclose(va[ok], vb[ok], rtol=TOL[dt], atol=TOL[dt] * scale,
                               err_msg=what)


# ---- products: a missing tangent's term -----------------------------------------------------
# Note [Dense zero terms] in linalg._bilinear: dot and vdot (Blas.cpp), outer/addr (mul)
# and linalg_cross return a ZeroTensor for a ZeroTensor operand, and ZeroTensor + t is t,
# so inf/NaN in the other primal never reach the tangent; mm/mv/bmm/addmm... multiply the
# materialized zeros (NaN there). With grad mode on and a primal requiring grad, the term
# is still evaluated (its graph), which made dot's tangent NaN.
PRODUCTS = {
    "dot": (lambda t, a, b: t.dot(a, b), (3,), (3,)),
    "vdot": (lambda t, a, b: t.vdot(a, b), (3,), (3,)),
    "inner": (lambda t, a, b: t.inner(a, b), (3,), (3,)),
    "matmul_1d": (lambda t, a, b: t.matmul(a, b), (3,), (3,)),
    "matmul_1": (lambda t, a, b: t.matmul(a, b), (1,), (1,)),
    "outer": (lambda t, a, b: t.outer(a, b), (2,), (3,)),
    "addr": (lambda t, a, b: t.addr(t.zeros(2, 3, dtype=a.dtype), a, b), (2,), (3,)),
    "cross": (lambda t, a, b: t.linalg.cross(a, b), (3,), (3,)),
    "mv": (lambda t, a, b: t.mv(a, b), (2, 3), (3,)),
    "mm": (lambda t, a, b: t.mm(a, b), (2, 3), (3, 2)),
    "bmm": (lambda t, a, b: t.bmm(a, b), (1, 2, 3), (1, 3, 2)),
    "addmm": (lambda t, a, b: t.addmm(t.ones(2, 2, dtype=a.dtype), a, b), (2, 3), (3, 2)),
    "addmv": (lambda t, a, b: t.addmv(t.ones(2, dtype=a.dtype), a, b), (2, 3), (3,)),
    "matmul_2d_1d": (lambda t, a, b: t.matmul(a, b), (2, 3), (3,)),
    "matmul_1d_2d": (lambda t, a, b: t.matmul(a, b), (3,), (3, 2)),
}
SPECIALS = {"inf": np.inf, "nan": np.nan, "negzero": -0.0, "one": 1.5}


def _product_case(mod, name, dt, special, dual_which, rg_which):
    fwAD = mod.autograd.forward_ad
    f, sa, sb = PRODUCTS[name]
    rng = np.random.default_rng(7)
    a = rng.standard_normal(sa)
    b = rng.standard_normal(sb)
    a.reshape(-1)[0] = SPECIALS[special]
    dtype = getattr(mod, dt)
    with fwAD.dual_level():
        x = mod.tensor(a, dtype=dtype, requires_grad=0 in rg_which)
        y = mod.tensor(b, dtype=dtype, requires_grad=1 in rg_which)
        if 0 in dual_which:
            x = fwAD.make_dual(x, mod.tensor(rng.standard_normal(sa), dtype=dtype))
        if 1 in dual_which:
            y = fwAD.make_dual(y, mod.tensor(rng.standard_normal(sb), dtype=dtype))
        return _summary(fwAD.unpack_dual(f(mod, x, y)).tangent)


@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_product_tangents_with_a_missing_tangent_as_torch(name):
    n = 0
    for dt, special, dual_which, rg_which in itertools.product(
            ("float32", "float64"), sorted(SPECIALS), ((0,), (1,), (0, 1)),
            ((), (0,), (1,), (0, 1))):
        what = f"{name} {dt} {special} dual={dual_which} rg={rg_which}"
        _assert_tangents(_product_case(autotensor, name, dt, special, dual_which, rg_which),
                         _product_case(torch, name, dt, special, dual_which, rg_which),
                         dt, what)
        n += 1
    assert n == 96


# ---- views read their base's tangent ------------------------------------------------------
# Note [Tangents of views] in forward_ad.py: a write of a dual into a plain tensor through
# a view gives the base a tangent; every other view of it made before (or the view written
# through, a custom Function's view output, a no_grad view) then has the same view of it.
TARGETS = {
    "plain": lambda t: (t.zeros(3, 2),),
    "slice": lambda t: (lambda x: (x, x[1:]))(t.zeros(3, 2)),
    "transposed": lambda t: (lambda x: (x, x.t()))(t.zeros(3, 2)),
    "broadcast": lambda t: (lambda x: (x, x.expand(1, 2)))(t.zeros(1, 2)),
    "expanded": lambda t: (lambda x: (x, x.expand(3, 2)))(t.zeros(1, 2)),
    "nograd": lambda t: _nograd_view(t),
    "function": lambda t: (lambda x: (x, _fn_view(t).apply(x)))(t.zeros(3, 2)),
    "unsqueezed": lambda t: (lambda x: (x, x.unsqueeze(0)[0]))(t.zeros(3, 2)),
}


def _nograd_view(t):
    x = t.zeros(3, 2)
    with t.no_grad():
        return x, x[:2]


_FN = {}


def _fn_view(t):
    if t not in _FN:
        class _View(t.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a.view_as(a)

            @staticmethod
            def backward(ctx, g):
                return g
        _FN[t] = _View
    return _FN[t]


WRITES = {
    "setitem_int": lambda t, v, d: v.__setitem__(0, d[0]),
    "setitem_slice": lambda t, v, d: v.__setitem__(slice(0, 1), d[:1]),
    "setitem_mask": lambda t, v, d: v.__setitem__(
        t.tensor([True] + [False] * (v.shape[0] - 1)), d[0]),
    "setitem_list": lambda t, v, d: v.__setitem__([0], d[:1]),
    "setitem_ellipsis": lambda t, v, d: v.__setitem__(..., d[0]),
    "copy_": lambda t, v, d: v.copy_(d[0]),
    "select_copy_": lambda t, v, d: v.select(0, 0).copy_(d[0]),
    "index_put_": lambda t, v, d: v.index_put_((t.tensor([0]),), d[0]),
    "index_copy_": lambda t, v, d: v.index_copy_(0, t.tensor([0]),
                                                 d[:1, :1].expand(1, v.shape[1])),
    "masked_scatter_": lambda t, v, d: v.masked_scatter_(v.detach() == 0,
                                                         d.reshape(-1).repeat(2)),
    "fill_": lambda t, v, d: v.fill_(d[0, 0]),
    "masked_fill_": lambda t, v, d: v.masked_fill_(v.detach() == 0, d[0, 0]),
    "add_": lambda t, v, d: v.add_(d[0]),
    "mul_": lambda t, v, d: v.mul_(d[0]),
    "atan2_": lambda t, v, d: v.atan2_(d[0]),
    "lerp_": lambda t, v, d: v.lerp_(d[0], 0.5),
    "clamp_": lambda t, v, d: v.clamp_(min=d[0]),
    "scatter_": lambda t, v, d: v.scatter_(0, t.tensor([[0, 0]]), d[:1]),
}


def _view_case(mod, target, write, no_grad):
    fwAD = mod.autograd.forward_ad
    with fwAD.dual_level():
        base, *views = TARGETS[target](mod)
        others = [base[0], base.view(-1)] if base.shape[0] > 1 else [base.view(-1)]
        d = fwAD.make_dual(mod.tensor([[1.5, -2.0], [0.5, 3.0]]),
                           mod.tensor([[0.25, -1.0], [2.0, 0.0]]))
        written = views[0] if views else base
        try:
            if no_grad:
                with mod.no_grad():
                    WRITES[write](mod, written, d)
            else:
                WRITES[write](mod, written, d)
        except Exception as e:  # noqa: BLE001
            return (type(e).__name__, str(e).split("\n")[0])
        return [_summary(fwAD.unpack_dual(t).tangent) for t in (base, *views, *others)]


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_inplace_writes_of_duals_give_views_tangents_as_torch(target):
    n = 0
    for write, no_grad in itertools.product(sorted(WRITES), (False, True)):
        what = f"{target} {write} no_grad={no_grad}"
        a = _view_case(autotensor, target, write, no_grad)
        b = _view_case(torch, target, write, no_grad)
        if isinstance(b, tuple) or isinstance(a, tuple):
            assert a == b, what
        else:
            for k, (x, y) in enumerate(zip(a, b)):
                _assert_tangents(x, y, "float32", f"{what} tensor {k}")
        n += 1
    assert n == 36


def test_unpack_dual_primal_never_reads_the_base_tangent():
    """make_dual's and unpack_dual's views are not forward-differentiable views: a tangent
    the base takes later is not theirs."""
    for mod in (autotensor, torch):
        fwAD = mod.autograd.forward_ad
        with fwAD.dual_level():
            x = mod.zeros(2)
            d = fwAD.make_dual(x, mod.ones(2))
            p = fwAD.unpack_dual(d).primal
            q = p[:1]
            x.add_(fwAD.make_dual(mod.ones(2), mod.full((2,), 3.0)))
            assert fwAD.unpack_dual(d).tangent.tolist() == [1.0, 1.0]
            assert fwAD.unpack_dual(p).tangent is None, mod
            assert fwAD.unpack_dual(q).tangent is None, mod
            assert fwAD.unpack_dual(x).tangent.tolist() == [3.0, 3.0]


# ---- softmax / log_softmax ------------------------------------------------------------------
# Their rules: result * (self_t - logsumexp_jvp(self_p, self_t, {dim}, true)) and
# self_t - logsumexp_jvp(...), which recompute exp(x - amax(x)); their backward ops
# (_softmax_backward_data, _log_softmax_backward_data) have no forward formula and run
# their decompositions when a tangent meets them (forward-over-reverse): the primal is
# g * o - o * sum(g * o) then, and its zeros' signs come from those steps.
SOFTMAX_SHAPES = [((2,), 0), ((5,), 0), ((3, 4), 1), ((3, 4), 0), ((), 0), ((0, 3), 1)]


def _softmax_case(mod, dt, shape, dim, fn, grad_kind, create_graph):
    fwAD = mod.autograd.forward_ad
    rng = np.random.default_rng(3)
    x, t, g, gt = (rng.standard_normal(shape) for _ in range(4))
    dtype = getattr(mod, dt)
    with fwAD.dual_level():
        xd = fwAD.make_dual(mod.tensor(x, dtype=dtype, requires_grad=True),
                            mod.tensor(t, dtype=dtype))
        y = getattr(mod, fn)(xd, dim)
        out = [_summary(fwAD.unpack_dual(y).tangent)]
        if grad_kind == "sum":
            r = mod.autograd.grad(y.sum(), [xd], create_graph=create_graph)[0]
        else:
            gg = mod.tensor(g, dtype=dtype)
            if grad_kind == "dual":
                gg = fwAD.make_dual(gg, mod.tensor(gt, dtype=dtype))
            r = mod.autograd.grad(y, [xd], gg, create_graph=create_graph)[0]
        p, tn = fwAD.unpack_dual(r)
        out += [_summary(p), _summary(tn),
                None if r.grad_fn is None else type(r.grad_fn).__name__]
    return out


@pytest.mark.parametrize("dt", ["float64", "float32"])
def test_softmax_tangents_and_gradient_tangents_as_torch(dt):
    n = 0
    for (shape, dim), fn, grad_kind, cg in itertools.product(
            SOFTMAX_SHAPES, ("softmax", "log_softmax"), ("sum", "plain", "dual"),
            (False, True)):
        what = f"{fn} {dt} {shape} dim={dim} grad={grad_kind} create_graph={cg}"
        a = _softmax_case(autotensor, dt, shape, dim, fn, grad_kind, cg)
        b = _softmax_case(torch, dt, shape, dim, fn, grad_kind, cg)
        for k in range(3):
            _assert_tangents(a[k], b[k], dt, f"{what} [{k}]")
        assert a[3] == b[3], what
        n += 1
    assert n == 72


# ---- ZeroTensor tangents: which words -------------------------------------------------------
ZT_WRITES = {
    "copy_plain": lambda t, x, d: x.copy_(t.tensor([2.0])),
    "copy_dual": lambda t, x, d: x.copy_(d),
    "setitem_num": lambda t, x, d: x.__setitem__(..., 0),
    "setitem_dual": lambda t, x, d: x.__setitem__(..., d),
    "setitem_int_num": lambda t, x, d: x.__setitem__(0, 1.0),
    "setitem_int_dual": lambda t, x, d: x.__setitem__(0, d[0]),
    "setitem_mask_dual": lambda t, x, d: x.__setitem__(t.tensor([True]), d),
    "setitem_list_num": lambda t, x, d: x.__setitem__([0], 1.0),
    "fill_": lambda t, x, d: x.fill_(1.0), "fill_dual": lambda t, x, d: x.fill_(d[0]),
    "zero_": lambda t, x, d: x.zero_(),
    "masked_fill_": lambda t, x, d: x.masked_fill_(t.tensor([True]), 1.0),
    "index_fill_": lambda t, x, d: x.index_fill_(0, t.tensor([0]), 1.0),
    "index_put_": lambda t, x, d: x.index_put_((t.tensor([0]),), d),
    "index_copy_": lambda t, x, d: x.index_copy_(0, t.tensor([0]), d),
    "index_add_": lambda t, x, d: x.index_add_(0, t.tensor([0]), d),
    "scatter_": lambda t, x, d: x.scatter_(0, t.tensor([0]), d),
    "scatter_value": lambda t, x, d: x.scatter_(0, t.tensor([0]), 1.0),
    "scatter_add_": lambda t, x, d: x.scatter_add_(0, t.tensor([0]), d),
    "masked_scatter_": lambda t, x, d: x.masked_scatter_(t.tensor([True]), d),
    "put_": lambda t, x, d: x.put_(t.tensor([0]), d),
    "add_": lambda t, x, d: x.add_(d), "mul_": lambda t, x, d: x.mul_(2.0),
    "exp_": lambda t, x, d: x.exp_(), "eq_": lambda t, x, d: x.eq_(1.0),
    "lt_": lambda t, x, d: x.lt_(d), "uniform_": lambda t, x, d: x.uniform_(),
    "normal_": lambda t, x, d: x.normal_(), "polygamma_": lambda t, x, d: x.polygamma_(1),
    "threshold_": lambda t, x, d: t.nn.functional.threshold_(x, 0.5, 1.0),
    "elu_": lambda t, x, d: t.nn.functional.elu_(x),
    "index_reduce_": lambda t, x, d: x.index_reduce_(0, t.tensor([0]), d, "prod"),
}


def _zt_case(mod, write, view):
    fwAD = mod.autograd.forward_ad
    with fwAD.dual_level():
        try:
            x = fwAD.make_dual(mod.tensor([1.5]), mod.tensor([0.5])).sgn()
            if view:
                x = x[...]
            ZT_WRITES[write](mod, x, fwAD.make_dual(mod.tensor([2.5]), mod.tensor([1.0])))
            return "ok", x.tolist()
        except Exception as e:  # noqa: BLE001
            return type(e).__name__, str(e).split("\n")[0]


@pytest.mark.parametrize("view", [False, True])
def test_zero_tensor_tangent_inplace_errors_as_torch(view):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (index_reduce_ is beta)
        for write in sorted(ZT_WRITES):
            assert _zt_case(autotensor, write, view) == _zt_case(torch, write, view), write


# ---- in-place ops with a scalar the dtype cannot hold -----------------------------------
# The kernel's conversion error ("value cannot be converted to type c10::Half without
# overflow") comes after autograd's check_inplace: a leaf, a view of one, a no_grad view.
SCALAR_OPS = {
    "clamp_": lambda x, s: x.clamp_(s), "clamp_min_": lambda x, s: x.clamp_min_(s),
    "clamp_max_": lambda x, s: x.clamp_max_(s), "clip_": lambda x, s: x.clip_(max=s),
    "clamp_both": lambda x, s: x.clamp_(min=-s, max=s), "pow_": lambda x, s: x.pow_(s),
    "add_": lambda x, s: x.add_(s), "mul_": lambda x, s: x.mul_(s),
    "fill_": lambda x, s: x.fill_(s),
}


def _scalar_case(mod, dt, kind, op, s):
    fwAD = mod.autograd.forward_ad
    with fwAD.dual_level():
        try:
            x = mod.tensor([1.5, 2.0], dtype=getattr(mod, dt),
                           requires_grad=kind != "nograd")
            if kind == "leafview":
                x = x[:]
            elif kind == "dualleaf":
                x = fwAD.make_dual(x, mod.ones(2, dtype=x.dtype))
            elif kind == "nograd":
                y = mod.tensor([1.5, 2.0], dtype=getattr(mod, dt), requires_grad=True)
                with mod.no_grad():
                    x = y[:]
            SCALAR_OPS[op](x, s)
            return "ok", x.detach().double().tolist()
        except Exception as e:  # noqa: BLE001
            return type(e).__name__, str(e).split("\n")[0]


@pytest.mark.parametrize("dt", ["float16", "bfloat16", "float32"])
def test_inplace_scalar_conversion_after_autograd_checks_as_torch(dt):
    for kind, op, s in itertools.product(("leaf", "leafview", "dualleaf", "nograd"),
                                         sorted(SCALAR_OPS),
                                         (1099511627777, 70000, 1e40, -1e39, 65504.0)):
        assert _scalar_case(autotensor, dt, kind, op, s) == \
            _scalar_case(torch, dt, kind, op, s), (kind, op, s)


# ---- c10::Scalar arguments: the argument parser first ---------------------------------------
# A Python int past uint64 is the parser's OverflowError ("int too big to convert"; a
# negative one "can't convert negative int to unsigned"), before autograd's checks and the
# kernel's; the binding reads its Scalars last argument first (GCC's right-to-left order).
PARSER_CALLS = {
    "add_alpha_": "x.add_(y, alpha=B)", "sub_alpha_": "x.sub_(y, alpha=B)",
    "addcmul_": "x.addcmul_(y, y, value=B)", "addcdiv_": "x.addcdiv_(y, y, value=B)",
    "elu": "F.elu(x, B)", "elu_": "F.elu_(x, B)", "celu_": "F.celu_(x, B)",
    "leaky_relu": "F.leaky_relu(x, B)", "leaky_relu_": "F.leaky_relu_(x, B)",
    "hardtanh": "F.hardtanh(x, -B, B)", "hardtanh_neg": "F.hardtanh(x, -B, 1.0)",
    "hardtanh_": "F.hardtanh_(x, -B, B)", "threshold": "F.threshold(x, -B, B)",
    "threshold_": "F.threshold_(x, B, 1.0)", "softplus": "F.softplus(x, -B, B)",
    "rrelu": "F.rrelu(x, -B, B)", "hardshrink": "F.hardshrink(x, B)",
    "softshrink": "F.softshrink(x, B)", "copysign_": "x.copysign_(B)", "xlogy_": "x.xlogy_(B)",
    "floor_divide_": "x.floor_divide_(B)", "index_fill_": "x.index_fill_(0, i, B)",
    "clamp": "x.clamp(-B, B)", "clamp_": "x.clamp_(B, -B)",
}


def _parser_case(mod, call, leaf):
    import warnings
    x = mod.tensor([1.5, -2.0], requires_grad=leaf)
    env = {"x": x, "y": mod.tensor([0.5, 2.0]), "i": mod.tensor([0]), "B": 2 ** 70,
           "F": mod.nn.functional}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval(call, env)
        return "ok"
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e).split("\n")[0]


@pytest.mark.parametrize("leaf", [False, True])
def test_scalar_argument_overflow_first_as_torch(leaf):
    for name, call in sorted(PARSER_CALLS.items()):
        assert _parser_case(autotensor, call, leaf) == _parser_case(torch, call, leaf), name


# ---- in-place elu_/celu_/leaky_relu_/rrelu_ with a negative slope ---------------------------
# Their formulas (elu_backward / leaky_relu_backward of the result) refuse a negative or NaN
# slope: at backward in reverse mode, at the op (after the write) under forward AD.
SLOPE_CALLS = {
    "elu_": lambda F, x: F.elu_(x, -1.0), "elu_nan": lambda F, x: F.elu_(x, float("nan")),
    "celu_": lambda F, x: F.celu_(x, -1.0), "leaky_relu_": lambda F, x: F.leaky_relu_(x, -1.0),
    "leaky_relu_0": lambda F, x: F.leaky_relu_(x, 0.0), "selu_": lambda F, x: F.selu_(x),
    "rrelu_": lambda F, x: F.rrelu_(x, -0.5, -0.2), "elu_pos": lambda F, x: F.elu_(x, 0.5),
}


def _slope_case(mod, call, forward):
    fwAD = mod.autograd.forward_ad
    F = mod.nn.functional
    try:
        if forward:
            with fwAD.dual_level():
                x = fwAD.make_dual(mod.tensor([1.5, -2.0]), mod.ones(2))
                try:
                    SLOPE_CALLS[call](F, x)
                except Exception as e:  # noqa: BLE001
                    return type(e).__name__, str(e), str(x.tolist()), x._version
                return "ok", fwAD.unpack_dual(x).tangent.tolist()
        x = mod.tensor([1.5, -2.0], requires_grad=True).clone()
        SLOPE_CALLS[call](F, x).sum().backward()
        return "ok"
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)


@pytest.mark.parametrize("forward", [False, True])
def test_inplace_negative_slope_refused_as_torch(forward):
    for call in sorted(SLOPE_CALLS):
        a, b = _slope_case(autotensor, call, forward), _slope_case(torch, call, forward)
        assert a == b, call
