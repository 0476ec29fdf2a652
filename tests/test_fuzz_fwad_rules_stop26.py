"""Fuzz stop 26 (helper fz11b): forward-AD rule fidelity, each class as its reproducer and
a differential sweep of its neighbours against PyTorch.

- signed zeros of tangents where an input has none (Note [Missing self tangent in place] in
  autograd/forward_ad.py, Note [Zero-tensor tangents] in _ops/dispatch.py): binary, ternary
  and matrix ops x which inputs are dual x in place or not x float32/float64 x 0-d or not,
  values and tangents with +-0.0, tangents compared with their sign bits;
- rules on non-contiguous primals and tangents: every op-table sample (tests/op_db*.py)
  with its floating inputs made inside the dual level as transposed, stepped or expanded
  views of duals (primal and tangent alike), for each subset of dual inputs.
Every test compares with torch, so the file needs it."""
import itertools
import warnings

import numpy as np
import pytest

import autotensor
from tests._cpu import GEMM_ZERO_SIGNS_MODELLED
from op_db import SAMPLES, Sample

torch = pytest.importorskip("torch")

LEVEL = "torch.autograd.forward_ad.enter_dual_level()"

FINDINGS = {
    # x /= dual for an x without a tangent: in place, self's missing tangent is dense zeros
    # ((0 - other_t * result) / other: +0.0), not a zero tensor
    "div_ of a tensor without a tangent by a dual: +0.0":
        [LEVEL,
         "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
         "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, "
         "dtype='float64').reshape(()), dtype=v0.dtype))",
         "v1 = v0.logical_not()", "v3 = v1.log1p()", "v3 /= v0"],
    # prod_backward (prod's forward rule) views input.contiguous(), not the input
    "prod of a transposed dual with a zero":
        [LEVEL,
         "v1 = torch.tensor(np.array([[1.764, 0.979], [0.4, 0.0]], dtype='float32'))"
         ".transpose(0, 1).detach()",
         "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[1.624, -0.612], "
         "[-0.528, -1.073]], dtype='float64'), dtype=v1.dtype))",
         "v2 = v1.prod()"],
}


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_fuzz_finding(name):
    from tests.fuzz.core import run_and_compare
    try:
        run_and_compare(FINDINGS[name])
    finally:
        if autotensor.autograd.forward_ad._current[0] >= 0:
            autotensor.autograd.forward_ad.exit_dual_level()


def _close(got, want, tol, signs=True, primal_signs=True):
    """Lists of (primal, tangent) arrays or ("raised", type) tuples, compared."""
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        if isinstance(w[0], str) or isinstance(g[0], str):
            assert isinstance(g[0], str) and isinstance(w[0], str) and g[:2] == w[:2], \
                f"{g[0] if isinstance(g[0], str) else 'a value'} vs torch's " \
                f"{w[0] if isinstance(w[0], str) else 'a value'}: {g[1:2]} {w[1:2]}"
            continue
        for u, v, what in zip(g, w, ("primal", "tangent")):
            assert (u is None) == (v is None), f"{what}: {u} vs torch's {v}"
            if u is None:
                continue
            assert u.shape == v.shape, what
            np.testing.assert_allclose(u, v, rtol=tol, atol=tol, err_msg=what)
            if signs and (primal_signs or what == "tangent"):
                ok = ~np.isnan(v)
                assert np.array_equal(np.signbit(u)[ok], np.signbit(v)[ok]), \
                    f"{what}: signs of zeros {u} vs torch's {v}"


def _unpack(m, r):
    p, t = m.autograd.forward_ad.unpack_dual(r)
    return (p.detach().double().numpy().copy(),
            None if t is None else t.detach().double().numpy().copy())


