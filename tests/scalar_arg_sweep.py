"""Ops given Python scalar arguments against PyTorch (stop 35, helper err35).

    PYTHONPATH=. python tests/scalar_arg_sweep.py [OP_SUBSTRING ...]   # mismatches per op
    PYTHONPATH=. python tests/scalar_arg_sweep.py -v add.alpha          # and each mismatch

Each case is an expression over ``x`` (a tensor of the dtype, fresh for each case), ``y``
(another), ``s``/``s2`` (Python scalars), ``mask``, ``idx``, ``m`` (the module) and ``F``;
both libraries' results are compared as (exception type, the message's first 80 characters)
or (dtype, shape, values bit for bit with NaNs as one NaN, wrapped integers included)."""

import collections
import math
import sys
import warnings

import numpy as np

import autotensor
import torch

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64", "complex64"]
INTS = [0, 1, -1, 2, 3, 300, -300, 2**31, 2**63, 2**64, -2**63 - 1]
FLOATS = [0.0, -0.0, 0.5, -2.5, 3.0, 1e10, 1e300, math.inf, -math.inf, math.nan]
SCALARS = INTS + FLOATS + [True, False, 1 + 2j, 0j]
SMALL = [0, -1, 300, 2.5, math.inf, math.nan, True, 1j]  # (second scalars)
DATA = [0.0, 1.0, 2.0, -3.0, 7.0, 100.0, -100.0, 127.0]

