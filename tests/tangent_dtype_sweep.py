"""Forward-mode sweep of tangents whose dtype differs from their primal's (stop 36, helper
mix36): every op_db sample (and the extra cases below) with its floating inputs made duals
of a (primal dtype, tangent dtype) pair, under grad mode and no_grad, on autotensor and on
PyTorch. Compares, per output, the tangent's presence and dtype, its values (bit for bit;
a difference is reported with its size in the tangent dtype's ulps), and errors (type and
message). Also the ways mixed tangents arise in programs: binary ops between duals of
different dtypes, ``.to`` of a dual, in-place ops, Python scalars. Prints one line per
differing (case, pair, mode) and a summary.

    PYTHONPATH=. python -m tests.tangent_dtype_sweep [--ops lerp,la_det] [--pairs f16:f32]
        [--first-only] [--complex] [-v]

Not collected by pytest (tests/test_fuzz_mix_stop36.py holds the regression tests).
"""
import argparse
import math
import os
import re
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

import autotensor  # noqa: E402
import torch  # noqa: E402

import op_db  # noqa: E402

_SHORT = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
          "c64": "complex64", "c128": "complex128"}
_REAL = ("float16", "bfloat16", "float32", "float64")
PAIRS = [(p, t) for p in _REAL for t in _REAL if p != t]
COMPLEX_PAIRS = [("float32", "complex64"), ("float64", "complex64"),
                 ("complex64", "complex128"), ("complex128", "complex64")]
_EPS = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float32": 2.0 ** -23,
        "float64": 2.0 ** -52, "complex64": 2.0 ** -23, "complex128": 2.0 ** -52}


def _tangent_values(shape, seed):
    """Small dyadic values (exact in every float dtype), so the tangents of a pair differ
    only by dtype and not by the input's rounding."""
    r = np.random.default_rng(seed)
    return r.integers(-16, 17, shape).astype(np.float64) / 8.0


def _dual(m, a, primal, tangent, seed, rg, grad):
    fa = m.autograd.forward_ad
    a = np.asarray(a)
    x = m.tensor(a).to(getattr(m, primal))
    if rg and grad:
        x.requires_grad_()
    if tangent is None:
        return x
    t = m.tensor(_tangent_values(a.shape, seed)).to(getattr(m, tangent))
    return fa.make_dual(x, t)


def _flat(y):
    if isinstance(y, (tuple, list)):
        for v in y:
            yield from _flat(v)
    elif hasattr(y, "shape") and hasattr(y, "dtype"):
        yield y


def _outcome(m, fn):
    """("error", type, message) or ("ok", [(tangent dtype, float64/complex128 values)])."""
    fa = m.autograd.forward_ad
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = fn()
        out = []
        for v in _flat(y):
            t = fa.unpack_dual(v).tangent
            if t is None:
                out.append((None, None))
                continue
            dt = str(t.dtype).split(".")[-1]
            t = t.detach()
            vals = t.to(m.complex128) if t.is_complex() else t.to(m.float64)
            out.append((dt, vals.numpy().copy()))
        return ("ok", out)
    except Exception as e:  # (the type and message are what is compared)
        return ("error", type(e).__name__, str(e).split("\n")[0])


def _compare(got, want):
    """None when equal, else a short description (ulps: the largest difference in units of
    the tangent dtype's eps times the value's magnitude)."""
    if got[0] != want[0] or got[0] == "error":
        if got == want:
            return None
        return f"outcome ours={got[1:] if got[0] == 'error' else 'ok'} " \
               f"torch={want[1:] if want[0] == 'error' else 'ok'}"
    if len(got[1]) != len(want[1]):
        return f"outputs {len(got[1])} != {len(want[1])}"
    for i, ((gd, gv), (wd, wv)) in enumerate(zip(got[1], want[1])):
        if gd != wd:
            return f"out{i} tangent dtype ours={gd} torch={wd}"
        if gd is None:
            continue
        if gv.shape != wv.shape:
            return f"out{i} shape {gv.shape} != {wv.shape}"
        same = (gv == wv) | (np.isnan(gv) & np.isnan(wv))
        if gv.dtype.kind == "f":
            same &= np.signbit(gv) == np.signbit(wv)
        if not same.all():
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                scale = np.maximum(np.abs(wv), np.finfo(np.float64).tiny)
                ulp = np.abs(gv - wv) / (scale * _EPS[gd])
                ulp = float(np.nanmax(np.where(same, 0, ulp))) if ulp.size else 0.0
            return f"out{i} values ({int((~same).sum())} of {same.size}; " \
                   f"{'inf' if math.isinf(ulp) or math.isnan(ulp) else f'{ulp:.3g}'} ulp)"
    return None