def _catch(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001
        return [("raised", type(e).__name__)]


# ---- signed zeros of tangents where an input has none ------------------------------------
V = [0.0, -0.0, 1.5, -2.0]  # primal values (every combination of them, per input)
T = [0.7, -0.0, 0.0, -1.3]  # tangent values (rotated per input)

BINARY = {
    "add": (lambda m, a, b: a + b, lambda a, b: a.add_(b)),
    "add_alpha": (lambda m, a, b: m.add(a, b, alpha=-2), lambda a, b: a.add_(b, alpha=-2)),
    "sub": (lambda m, a, b: a - b, lambda a, b: a.sub_(b)),
    "sub_alpha": (lambda m, a, b: m.sub(a, b, alpha=2), lambda a, b: a.sub_(b, alpha=2)),
    "rsub": (lambda m, a, b: m.rsub(a, b), None),
    "mul": (lambda m, a, b: a * b, lambda a, b: a.mul_(b)),
    "div": (lambda m, a, b: a / b, lambda a, b: a.div_(b)),
    "true_divide": (lambda m, a, b: m.true_divide(a, b), lambda a, b: a.true_divide_(b)),
    "div_trunc": (lambda m, a, b: m.div(a, b, rounding_mode="trunc"),
                  lambda a, b: a.div_(b, rounding_mode="trunc")),
    "div_floor": (lambda m, a, b: m.div(a, b, rounding_mode="floor"),
                  lambda a, b: a.div_(b, rounding_mode="floor")),
    "atan2": (lambda m, a, b: m.atan2(a, b), lambda a, b: a.atan2_(b)),
    "hypot": (lambda m, a, b: m.hypot(a, b), lambda a, b: a.hypot_(b)),
    "pow": (lambda m, a, b: m.pow(a, b), lambda a, b: a.pow_(b)),
    "float_power": (lambda m, a, b: m.float_power(a, b), lambda a, b: a.float_power_(b)),
    "copysign": (lambda m, a, b: m.copysign(a, b), lambda a, b: a.copysign_(b)),
    "fmod": (lambda m, a, b: m.fmod(a, b), lambda a, b: a.fmod_(b)),
    "remainder": (lambda m, a, b: m.remainder(a, b), lambda a, b: a.remainder_(b)),
    "maximum": (lambda m, a, b: m.maximum(a, b), None),
    "minimum": (lambda m, a, b: m.minimum(a, b), None),
    "fmax": (lambda m, a, b: m.fmax(a, b), None),
    "fmin": (lambda m, a, b: m.fmin(a, b), None),
    "xlogy": (lambda m, a, b: m.xlogy(a, b), lambda a, b: a.xlogy_(b)),
    "xlog1py": (lambda m, a, b: m.special.xlog1py(a, b), None),
    "logaddexp": (lambda m, a, b: m.logaddexp(a, b), None),
    "logaddexp2": (lambda m, a, b: m.logaddexp2(a, b), None),
    "lerp_scalar": (lambda m, a, b: m.lerp(a, b, 0.3), lambda a, b: a.lerp_(b, 0.3)),
    "clamp_min": (lambda m, a, b: m.clamp_min(a, b), lambda a, b: a.clamp_min_(b)),
    "clamp_max": (lambda m, a, b: m.clamp_max(a, b), lambda a, b: a.clamp_max_(b)),
    "ldexp": (lambda m, a, b: m.ldexp(a, b), lambda a, b: a.ldexp_(b)),
    "mul_number": (lambda m, a, b: a * -0.0, lambda a, b: a.mul_(-0.0)),
    "div_number": (lambda m, a, b: a / -2.0, lambda a, b: a.div_(-2.0)),
    "rdiv_number": (lambda m, a, b: -1.0 / a, None),
    "rsub_number": (lambda m, a, b: 0.0 - a, None),
    "sub_number": (lambda m, a, b: a - 1.0, lambda a, b: a.sub_(1.0)),
    "pow_number": (lambda m, a, b: a ** 2, lambda a, b: a.pow_(2)),
    "pow_number_base": (lambda m, a, b: 2.0 ** a, None),
}
TERNARY = {
    "addcmul": (lambda m, a, b, c: m.addcmul(a, b, c, value=-0.5),
                lambda a, b, c: a.addcmul_(b, c, value=-0.5)),
    "addcdiv": (lambda m, a, b, c: m.addcdiv(a, b, c, value=2),
                lambda a, b, c: a.addcdiv_(b, c, value=2)),
    "lerp": (lambda m, a, b, c: m.lerp(a, b, c), lambda a, b, c: a.lerp_(b, c)),
    "clamp": (lambda m, a, b, c: m.clamp(a, b, c), lambda a, b, c: a.clamp_(b, c)),
    "where": (lambda m, a, b, c: m.where(c > 0, a, b), None),
}


def _grid_run(m, fn, n, which, inplace, dt, zero_d):
    """fn over every combination of V per input (one call, or one 0-d call each)."""
    fw = m.autograd.forward_ad
    vals = np.array(list(itertools.product(V, repeat=n))).T
    tans = [np.roll(np.resize(T, vals.shape[1]), i) for i in range(n)]
    out = []
    with fw.dual_level():
        for j in (range(vals.shape[1]) if zero_d else [slice(None)]):
            xs = [m.tensor(vals[i][j], dtype=dt) for i in range(n)]
            xs = [fw.make_dual(x, m.tensor(tans[i][j], dtype=dt)) if i in which else x
                  for i, x in enumerate(xs)]

            def call(xs=xs):
                if inplace:
                    a = xs[0].clone()
                    fn(a, *xs[1:])
                    return [_unpack(m, a)]
                return [_unpack(m, fn(m, *xs))]
            out += _catch(call)
    return out


GRID_CASES = [(name, n, inplace) for table, n in ((BINARY, 2), (TERNARY, 3))
              for name, (f, fi) in table.items() for inplace in (False, True)
              if not inplace or fi is not None]


@pytest.mark.parametrize("name,n,inplace", GRID_CASES,
                         ids=[f"{c[0]}{'_' if c[2] else ''}" for c in GRID_CASES])
def test_tangent_signed_zeros_with_missing_tangents_as_torch(name, n, inplace):
    f, fi = (BINARY if n == 2 else TERNARY)[name]
    fn = fi if inplace else f
    for which in [(i,) for i in range(n)] + [tuple(range(n))]:
        for dt, zero_d in itertools.product(("float64", "float32"), (False, True)):
            want = _grid_run(torch, fn, n, which, inplace, getattr(torch, dt), zero_d)
            got = _grid_run(autotensor, fn, n, which, inplace, getattr(autotensor, dt), zero_d)
            try:
                _close(got, want, 1e-12 if dt == "float64" else 1e-6)
            except AssertionError as e:
                raise AssertionError(f"{name} dual inputs {which} {dt} "
                                     f"{'0-d' if zero_d else ''}: {e}") from None


SHAPED = {  # name: (input shapes, out of place, in place)
    "addmm": ([(2, 2), (2, 3), (3, 2)], lambda m, a, b, c: m.addmm(a, b, c, beta=0.5, alpha=-1),
              lambda a, b, c: a.addmm_(b, c, beta=0.5, alpha=-1)),
    "addmm_1": ([(2, 2), (2, 3), (3, 2)], lambda m, a, b, c: m.addmm(a, b, c),
                lambda a, b, c: a.addmm_(b, c)),
    "addmv": ([(2,), (2, 3), (3,)], lambda m, a, b, c: m.addmv(a, b, c),
              lambda a, b, c: a.addmv_(b, c)),
    "addr": ([(2, 3), (2,), (3,)], lambda m, a, b, c: m.addr(a, b, c, alpha=2),
             lambda a, b, c: a.addr_(b, c, alpha=2)),
    "baddbmm": ([(2, 2, 2), (2, 2, 3), (2, 3, 2)], lambda m, a, b, c: m.baddbmm(a, b, c),
                lambda a, b, c: a.baddbmm_(b, c)),
    "addbmm": ([(2, 2), (2, 2, 3), (2, 3, 2)], lambda m, a, b, c: m.addbmm(a, b, c),
               lambda a, b, c: a.addbmm_(b, c)),
    "ldexp": ([(8,), (8,)], lambda m, a, b: m.ldexp(a, b), lambda a, b: a.ldexp_(b)),
    "mm": ([(2, 3), (3, 2)], lambda m, a, b: m.mm(a, b), None),
    "mv": ([(2, 3), (3,)], lambda m, a, b: m.mv(a, b), None),
    "dot": ([(3,), (3,)], lambda m, a, b: m.dot(a, b), None),
    "cross": ([(2, 3), (2, 3)], lambda m, a, b: m.linalg.cross(a, b), None),
    "index_add": ([(4,), (3,)], lambda m, a, b: a.index_add(0, m.tensor([0, 2, 0]), b, alpha=-1),
                  lambda a, b: a.index_add_(0, a.new_tensor([0, 2, 0]).long(), b, alpha=-1)),
    "scatter_add": ([(4,), (3,)], lambda m, a, b: a.scatter_add(0, m.tensor([0, 2, 0]), b),
                    lambda a, b: a.scatter_add_(0, a.new_tensor([0, 2, 0]).long(), b)),
    "masked_scatter": ([(4,), (4,)],
                       lambda m, a, b: a.masked_scatter(m.tensor([True, False, True, False]), b),
                       lambda a, b: a.masked_scatter_(a.new_tensor([1, 0, 1, 0]).bool(), b)),
    "index_put_acc": ([(4,), (2,)],
                      lambda m, a, b: a.index_put((m.tensor([1, 1]),), b, accumulate=True),
                      lambda a, b: a.index_put_((a.new_tensor([1, 1]).long(),), b,
                                                accumulate=True)),
    "put_acc": ([(4,), (2,)], lambda m, a, b: a.put(m.tensor([3, 3]), b, accumulate=True),
                lambda a, b: a.put_(a.new_tensor([3, 3]).long(), b, accumulate=True)),
    "masked_fill_tensor": ([(4,), ()],
                           lambda m, a, b: a.masked_fill(m.tensor([True, False, True, False]), b),
                           lambda a, b: a.masked_fill_(a.new_tensor([1, 0, 1, 0]).bool(), b)),
    "lerp_tensor": ([(4,), (4,), (4,)], lambda m, a, b, c: m.lerp(a, b, c),
                    lambda a, b, c: a.lerp_(b, c)),
    "where_self": ([(4,), (4,)], lambda m, a, b: m.where(a > 0, a, b), None),
    "prelu": ([(2, 3), (3,)], lambda m, a, b: m.nn.functional.prelu(a, b), None),
    "index_fill": ([(4,)], lambda m, a: a.index_fill(0, m.tensor([1, 3]), -0.0),
                   lambda a: a.index_fill_(0, a.new_tensor([1, 3]).long(), -0.0)),
    "index_fill_tensor": ([(4,), ()], lambda m, a, b: a.index_fill(0, m.tensor([1, 3]), b),
                          lambda a, b: a.index_fill_(0, a.new_tensor([1, 3]).long(), b)),
    **{f"scatter_reduce_{r}{'' if s else '_noself'}": (
        [(4,), (3,)],
        lambda m, a, b, r=r, s=s: a.scatter_reduce(0, m.tensor([0, 2, 0]), b, r, include_self=s),
        lambda a, b, r=r, s=s: a.scatter_reduce_(0, a.new_tensor([0, 2, 0]).long(), b, r,
                                                 include_self=s))
       for r in ("sum", "mean", "amax", "amin") for s in (True, False)},
    "mul_broadcast": ([(2, 3), (3,)], lambda m, a, b: a * b, lambda a, b: a.mul_(b)),
    "div_broadcast": ([(2, 3), (3,)], lambda m, a, b: a / b, lambda a, b: a.div_(b)),
    "sub_broadcast": ([(2, 3), (3,)], lambda m, a, b: a - b, lambda a, b: a.sub_(b)),
}


# The primal's own signed zeros (not a forward rule's): scatter_reduce's amax/amin of a
# -0.0 and a +0.0 keep the other one than PyTorch's kernel (open, OPEN_FINDINGS stop 26).
PRIMAL_SIGNS_OPEN = {f"scatter_reduce_{r}{s}" for r in ("amax", "amin") for s in ("", "_noself")}


def _shaped_run(m, shapes, fn, which, inplace, dt, seed):
    fw = m.autograd.forward_ad
    rng = np.random.default_rng(seed)
    with fw.dual_level():
        xs = []
        for i, s in enumerate(shapes):
            x = m.tensor(rng.choice(V, s), dtype=dt)
            tv = rng.choice(T, s)
            xs.append(fw.make_dual(x, m.tensor(tv, dtype=dt)) if i in which else x)

        def call():
            if inplace:
                a = xs[0].clone()
                fn(a, *xs[1:])
                return [_unpack(m, a)]
            return [_unpack(m, fn(m, *xs))]
        return _catch(call)


SHAPED_CASES = [(name, inplace) for name, (_, f, fi) in SHAPED.items()
                for inplace in (False, True) if not inplace or fi is not None]


@pytest.mark.parametrize("name,inplace", SHAPED_CASES,
                         ids=[f"{c[0]}{'_' if c[1] else ''}" for c in SHAPED_CASES])
def test_product_and_scatter_tangent_signed_zeros_as_torch(name, inplace):
    shapes, f, fi = SHAPED[name]
    fn = fi if inplace else f
    n = len(shapes)
    for which in [(i,) for i in range(n)] + [tuple(range(n))]:
        for dt, seed in itertools.product(("float64", "float32"), range(4)):
            want = _shaped_run(torch, shapes, fn, which, inplace, getattr(torch, dt), seed)
            got = _shaped_run(autotensor, shapes, fn, which, inplace, getattr(autotensor, dt),
                              seed)
            try:
                gemm_signs = not (name.startswith("addmm") and
                                  not GEMM_ZERO_SIGNS_MODELLED)  # (tests/_cpu.py)
                _close(got, want, 1e-12 if dt == "float64" else 1e-6,
                       primal_signs=name not in PRIMAL_SIGNS_OPEN and gemm_signs)
            except AssertionError as e:
                raise AssertionError(f"{name} dual inputs {which} {dt} seed {seed}: {e}") \
                    from None


def test_inplace_comparisons_and_bernoulli_by_a_dual_give_self_no_tangent():
    """``result: self_t.zero_()`` reads self's tangent only: PyTorch runs a rule only when an
    input whose tangent it reads has one."""
    def scenario(m):
        fw = m.autograd.forward_ad
        out = []
        with fw.dual_level():
            y = fw.make_dual(m.tensor([0.5, 2.0]), m.tensor([1.0, -1.0]))
            for f in (lambda x: x.eq_(y), lambda x: x.lt_(y), lambda x: x.ge_(y),
                      lambda x: (m.manual_seed(0), x.bernoulli_(y * 0.25))[1]):
                x = m.tensor([0.5, 1.0])
                f(x)
                out.append(fw.unpack_dual(x).tangent is None)
            x = fw.make_dual(m.tensor([0.5, 1.0]), m.tensor([3.0, 4.0]))
            x.eq_(y)
            out.append(fw.unpack_dual(x).tangent.tolist())
        return out
    assert scenario(autotensor) == scenario(torch)


# ---- rules on non-contiguous primals and tangents ----------------------------------------
# PyTorch itself gives no or a different tangent (test_forward_ad.py's
# TORCH_FORWARD_INACCURATE): compared there with central differences instead.
TORCH_INACCURATE = {"scatter_reduce_prod_self", "scatter_reduce_prod_noself",
                    "scatter_reduce_prod_zero", "la_triangular_solve",
                    "la_triangular_solve_lower_t_unit", "la_triangular_solve_solution",
                    "la_cholesky_inverse", "la_cholesky_inverse_upper"}
# Expanding repeats dim 0's first slice, so these inputs become degenerate: rank-deficient
# matrices (their decompositions are not unique; cholesky_ex's factor after a failure is
# LAPACK's garbage), ties of median (PyTorch 2.13 returns uninitialized values for an
# expanded input with keepdim) and std of equal values (PyTorch's Welford gives 0, our
# two-pass 1e-16: a numerics class), inv_ex's infinities and NaNs of a rank-1 matrix (MKL's
# substitution order past the first zero pivot; open). det, slogdet, solve_ex of the singular
# matrices are compared.
EXPAND_DEGENERATE = {"std_mean", "median_dim_keepdim", "la_cholesky_ex", "la_cond", "la_lu_tall",
                     "la_inv_ex",
                     "la_qr", "la_qr_complete_square", "la_qr_old", "la_qr_old_some_false",
                     "la_qr_wide", "la_svd", "la_svd_full", "la_svd_lowrank_S", "la_svd_old"}
LAYOUTS = ("contiguous", "transposed", "stepped", "expanded")


def _layout(a, layout):
    """(array of the base, the view of it that has a's values or None) for a layout."""
    if layout == "contiguous":
        return a, lambda b: b
    if layout == "transposed" and a.ndim >= 2:
        perm = tuple(reversed(range(a.ndim)))
        return np.ascontiguousarray(a.transpose(perm)), lambda b: b.permute(*perm)
    if layout == "stepped" and a.ndim >= 1:
        return np.repeat(a, 2, axis=-1), lambda b: b[..., ::2]
    if layout == "expanded" and a.ndim >= 1 and a.shape[0] >= 2:
        return np.ascontiguousarray(a[:1]), lambda b: b.expand(*a.shape)
    return None


def _layout_run(m, sample, layout, tangents, which):
    """The sample on its floating inputs as views (made inside the level) of duals, or
    None when no input has such a view."""
    fw = m.autograd.forward_ad
    with fw.dual_level():
        ins, viewed = [], False
        for i, a in enumerate(sample.args):
            a = np.asarray(a)
            lay = _layout(a.astype(np.float64), layout) if a.dtype.kind == "f" else None
            tv = tangents[i] if i in which else None
            if lay is None:
                x = m.tensor(a)
                ins.append(x if tv is None else fw.make_dual(x, m.tensor(tv)))
                continue
            viewed = True
            base, view = lay
            b = m.tensor(base)
            if tv is not None:
                b = fw.make_dual(b, m.tensor(_layout(tv, layout)[0]))
            ins.append(view(b))
        if not viewed:
            return None

        def call():
            out = sample(m, *ins)
            return [_unpack(m, o) if isinstance(o, m.Tensor) else (None, None)
                    for o in (out if isinstance(out, (tuple, list)) else [out])]
        return _catch(call)


_Z = np.array([[1.5, 0.0, -0.7], [2.0, -3.0, 0.4]])
_ZZ = np.array([[1.5, 0.0, -0.7], [0.0, -3.0, 0.4]])
# Formulas that flatten or view their input (prod_backward reads zeros' positions) and
# empty inputs: samples of this file's own
EXTRA = [Sample("prod_one_zero", lambda m, x: x.prod(), [_Z], kink=True),
         Sample("prod_two_zeros", lambda m, x: x.prod(), [_ZZ], kink=True),
         Sample("prod_dim_zero", lambda m, x: x.prod(1), [_ZZ], kink=True),
         Sample("prod_keepdim_zero", lambda m, x: x.prod(0, True), [_Z], kink=True),
         Sample("prod_dtype_zero", lambda m, x: x.prod(dtype=m.float32), [_Z], kink=True),
         Sample("cumprod_two_zeros", lambda m, x: x.cumprod(1), [_ZZ], kink=True),
         Sample("prod_empty", lambda m, x: x.prod(), [np.zeros((2, 0))]),
         Sample("prod_dim_empty", lambda m, x: x.prod(0), [np.zeros((2, 0))]),
         Sample("sum_empty", lambda m, x: x.sum(1), [np.zeros((0, 3))]),
         Sample("mul_empty", lambda m, x, y: x * y, [np.zeros((2, 0)), np.zeros((2, 0))])]
LAYOUT_SAMPLES = [s for s in SAMPLES + EXTRA if any(s.requires_grad()) and
                  s.name not in TORCH_INACCURATE]


@pytest.mark.parametrize("sample", LAYOUT_SAMPLES, ids=repr)
def test_forward_rules_on_noncontiguous_primals_and_tangents_as_torch(sample):
    rng = np.random.default_rng(sum(map(ord, sample.name)) + 17)
    tangents = [rng.standard_normal(np.shape(a)) if rg else None
                for a, rg in zip(sample.args, sample.requires_grad(), strict=True)]
    dual = [i for i, rg in enumerate(sample.requires_grad()) if rg]
    whiches = [tuple(dual)] + ([(i,) for i in dual] if len(dual) > 1 else [])
    for layout in LAYOUTS:
        if layout == "expanded" and sample.name in EXPAND_DEGENERATE:
            continue
        for which in whiches:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = _layout_run(torch, sample, layout, tangents, which)
                if want is None:
                    break
                got = _layout_run(autotensor, sample, layout, tangents, which)
            try:
                _close(got, want, 1e-10, signs=False)
            except AssertionError as e:
                raise AssertionError(f"{layout}, dual inputs {which}: {e}") from None


def test_prod_backward_of_a_transposed_input_with_a_zero_as_torch():
    """prod_backward's ``input.contiguous().view(-1)``: the graph of a double backward."""
    def scenario(m):
        x = m.tensor(np.array([[1.5, 0.0], [2.0, -3.0]])).t().requires_grad_()
        g, = m.autograd.grad(x.prod(), x, create_graph=True)
        gg, = m.autograd.grad(g.sum(), x)
        return g.detach().numpy().tolist(), type(g.grad_fn).__name__, gg.numpy().tolist()
    assert scenario(autotensor) == scenario(torch)


# (singular in every LAPACK's rounding, their pivots' reciprocals exact: tests/_cpu.py)
SINGULAR = {"zeros": np.zeros((2, 2)), "repeated_row": np.array([[1., 2., 4.], [1., 2., 4.],
                                                                 [-2., 0., 1.]]),
            "rank_one": np.outer([1., -2., 4.], [.5, 1., -1.]),
            "zero_row": np.array([[1., 2.], [0., 0.]]), "zero_column": np.array([[0., 1.],
                                                                                  [0., 3.]]),
            "signed_zeros": np.array([[-0., 0.], [1., 0.]]),
            "batch": np.stack([np.zeros((2, 2)), np.array([[1., 2.], [3., 4.]]),
                               np.array([[1., 2.], [2., 4.]])])}


@pytest.mark.parametrize("name", sorted(SINGULAR))
def test_singular_matrix_tangents_and_solutions_as_torch(name):
    """linalg_det_jvp solves with the LU whose zero pivots are eps (a value, not the
    solver's error); slogdet_jvp and solve_ex's jvp with the LU as it is (getrs's
    infinities); solve_ex and inv_ex solve each matrix of a batch (the invertible exactly)."""
    a = SINGULAR[name]
    t = np.random.default_rng(len(name)).standard_normal(a.shape)

    def scenario(m):
        fw = m.autograd.forward_ad
        b = m.ones(a.shape[:-1] + (2,), dtype=m.float64)
        out = [[v.numpy() for v in m.linalg.solve_ex(m.tensor(a), b, left=True)],
               [v.numpy() for v in m.linalg.inv_ex(m.tensor(a))]]
        with fw.dual_level():
            x = fw.make_dual(m.tensor(a), m.tensor(t))
            for f in (m.linalg.det, lambda x: m.linalg.slogdet(x)[1],
                      lambda x: m.linalg.solve_ex(x, b)[0], lambda x: m.linalg.solve(x, b)):
                out.append(_catch(lambda f=f: [_unpack(m, f(x))]))
        return out
    got, want = scenario(autotensor), scenario(torch)
    for g, w in zip(got[:2], want[:2], strict=True):
        for u, v in zip(g, w, strict=True):
            np.testing.assert_allclose(u, v, rtol=1e-12, atol=1e-12)
    for g, w in zip(got[2:], want[2:], strict=True):
        _close(g, w, 1e-12)


# ---- ops without a forward rule refuse a dual before their kernels' checks ---------------
def _no_rule_cases(m):
    F = m.nn.functional
    t = m.tensor
    return {
        "conv_tbc transposed input": lambda d: m.conv_tbc(  # (no (T * B, C) view of it)
            t(np.ones((3, 2, 4))).permute(2, 1, 0), d(np.ones((2, 3, 5))), t(np.ones(5)), 1),
        "conv_tbc 2-d input": lambda d: m.conv_tbc(d(np.ones((3, 4))), t(np.ones((2, 4, 5))),
                                                   t(np.ones(5)), 1),
        "conv_tbc channels": lambda d: m.conv_tbc(t(np.ones((3, 2, 4))), d(np.ones((2, 3, 5))),
                                                  t(np.ones(5)), 0),
        "conv_tbc bias": lambda d: m.conv_tbc(t(np.ones((3, 2, 4))), t(np.ones((2, 4, 5))),
                                              d(np.ones(4)), 0),
        "grid_sample dtype": lambda d: F.grid_sample(d(np.ones((1, 1, 3, 3))), t(
            np.zeros((1, 2, 2, 2), np.float32)), align_corners=False),
        "grid_sample batch": lambda d: F.grid_sample(d(np.ones((2, 1, 3, 3))), t(
            np.zeros((1, 2, 2, 2))), align_corners=False),
        "grid_sample last dim": lambda d: F.grid_sample(t(np.ones((1, 1, 3, 3))), d(
            np.zeros((1, 2, 2, 3))), align_corners=False),
        "grid_sample 3-d": lambda d: F.grid_sample(d(np.ones((1, 3, 3))), t(
            np.zeros((1, 2, 2))), align_corners=False),
        "grid_sample bicubic 5-d": lambda d: F.grid_sample(d(np.ones((1, 1, 2, 2, 2))), t(
            np.zeros((1, 1, 1, 1, 3))), mode="bicubic", align_corners=False),
        "multi_margin target": lambda d: F.multi_margin_loss(d(np.ones((2, 3))), t([0, 5])),
        "multi_margin p": lambda d: F.multi_margin_loss(d(np.ones((2, 3))), t([0, 1]), p=3),
        "multilabel_margin target": lambda d: F.multilabel_margin_loss(
            d(np.ones((2, 3))), t([[0, 5, -1], [1, -1, 0]])),
        "multilabel_margin shape": lambda d: F.multilabel_margin_loss(
            d(np.ones((2, 3))), t([[0, 1], [1, -1]])),
        "embedding_bag index": lambda d: F.embedding_bag(t([0, 9]), d(np.ones((3, 2))), t([0])),
        "embedding_bag weights mode": lambda d: F.embedding_bag(
            t([0, 1]), t(np.ones((3, 2))), t([0]), mode="mean",
            per_sample_weights=d(np.ones(2))),
        "ctc_loss lengths": lambda d: F.ctc_loss(
            d(np.zeros((5, 2, 4))), t([[1, 2], [1, 3]]), t([5, 5, 5]), t([2, 2])),
        "ctc_loss target": lambda d: F.ctc_loss(
            d(np.zeros((5, 2, 4))), t([[1, 2], [1, 9]]), t([5, 6]), t([2, 2])),
        "pack_padded unsorted": lambda d: m.nn.utils.rnn.pack_padded_sequence(
            d(np.ones((3, 2, 1))), t([2, 3])),
        "pack_padded zero and unsorted": lambda d: m.nn.utils.rnn.pack_padded_sequence(
            d(np.ones((3, 3, 1))), t([2, 3, 0])),
        "cholesky not square": lambda d: m.cholesky(d(np.ones((2, 3)))),
        "cholesky not positive": lambda d: m.cholesky(d(-np.eye(2))),
    }


@pytest.mark.parametrize("name", sorted(_no_rule_cases(autotensor)))
@pytest.mark.parametrize("dual", [True, False], ids=["dual", "plain"])
def test_ops_without_a_forward_rule_refuse_duals_first_as_torch(name, dual):
    """Note [Ops without a forward rule] in _ops/nn_ops.py; without a dual, the kernels'
    own checks (multilabel_margin_loss's target, embedding_bag's index, pack_padded's
    length checks in aten's order)."""
    def scenario(m):
        fw = m.autograd.forward_ad
        cases = _no_rule_cases(m)

        def d(a):
            x = m.tensor(a)
            return fw.make_dual(x, m.tensor(np.ones_like(a))) if dual else x
        with fw.dual_level(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                cases[name](d)
                return "ok"
            except Exception as e:  # noqa: BLE001
                return type(e).__name__, str(e)
    assert scenario(autotensor) == scenario(torch)


# ---- empty inputs: dim 0 of every floating input of ndim >= 1 made 0 ----------------------
# (lstsq, matrix_norm(inf, dims) and cond, which raised on these empty inputs where PyTorch
# computes, were left out here at stop 26; fixed at stop 27, helper la27.)
EMPTY_OPEN = set()


def _empty_run(m, sample, tangents):
    fw = m.autograd.forward_ad
    with fw.dual_level():
        ins = []
        for i, (a, rg) in enumerate(zip(sample.args, sample.requires_grad(), strict=True)):
            a = np.asarray(a)
            if a.dtype.kind == "f" and a.ndim:
                a = a[:0]
            x = m.tensor(a)
            if rg:
                x = fw.make_dual(x, m.tensor(tangents[i][:0] if a.ndim else tangents[i]))
            ins.append(x)

        def call():
            out = sample(m, *ins)
            return [_unpack(m, o) if isinstance(o, m.Tensor) else (None, None)
                    for o in (out if isinstance(out, (tuple, list)) else [out])]
        return _catch(call)


EMPTY_SAMPLES = [s for s in LAYOUT_SAMPLES if s.name not in EMPTY_OPEN and any(
    np.asarray(a).dtype.kind == "f" and np.ndim(a) for a in s.args)]


@pytest.mark.parametrize("sample", EMPTY_SAMPLES, ids=repr)
def test_forward_rules_on_empty_inputs_as_torch(sample):
    """Where PyTorch computes on the empty inputs: tangents (var_mean's / std_mean's mean
    tangent is mean(self_t): NaN; squeeze_'s of a dim not of size 1), and the ops' own
    empty-input behaviour (aminmax over a non-empty dim of an empty tensor, unsafe_chunk of
    an empty dim, pooling, group_norm and its backward, pixel_unshuffle's clone)."""
    rng = np.random.default_rng(sum(map(ord, sample.name)))
    tangents = [rng.standard_normal(np.shape(a)) for a in sample.args]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _empty_run(torch, sample, tangents)
        got = _empty_run(autotensor, sample, tangents)
    if want and isinstance(want[0][0], str):
        return  # (the sweep covers what PyTorch computes; its empty-input errors are others')
    _close(got, want, 1e-10, signs=False)
