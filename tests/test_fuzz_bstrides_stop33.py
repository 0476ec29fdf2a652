"""Stop 33 (helper bstride33): result and tangent strides of binary / ternary ops when the
operands have different layouts.

~56 binary / ternary / loss / in-place op strings on x and y laid out independently
(contiguous, transposed, sliced with a step, expanded (1, 3), 0-d, broadcast (1, 3)) in
float32 / float32, float32 / float64 and float32 / int64, with no duals, x, y or both
dual, with and without requires_grad, run on autotensor and PyTorch: errors, the results'
dtypes, shapes, strides and requires_grad, their tangents' dtypes, strides and values
within the dtype's tolerance (tests/fuzz/OPEN_FINDINGS.md, the Stop 33 binary strides
section). Its one open class (pow_ / xlogy_ of a float32 self whose only tangent is a
float64 other's) was closed at stop 34 (helper lay34)."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.filterwarnings("ignore")  # (the losses' broadcast warnings)

_TOL = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 2e-6, "float64": 1e-12}

_OPS = {
 "ne": "x != y", "lt": "x < y", "eq_where": "torch.where(x == y, x, y)",
 "add": "x.add(y)", "sub": "x.sub(y)", "mul": "x.mul(y)", "div": "x.div(y)", "pow": "x.pow(y)",
 "maximum": "torch.maximum(x, y)", "minimum": "torch.minimum(x, y)", "remainder": "x.remainder(y)",
 "fmod": "x.fmod(y)", "floor_divide": "x.floor_divide(y)", "atan2": "x.atan2(y)", "hypot": "x.hypot(y)",
 "logaddexp": "x.logaddexp(y)", "logaddexp2": "x.logaddexp2(y)", "xlogy": "x.xlogy(y)",
 "copysign": "x.copysign(y)", "fmax": "x.fmax(y)", "fmin": "x.fmin(y)", "float_power": "x.float_power(y)",
 "nextafter": "x.nextafter(y)", "igamma": "x.igamma(y)", "clamp_min": "x.clamp_min(y)", "clamp_max": "x.clamp_max(y)",
 "where": "torch.where(x > 0, x, y)", "lerp": "x.lerp(y, 0.3)", "addcmul": "x.addcmul(y, y, value=0.5)",
 "addcdiv": "x.addcdiv(y, y + 3, value=0.5)", "mse": "torch.nn.functional.mse_loss(x, y)",
 "l1": "torch.nn.functional.l1_loss(x, y)", "smooth_l1": "torch.nn.functional.smooth_l1_loss(x, y)",
 "huber": "torch.nn.functional.huber_loss(x, y)", "bce_logits": "torch.nn.functional.binary_cross_entropy_with_logits(x, y.sigmoid())",
 "kl_div": "torch.nn.functional.kl_div(x, y)", "soft_margin": "torch.nn.functional.soft_margin_loss(x, y.sign())",
 "cos_sim": "torch.nn.functional.cosine_similarity(x, y, dim=-1)", "pdist": "torch.nn.functional.pairwise_distance(x, y)",
 "add_": "x.clone().add_(y)", "mul_": "x.clone().mul_(y)", "div_": "x.clone().div_(y)", "pow_": "x.clone().pow_(y)",
 "atan2_": "x.clone().atan2_(y)", "copy_": "x.clone().copy_(y)", "lerp_": "x.clone().lerp_(y, 0.3)",
 "addcmul_": "x.clone().addcmul_(y, y)", "hypot_": "x.clone().hypot_(y)", "xlogy_": "x.clone().xlogy_(y)",
 "matmul": "x @ y.mT", "mm": "x.mm(y.mT)", "outer": "torch.outer(x[0], y[0])", "dot": "torch.dot(x[0], y[0])",
 "cat": "torch.cat([x, y])", "stack": "torch.stack([x, y])", "masked_fill": "x.masked_fill(x > 0, y[0, 0])",
 "rsub": "1.5 - x * y", "rpow": "2 ** (x * y)", "prelu": "torch.nn.functional.prelu(x, y[0, :1].abs())",
}

_rng = np.random.default_rng(3)
A = np.round(_rng.uniform(-1.5, 1.5, (2, 3)), 3)
A[0, 1] = 0.5
B = np.round(_rng.uniform(-1.5, 1.5, (2, 3)), 3)
B[1, 1] = 0.0
TA = np.round(_rng.uniform(-2, 2, (2, 3)), 3)
TB = np.round(_rng.uniform(-2, 2, (2, 3)), 3)

_LAYOUTS = ("c", "t", "s", "e", "z", "b")
_COMBOS = (("float32", "float32"), ("float32", "float64"), ("float32", "int64"))
_INPLACE = {k for k in _OPS if k.endswith("_")}


def _lay(m, arr, kind, dt):
    """A (2, 3)-valued operand (or its broadcast source) in layout ``kind``."""
    if kind == "c":
        return m.tensor(arr).to(dt)
    if kind == "t":
        return m.tensor(arr.T.copy()).to(dt).t()
    if kind == "s":
        w = np.zeros((2, 6))
        w[:, ::2] = arr
        return m.tensor(w).to(dt)[:, ::2]
    if kind == "e":
        return m.tensor(arr[:1]).to(dt).expand(2, 3)
    if kind == "z":
        return m.tensor(arr[0, 0]).to(dt)
    return m.tensor(arr[:1]).to(dt)  # "b": (1, 3) broadcast against (2, 3)


def _keys(name):
    for lx in _LAYOUTS:
        for ly in _LAYOUTS:
            for dx, dy in _COMBOS:
                for duals in ("", "x", "y", "xy"):
                    for rg in (False, True):
                        if not (duals == "" and rg):
                            yield (name, lx, ly, dx, dy, duals, rg)


def _run(m, key):
    name, lx, ly, dx, dy, duals, rg = key
    fw = m.autograd.forward_ad
    try:
        with fw.dual_level():
            x = _lay(m, A, lx, getattr(m, dx))
            y = _lay(m, B if dy != "int64" else np.round(B * 3), ly, getattr(m, dy))
            if rg:
                x.requires_grad_(True)
                if y.is_floating_point():
                    y.requires_grad_(True)
            if "x" in duals:
                x = fw.make_dual(x, _lay(m, TA, lx, x.dtype))
            if "y" in duals and y.is_floating_point():
                y = fw.make_dual(y, _lay(m, TB, ly, y.dtype))
            r = eval(_OPS[name], {"torch": m, "x": x, "y": y})
            t = fw.unpack_dual(r).tangent
            vals = np.array(r.detach().double().tolist() if r.dtype != m.bool else r.tolist(),
                            dtype=float)
            tan = None if t is None else (str(t.dtype), tuple(t.stride()), t.requires_grad,
                                          np.array(t.detach().double().tolist(), dtype=float))
            return (str(r.dtype), tuple(r.shape), tuple(r.stride()), r.requires_grad), vals, tan
    except Exception as e:
        return ("ERR", type(e).__name__, str(e)[:40]), None, None


def _close(a, b, dt):
    if a.shape != b.shape or not np.array_equal(np.isnan(a), np.isnan(b)):
        return False
    m = ~np.isnan(a)
    r = _TOL.get(dt.split(".")[-1], 1e-12)
    return np.allclose(a[m], b[m], rtol=r, atol=r)


def _diff(key):
    """Why autotensor's case differs from PyTorch's (None: it does not)."""
    ma, va, ta = _run(autotensor, key)
    mt, vt, tt = _run(torch, key)
    if ma[0] == "ERR" or mt[0] == "ERR":
        return None if ma[:2] == mt[:2] else ("error", ma, mt)
    if ma != mt:
        return ("meta", ma, mt)
    if not _close(va, vt, mt[0]):
        return ("value", va, vt)
    if (ta is None) != (tt is None):
        return ("tangent", ta, tt)
    if ta is not None:
        if ta[:3] != tt[:3]:
            return ("tangent meta", ta[:3], tt[:3])
        if not _close(ta[3], tt[3], tt[0]):
            return ("tangent value", ta[3], tt[3])
    return None


@pytest.mark.parametrize("name", list(_OPS))
def test_binary_layouts(name):
    bad = {k: w for k in _keys(name) if (w := _diff(k))}
    assert not bad, f"{len(bad)} cases differ, e.g. {next(iter(bad.items()))}"