def _sample_case(s, first_only):
    def case(m, primal, tangent, grad):
        ins = []
        floats = [i for i, a in enumerate(s.args) if np.asarray(a).dtype.kind == "f"]
        duals = floats[:1] if first_only else floats
        for i, (a, rg) in enumerate(zip(s.args, s.requires_grad())):
            a = np.asarray(a)
            if a.dtype.kind != "f":
                ins.append(m.tensor(a))
                continue
            x = _dual(m, a, primal, tangent if i in duals else None, 17 + i, rg, grad)
            if i in s.noncontig:
                x = x.t() if x.ndim == 2 else x
            ins.append(x)
        return s(m, *ins)
    return case


def _u(shape, seed):
    return np.random.default_rng(seed).uniform(0.2, 0.9, shape)


def _extra():
    """Cases op_db lacks: the ops left open by stop 35, and programs that mix tangents."""
    cases = {}

    def one(name, shape=(2, 3), seed=1):
        def deco(f):
            def case(m, primal, tangent, grad):
                return f(m, _dual(m, _u(shape, seed), primal, tangent, 5, True, grad))
            cases[name] = case
            return f
        return deco

    def two(name, shapes=((2, 3), (2, 3)), other="tangent"):
        """Binary programs: x (primal, tangent) with y of another dtype; ``other`` says
        which: "tangent" (y's primal of the pair's tangent dtype, with a tangent of the
        pair's primal dtype), "plain" (y of the tangent dtype, no tangent)."""
        def deco(f):
            def case(m, primal, tangent, grad):
                x = _dual(m, _u(shapes[0], 3), primal, tangent, 5, True, grad)
                if other == "tangent":
                    y = _dual(m, _u(shapes[1], 4), tangent, primal, 6, True, grad)
                else:
                    y = _dual(m, _u(shapes[1], 4), tangent, None, 6, True, grad)
                return f(m, x, y)
            cases[name] = case
            return f
        return deco

    F = lambda m: m.nn.functional  # noqa: E731
    one("angle")(lambda m, x: m.angle(x - 0.5))
    one("nanmean")(lambda m, x: m.nanmean(x))
    one("nanmean_dim")(lambda m, x: m.nanmean(x, 1))
    one("det", (3, 3))(lambda m, x: m.linalg.det(x))
    one("det_batched", (2, 2, 2))(lambda m, x: x.det())
    one("logdet", (3, 3))(lambda m, x: m.logdet(x + 3 * m.eye(3, dtype=x.dtype)))
    one("slogdet", (3, 3))(lambda m, x: m.linalg.slogdet(x))
    one("lerp_scalar")(lambda m, x: m.lerp(x, x * 2, 0.3))
    two("lerp_duals")(lambda m, x, y: m.lerp(x, y, 0.3))
    two("lerp_plain", other="plain")(lambda m, x, y: m.lerp(x, y, 0.3))
    two("lerp_tensor_weight_plain", other="plain")(lambda m, x, y: m.lerp(x, x * 2, y))
    two("conv1d_weight_plain", ((1, 2, 5), (3, 2, 2)), other="plain")(
        lambda m, x, w: F(m).conv1d(x, w))
    two("conv1d_duals", ((1, 2, 5), (3, 2, 2)))(lambda m, x, w: F(m).conv1d(x, w))
    one("conv1d_self_weight", (1, 2, 3))(lambda m, x: F(m).conv1d(x, x[:1]))
    one("bce")(lambda m, x: F(m).binary_cross_entropy(x, x * 0 + 0.5))
    two("bce_target_plain", other="plain")(lambda m, x, y: F(m).binary_cross_entropy(x, y))
    two("bce_duals")(lambda m, x, y: F(m).binary_cross_entropy(x, y))
    for k in ("max", "avg"):
        for d, shape in ((1, (1, 2, 6)), (2, (1, 2, 4, 4)), (3, (1, 1, 4, 4, 2))):
            one(f"{k}_pool{d}d", shape)(
                lambda m, x, k=k, d=d: getattr(F(m), f"{k}_pool{d}d")(x, 2))
            one(f"adaptive_{k}_pool{d}d", shape)(
                lambda m, x, k=k, d=d: getattr(F(m), f"adaptive_{k}_pool{d}d")(x, 1))
    one("lp_pool1d", (1, 2, 6))(lambda m, x: F(m).lp_pool1d(x, 2, 2))
    one("max_pool2d_indices", (1, 2, 4, 4))(
        lambda m, x: F(m).max_pool2d(x, 2, return_indices=True))
    for mode, shape in (("nearest", (1, 2, 3)), ("linear", (1, 2, 3)),
                        ("bilinear", (1, 1, 3, 3)), ("bicubic", (1, 1, 3, 3)),
                        ("trilinear", (1, 1, 2, 2, 2)), ("nearest-exact", (1, 2, 3)),
                        ("area", (1, 2, 4))):
        one(f"interpolate_{mode}", shape)(
            lambda m, x, mode=mode: F(m).interpolate(x, scale_factor=2, mode=mode))
    one("upsample_bilinear_ac", (1, 1, 3, 3))(
        lambda m, x: F(m).interpolate(x, size=(4, 5), mode="bilinear", align_corners=True))
    one("dist")(lambda m, x: m.dist(x, x.flip(0)))
    two("dist_plain", other="plain")(lambda m, x, y: m.dist(x, y))
    one("dist_p1")(lambda m, x: m.dist(x, x.flip(1), 1))
    one("dist_pinf")(lambda m, x: m.dist(x, x.flip(1), float("inf")))
    one("norm")(lambda m, x: x.norm())
    # programs that produce mixed tangents
    for op in ("add", "sub", "mul", "div", "pow", "atan2", "maximum", "hypot", "fmod",
               "copysign", "xlogy"):
        two(f"{op}_duals")(lambda m, x, y, op=op: getattr(m, op)(x, y))
        two(f"{op}_plain", other="plain")(lambda m, x, y, op=op: getattr(m, op)(x, y))
    two("where_duals")(lambda m, x, y: m.where(x > 0.5, x, y))
    two("matmul_duals", ((2, 3), (3, 2)))(lambda m, x, y: x @ y.to(x.dtype))
    two("add_alpha_duals")(lambda m, x, y: m.add(x, y, alpha=2))
    two("cat_duals")(lambda m, x, y: m.cat([x, y]))
    two("stack_duals")(lambda m, x, y: m.stack([x, y]))
    for name, f in (("to_float64", lambda m, x: x.to(m.float64)),
                    ("to_float16", lambda m, x: x.to(m.float16)),
                    ("to_bfloat16", lambda m, x: x.to(m.bfloat16)),
                    ("double", lambda m, x: x.double()),
                    ("float", lambda m, x: x.float()),
                    ("half", lambda m, x: x.half()),
                    ("type_as", lambda m, x: x.type_as(m.zeros(1, dtype=m.float64))),
                    ("to_complex64", lambda m, x: x.to(m.complex64)),
                    ("mul_py_float", lambda m, x: x * 2.5),
                    ("add_py_int", lambda m, x: x + 3),
                    ("mul_py_complex", lambda m, x: x * 1j),
                    ("rsub_py", lambda m, x: 1.5 - x),
                    ("rdiv_py", lambda m, x: 1.5 / x),
                    ("pow_py", lambda m, x: x ** 2.5),
                    ("rpow_py", lambda m, x: 2.5 ** x),
                    ("sum", lambda m, x: x.sum()),
                    ("sum_float64", lambda m, x: x.sum(dtype=m.float64)),
                    ("mean", lambda m, x: x.mean()),
                    ("cumsum", lambda m, x: x.cumsum(0)),
                    ("softmax", lambda m, x: x.softmax(0)),
                    ("log_softmax", lambda m, x: x.log_softmax(1)),
                    ("exp_", lambda m, x: (x * 1).exp_()),
                    ("clone", lambda m, x: x.clone()),
                    ("view", lambda m, x: x.view(3, 2)),
                    ("t", lambda m, x: x.t()),
                    ("contiguous_t", lambda m, x: x.t().contiguous()),
                    ("index", lambda m, x: x[0, 1:]),
                    ("var", lambda m, x: x.var()),
                    ("std", lambda m, x: x.std(1)),
                    ("prod", lambda m, x: x.prod()),
                    ("amax", lambda m, x: x.amax(1)),
                    ("sort", lambda m, x: x.sort(1)),
                    ("topk", lambda m, x: x.topk(2)),
                    ("abs", lambda m, x: (x - 0.5).abs()),
                    ("sgn", lambda m, x: (x - 0.5).sgn()),
                    ("clamp", lambda m, x: x.clamp(0.3, 0.6)),
                    ("clamp_t", lambda m, x: x.clamp(m.tensor(0.3), m.tensor(0.6))),
                    ("sigmoid", lambda m, x: x.sigmoid()),
                    ("tanh", lambda m, x: x.tanh()),
                    ("exp", lambda m, x: x.exp()),
                    ("linear", lambda m, x: F(m).linear(x, x)),
                    ("layer_norm", lambda m, x: F(m).layer_norm(x, (3,))),
                    ("mse_loss", lambda m, x: F(m).mse_loss(x, x.flip(0))),
                    ("real", lambda m, x: m.view_as_real(x.to(m.complex64)))):
        one(name)(f)
    # in-place writes of another dtype's tangent
    for name, f in (("add_", lambda m, x, y: x.clone().add_(y)),
                    ("mul_", lambda m, x, y: x.clone().mul_(y)),
                    ("div_", lambda m, x, y: x.clone().div_(y)),
                    ("sub_alpha_", lambda m, x, y: x.clone().sub_(y, alpha=2)),
                    ("copy_", lambda m, x, y: x.clone().copy_(y)),
                    ("lerp_", lambda m, x, y: x.clone().lerp_(y.to(x.dtype), 0.4)),
                    ("addcmul_", lambda m, x, y: x.clone().addcmul_(y, y)),
                    ("setitem", lambda m, x, y: _setitem(x.clone(), 0, y[1])),
                    ("index_copy_", lambda m, x, y: x.clone().index_copy_(
                        0, m.tensor([1]), y[:1].to(x.dtype))),
                    ("masked_scatter_", lambda m, x, y: x.clone().masked_scatter_(
                        x > 0.5, y.to(x.dtype))),
                    ("where_self", lambda m, x, y: x.clone().where(x > 0.5, y))):
        two(f"{name}_duals")(f)
        two(f"{name}_plain", other="plain")(f)
    for name, f in (("add_(plain x)", lambda m, x, y: y.detach().clone().add_(x)),
                    ("mul_(plain x)", lambda m, x, y: y.detach().clone().mul_(x)),
                    ("copy_(plain x)", lambda m, x, y: y.detach().clone().copy_(x))):
        two(name)(f)
    return cases