# (name, expression, second scalars or None)
OPS = [
    ("add", "m.add(x, s)", None), ("add_", "x.add_(s)", None),
    ("add.alpha", "m.add(x, y, alpha=s)", None), ("add_.alpha", "x.add_(y, alpha=s)", None),
    ("add.s_alpha", "m.add(x, s, alpha=s2)", SMALL), ("add.out", "m.add(x, s, out=y)", None),
    ("sub", "m.sub(x, s)", None), ("sub_", "x.sub_(s)", None),
    ("sub.alpha", "m.sub(x, y, alpha=s)", None), ("sub_.alpha", "x.sub_(y, alpha=s)", None),
    ("rsub", "m.rsub(x, s)", None), ("rsub.alpha", "m.rsub(x, y, alpha=s)", None),
    ("__rsub__", "s - x", None), ("__radd__", "s + x", None),
    ("mul", "m.mul(x, s)", None), ("mul_", "x.mul_(s)", None), ("__rmul__", "s * x", None),
    ("mul.out", "m.mul(x, s, out=y)", None),
    ("div", "m.div(x, s)", None), ("div_", "x.div_(s)", None),
    ("div.trunc", "m.div(x, s, rounding_mode='trunc')", None),
    ("div.floor", "m.div(x, s, rounding_mode='floor')", None),
    ("div_.trunc", "x.div_(s, rounding_mode='trunc')", None),
    ("__rtruediv__", "s / x", None), ("true_divide", "m.true_divide(x, s)", None),
    ("floor_divide", "m.floor_divide(x, s)", None), ("floor_divide_", "x.floor_divide_(s)", None),
    ("__rfloordiv__", "s // x", None),
    ("remainder", "m.remainder(x, s)", None), ("remainder_", "x.remainder_(s)", None),
    ("remainder.s", "m.remainder(s, x)", None), ("__rmod__", "s % x", None),
    ("fmod", "m.fmod(x, s)", None), ("fmod_", "x.fmod_(s)", None),
    ("pow", "m.pow(x, s)", None), ("pow_", "x.pow_(s)", None), ("pow.s", "m.pow(s, x)", None),
    ("__rpow__", "s ** x", None), ("float_power", "m.float_power(x, s)", None),
    ("bitwise_and", "m.bitwise_and(x, s)", None), ("bitwise_or", "m.bitwise_or(x, s)", None),
    ("bitwise_xor", "m.bitwise_xor(x, s)", None), ("bitwise_and_", "x.bitwise_and_(s)", None),
    ("__rand__", "s & x", None), ("__ror__", "s | x", None), ("__rxor__", "s ^ x", None),
    ("lshift", "x << s", None), ("rshift", "x >> s", None), ("__rlshift__", "s << x", None),
    ("__rrshift__", "s >> x", None), ("__ilshift__", "x.__ilshift__(s)", None),
    ("bitwise_left_shift", "m.bitwise_left_shift(x, s)", None),
    ("bitwise_right_shift", "m.bitwise_right_shift(x, s)", None),
    ("eq", "m.eq(x, s)", None), ("ne", "x != s", None), ("lt", "m.lt(x, s)", None),
    ("le", "x <= s", None), ("gt", "m.gt(x, s)", None), ("ge", "x >= s", None),
    ("eq_", "x.eq_(s)", None), ("lt_", "x.lt_(s)", None),
    ("clamp.min", "m.clamp(x, min=s)", None), ("clamp.max", "m.clamp(x, max=s)", None),
    ("clamp.both", "m.clamp(x, s, s2)", SMALL), ("clamp_", "x.clamp_(s)", None),
    ("clamp_min", "m.clamp_min(x, s)", None), ("clamp_max", "m.clamp_max(x, s)", None),
    ("clamp_max_", "x.clamp_max_(s)", None),
    ("fill_", "x.fill_(s)", None), ("masked_fill", "x.masked_fill(mask, s)", None),
    ("masked_fill_", "x.masked_fill_(mask, s)", None),
    ("index_fill", "x.index_fill(0, idx, s)", None),
    ("index_fill_", "x.index_fill_(0, idx, s)", None),
    ("full", "m.full((3,), s, dtype=x.dtype)", None), ("full.infer", "m.full((2,), s)", None),
    ("full_like", "m.full_like(x, s)", None), ("new_full", "x.new_full((3,), s)", None),
    ("lerp", "m.lerp(x, y, s)", None), ("lerp_", "x.lerp_(y, s)", None),
    ("where.other", "m.where(mask, x, s)", None), ("where.self", "m.where(mask, s, x)", None),
    ("where.both", "m.where(mask, s, s2)", SMALL),
    ("threshold", "F.threshold(x, s, 5)", None), ("threshold.v", "F.threshold(x, 1, s)", None),
    ("threshold_", "F.threshold_(x, s, 5)", None),
    ("hardtanh", "F.hardtanh(x, s, s2)", SMALL), ("hardtanh_", "F.hardtanh_(x, -1, s)", None),
    ("leaky_relu", "F.leaky_relu(x, s)", None), ("leaky_relu_", "F.leaky_relu_(x, s)", None),
    ("elu", "F.elu(x, alpha=s)", None), ("elu_", "F.elu_(x, alpha=s)", None),
    ("addmm", "m.addmm(x.reshape(2, 4)[:, :2], x.reshape(2, 4)[:, 2:], y.reshape(4, 2)[:2],"
     " beta=s, alpha=s2)", SMALL + [1, 0]),
    ("addmv", "m.addmv(x[:2], x.reshape(2, 4), y[:4], beta=s, alpha=s2)", SMALL + [1, 0]),
    ("baddbmm", "m.baddbmm(x.reshape(2, 2, 2), x.reshape(2, 2, 2), y.reshape(2, 2, 2),"
     " beta=s, alpha=s2)", SMALL + [1, 0]),
    ("addbmm", "m.addbmm(x.reshape(2, 2, 2)[0], x.reshape(2, 2, 2), y.reshape(2, 2, 2),"
     " beta=s, alpha=s2)", SMALL + [1, 0]),
    ("addr", "m.addr(x.reshape(2, 4)[:, :2], x[:2], y[:2], beta=s, alpha=s2)", SMALL + [1, 0]),
    ("addmm_", "x.reshape(2, 4)[:, :2].addmm_(x.reshape(2, 4)[:, 2:], y.reshape(4, 2)[:2],"
     " beta=s)", None),
    ("heaviside", "m.heaviside(x, s)", None),
    ("heaviside.t", "m.heaviside(x, m.tensor(s))", None),
    ("sub.out", "m.sub(x, s, out=y)", None), ("div.out", "m.div(x, s, out=y)", None),
    ("clamp.out", "m.clamp(x, s, out=y)", None), ("pow.out", "m.pow(x, s, out=y)", None),
    ("softplus", "F.softplus(x, s)", None), ("softplus.t", "F.softplus(x, 1, s)", None),
    ("hardshrink", "F.hardshrink(x, s)", None), ("softshrink", "F.softshrink(x, s)", None),
    ("celu", "F.celu(x, s)", None), ("rrelu", "F.rrelu(x, s, 1e30)", None),
    ("nan_to_num", "m.nan_to_num(x, nan=s)", None),
    ("nan_to_num.pinf", "m.nan_to_num(x, posinf=s)", None),
    ("fill_diagonal_", "x.reshape(2, 4).fill_diagonal_(s)", None),
    ("logit", "m.logit(x, s)", None), ("xlogy", "m.xlogy(x, s)", None),
    ("xlogy.s", "m.xlogy(s, x)", None), ("atan2", "m.atan2(x, s)", None),
    ("maximum.s", "m.maximum(x, s)", None), ("fmax", "m.fmax(x, s)", None),
    ("copysign", "m.copysign(x, s)", None), ("hypot", "m.hypot(x, s)", None),
    ("logical_and", "m.logical_and(x, s)", None), ("isclose", "m.isclose(x, s)", None),
    ("masked_fill.t", "x.masked_fill(mask, m.tensor(s))", None),
    ("index_put_", "x.index_put_((idx,), m.tensor(s))", None),
    ("setitem", "x.__setitem__(idx, s) or x", None),
    ("setitem.mask", "x.__setitem__(mask, s) or x", None),
    ("add.outf", "m.add(x, s, out=y.double())", None),
    ("add.outl", "m.add(x, s, out=y.long())", None),
    ("mul.outb", "m.mul(x, s, out=y.bool())", None),
    ("div.outl", "m.div(x, s, out=y.long())", None), ("eq.out", "m.eq(x, s, out=y)", None),
    ("bitwise_and.out", "m.bitwise_and(x, s, out=y)", None),
    ("remainder.out", "m.remainder(x, s, out=y)", None),
    ("fmod.out", "m.fmod(x, s, out=y)", None),
    ("floor_divide.out", "m.floor_divide(x, s, out=y)", None),
    ("lerp.out", "m.lerp(x, y, s, out=y.clone())", None),
    ("where.out", "m.where(mask, x, s, out=y)", None), ("ge_", "x.ge_(s)", None),
    ("bitwise_or_", "x.bitwise_or_(s)", None), ("bitwise_xor.s", "m.bitwise_xor(s, x)", None),
    ("fill_.t", "x.fill_(m.tensor(s))", None), ("full.int8", "m.full((2,), s, dtype=m.int8)", None),
    ("relu6", "F.relu6(x)", None), ("sub.s", "m.sub(s, x)", None), ("mul.s", "m.mul(s, x)", None),
    ("addcmul.t", "m.addcmul(x, x, y, value=m.tensor(s))", None),
    ("clamp.t", "m.clamp(x, m.tensor(s))", None),
    ("addcmul", "m.addcmul(x, x, y, value=s)", None),
    ("addcmul_", "x.addcmul_(x, y, value=s)", None),
    ("addcdiv", "m.addcdiv(x, x, y, value=s)", None),
    ("addcdiv_", "x.addcdiv_(x, y, value=s)", None),
    ("addcdiv.f", "m.addcdiv(x.double(), x.double(), y, value=s)", None),
    ("addcdiv.u8", "m.addcdiv(x, x, y.to(m.uint8), value=s)", None),
    ("addcmul.u8", "m.addcmul(x, x, y.to(m.uint8), value=s)", None),
]


def make(m, dtype):
    dt = getattr(m, dtype)
    a = np.array(DATA)
    if dtype == "bool":
        x = m.tensor(a != 0)
    elif dtype in ("bfloat16", "float16", "float32", "float64", "complex64"):
        x = m.tensor(a).to(dt)
    else:
        x = m.tensor(a.astype(np.int64).astype(dtype).astype(np.int64)).to(dt)
    y = x.flip(0).clone()
    mask = m.tensor(np.array([True, False] * 4))
    idx = m.tensor(np.array([1, 3]))
    return x, y, mask, idx


def summary(m, r):
    if isinstance(r, tuple):
        return tuple(summary(m, v) for v in r)
    if not isinstance(r, m.Tensor):
        return ("py", type(r).__name__, repr(r))
    name = str(r.dtype).rsplit(".", 1)[-1]
    t = r.detach()
    if name == "bfloat16":
        t = t.float()
    elif name == "complex32":  # (autotensor has none: complex64 instead, open)
        name, t = "complex64", t.to(torch.complex64)
    a = np.array(t.numpy(), copy=True)
    if a.dtype.kind in "fc":
        f = a.view(a.real.dtype) if a.dtype.kind == "c" else a
        f[np.isnan(f)] = np.nan
        a = f
    return (name, tuple(r.shape), a.tobytes().hex())


def run(m, expr, dtype, s, s2):
    x, y, mask, idx = make(m, dtype)
    env = dict(m=m, F=m.nn.functional, x=x, y=y, s=s, s2=s2, mask=mask, idx=idx)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return summary(m, eval(expr, env))
    except Exception as e:  # noqa: BLE001
        msg = str(e).replace("autotensor", "torch").split("\n")[0]
        return ("raised", type(e).__name__, msg[:80])


def cases(selected=()):
    for name, expr, second in OPS:
        if selected and not any(k in name for k in selected):
            continue
        for dtype in DTYPES:
            for s in SCALARS:
                for s2 in (second or [None]):
                    yield name, expr, dtype, s, s2


def main(argv):
    verbose = "-v" in argv
    selected = [a for a in argv if a != "-v"]
    bad = collections.Counter()
    total = collections.Counter()
    chalf = collections.Counter()
    for name, expr, dtype, s, s2 in cases(selected):
        total[name] += 1
        a = run(autotensor, expr, dtype, s, s2)
        t = run(torch, expr, dtype, s, s2)
        if a != t and "ComplexHalf" in str(t):  # (no complex32 here: open, counted apart)
            chalf[name] += 1
        elif a != t:
            bad[name] += 1
            if verbose:
                print(f"{name} {dtype} s={s!r} s2={s2!r}\n  at: {a}\n  pt: {t}")
    for name in total:
        if bad[name]:
            print(f"{name:22s} {bad[name]:5d} / {total[name]}")
    print(f"total {sum(bad.values())} / {sum(total.values())} "
          f"(and {sum(chalf.values())} complex32 cases)")


if __name__ == "__main__":
    main(sys.argv[1:])