def _setitem(x, i, v):
    x[i] = v
    return x


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default="")
    ap.add_argument("--pairs", default="")
    ap.add_argument("--first-only", action="store_true",
                    help="only the first floating input is a dual (zero terms)")
    ap.add_argument("--complex", action="store_true", help="add complex tangent pairs")
    ap.add_argument("--no-samples", action="store_true", help="only the extra cases")
    ap.add_argument("-v", action="store_true", help="print the differences' details")
    a = ap.parse_args(argv)
    pairs = PAIRS + (COMPLEX_PAIRS if a.complex else [])
    if a.pairs:
        pairs = [tuple(_SHORT[d] for d in p.split(":")) for p in a.pairs.split(",")]
    cases = {} if a.no_samples else {s.name: _sample_case(s, a.first_only)
                                     for s in op_db.SAMPLES}
    cases.update({"x:" + k: v for k, v in _extra().items()})
    if a.ops:
        want = set(a.ops.split(","))
        cases = {k: v for k, v in cases.items() if k in want or k[2:] in want}
    n = differ = inherited = 0
    ops_differ = set()
    for name, case in cases.items():
        for primal, tangent in pairs:
            for grad in (True, False):
                n += 1
                d = _run(case, primal, tangent, grad)
                if d is None:
                    continue
                # a difference same-dtype tangents show too (either dtype's) is the op's
                # own (its values' rounding, a half dtype's support), not the mixing's
                if primal != tangent and _inherited(d, (_run(case, primal, primal, grad),
                                                        _run(case, tangent, tangent, grad))):
                    inherited += 1
                    if a.v:
                        print(f"[as same-dtype] {name} {primal}:{tangent} "
                              f"{'grad' if grad else 'no_grad'}: {d}")
                    continue
                differ += 1
                ops_differ.add(name)
                print(f"{name} {primal}:{tangent} {'grad' if grad else 'no_grad'}: {d}")
                sys.stdout.flush()
    print(f"{n} cases ({len(cases)} ops x {len(pairs)} pairs x grad mode), {differ} differ "
          f"in {len(ops_differ)} ops (and {inherited} as same-dtype tangents do): "
          f"{' '.join(sorted(ops_differ))}")


def _ulps(d):
    m = re.search(r"; (\S+) ulp", d)
    return float(m.group(1)) if m else None


def _inherited(d, base):
    """Whether the mixed pair's difference ``d`` is one a same-dtype pair shows too: the
    same kind, and for values no more than 4x its ulps."""
    for b in base:
        if b is not None and b.split(" (")[0] == d.split(" (")[0]:
            u, v = _ulps(d), _ulps(b)
            if u is None or v is None or u <= 4 * v:
                return True
    return False


def _run(case, primal, tangent, grad):
    outs = []
    for m in (autotensor, torch):
        g = m.enable_grad() if grad else m.no_grad()
        fa = m.autograd.forward_ad
        with g, fa.dual_level():
            outs.append(_outcome(m, lambda: case(m, primal, tangent, grad)))
    return _compare(*outs)


if __name__ == "__main__":
    main()
