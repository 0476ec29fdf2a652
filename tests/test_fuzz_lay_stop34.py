"""Stop 34 (helper lay34): stop 33's binary-layout sweep (tests/test_fuzz_bstrides_stop33.py:
x and y laid out contiguous / transposed / sliced / expanded / 0-d / broadcast, no duals, x,
y or both dual, with and without requires_grad; results' and tangents' dtypes, strides and
values against PyTorch 2.13) over the dtype pairs it left out: float16 and bfloat16 with
float32 / float64 / int64 / bool / each other (either order), and complex64 with float32
(tests/fuzz/OPEN_FINDINGS.md, the Stop 34 layouts section). The ops here are those with
cases that differed; the scenario runs on both modules."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.filterwarnings("ignore")

_TOL = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 2e-6, "complex64": 2e-6,
        "float64": 1e-12}

_OPS = {
    "pow": "x.pow(y)", "float_power": "x.float_power(y)", "pow_": "x.clone().pow_(y)", "xlogy_": "x.clone().xlogy_(y)",
    "masked_fill": "x.masked_fill(x > 0, y[0, 0])",
    "soft_margin": "torch.nn.functional.soft_margin_loss(x, y.sign())",
    "bce_logits": "torch.nn.functional.binary_cross_entropy_with_logits(x, y.sigmoid())",
}

_rng = np.random.default_rng(3)
A = np.round(_rng.uniform(-1.5, 1.5, (2, 3)), 3)
A[0, 1] = 0.5
B = np.round(_rng.uniform(-1.5, 1.5, (2, 3)), 3)
B[1, 1] = 0.0
TA = np.round(_rng.uniform(-2, 2, (2, 3)), 3)
TB = np.round(_rng.uniform(-2, 2, (2, 3)), 3)
_CPLX = {"x": A + 1j * np.round(np.random.default_rng(5).uniform(-1, 1, (2, 3)), 3),
         "y": B + 1j * np.round(np.random.default_rng(6).uniform(-1, 1, (2, 3)), 3),
         "tx": TA + 0.5j, "ty": TB - 0.25j}

_LAYOUTS = ("c", "t", "s", "e", "z", "b")
_COMBOS = tuple((a, b) for h in ("float16", "bfloat16") for a, b in (
    (h, "float32"), ("float32", h), (h, "float64"), ("float64", h), (h, "int64"),
    ("int64", h), (h, "bool"), (h, h))) + (
    ("float16", "bfloat16"), ("bfloat16", "float16"), ("complex64", "float32"),
    ("float32", "complex64"))


def _arr(dt, which):
    if dt.startswith("complex"):
        return _CPLX[which]
    base = {"x": A, "y": B, "tx": TA, "ty": TB}[which]
    return np.round(base * 3) if dt == "int64" and which in ("x", "y") else base


def _lay(m, arr, kind, dt):
    """A (2, 3)-valued operand (or its broadcast source) in layout ``kind``."""
    if kind == "c":
        return m.tensor(arr).to(dt)
    if kind == "t":
        return m.tensor(arr.T.copy()).to(dt).t()
    if kind == "s":
        w = np.zeros((2, 6), dtype=arr.dtype)
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


def _values(v, m):
    if v.dtype == m.bool:
        return np.array(v.tolist(), dtype=float)
    if v.is_complex():
        return np.array(v.detach().tolist(), dtype=complex)
    return np.array(v.detach().double().tolist(), dtype=float)


def _differentiable(t):
    return t.is_floating_point() or t.is_complex()


def _run(m, key):
    name, lx, ly, dx, dy, duals, rg = key
    fw = m.autograd.forward_ad
    try:
        with fw.dual_level():
            x = _lay(m, _arr(dx, "x"), lx, getattr(m, dx))
            y = _lay(m, _arr(dy, "y"), ly, getattr(m, dy))
            if rg:
                for v in (x, y):
                    if _differentiable(v):
                        v.requires_grad_(True)
            if "x" in duals and _differentiable(x):
                x = fw.make_dual(x, _lay(m, _arr(dx, "tx"), lx, x.dtype))
            if "y" in duals and _differentiable(y):
                y = fw.make_dual(y, _lay(m, _arr(dy, "ty"), ly, y.dtype))
            r = eval(_OPS[name], {"torch": m, "x": x, "y": y})
            t = fw.unpack_dual(r).tangent
            tan = None if t is None else (str(t.dtype), tuple(t.stride()), t.requires_grad,
                                          _values(t, m))
            return (str(r.dtype), tuple(r.shape), tuple(r.stride()), r.requires_grad), \
                _values(r, m), tan
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


# (float_power is pow of its operands cast to one dtype, complex128 where either is complex:
# no real input term, unlike pow's; checked with pow)
_WITH = {"pow": ("pow", "float_power"), "float_power": ()}


@pytest.mark.parametrize("name", [k for k in _OPS if _WITH.get(k) != ()])
def test_layouts_new_dtypes(name):
    bad = {k: w for n in _WITH.get(name, (name,)) for k in _keys(n) if (w := _diff(k))}
    assert not bad, f"{len(bad)} cases differ, e.g. {next(iter(bad.items()))}"


def _fill_scenario(m, src, dt):
    """An integral (or bool) self filled with a 0-d float dual: PyTorch's rule makes an
    integral tangent, which set_fw_grad refuses (after an in-place op's write)."""
    fw = m.autograd.forward_ad
    with fw.dual_level():
        x = m.tensor([[1, -2, 3], [4, 5, -6]]).to(getattr(m, dt))
        z = x.clone()
        v = fw.make_dual(m.tensor(0.5), m.tensor(1.0))
        try:
            r = eval(src, {"torch": m, "x": x, "z": z, "v": v})
            got = ("ok", str(r.dtype), fw.unpack_dual(r).tangent is None)
        except Exception as e:  # noqa: BLE001
            got = (type(e).__name__, str(e))
        return got, z.tolist(), z._version


@pytest.mark.parametrize("dt", ["int64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("src", [
    "x.masked_fill(x != 0, v)", "z.masked_fill_(x > 0, v)",
    "x.index_fill(0, torch.tensor([0]), v)", "z.index_fill_(1, torch.tensor([0, 2]), v)",
    "z.fill_(v)", "z[0].fill_(v)"])
def test_fill_integral_self_with_dual_value(src, dt):
    assert _fill_scenario(autotensor, src, dt) == _fill_scenario(torch, src, dt)


def _bce_scenario(m, target, kw):
    x = m.tensor([[0.5, -1.0], [2.0, 3.0]])
    t = {"complex": m.tensor([[0.3 + 0.1j, 0.6 - 0.2j], [1j, 2.0]]),
         "real": m.tensor([[0.3, 0.6], [0.0, 1.0]])}[target]
    args = {"pos_weight": m.tensor([1.0, 2.0]), "weight": m.tensor([1.0, 2.0]),
            "cweight": m.tensor([1 + 1j, 2.0]), "cpos_weight": m.tensor([1 + 1j, 2.0]),
            "none": None}
    kwargs = {} if kw == "none" else {kw.lstrip("c"): args[kw]}
    try:
        r = m.nn.functional.binary_cross_entropy_with_logits(x, t, **kwargs)
        return str(r.dtype), np.array(r.tolist(), dtype=complex)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)


@pytest.mark.parametrize("target, kw", [
    *(("complex", kw) for kw in ("none", "weight", "pos_weight", "cweight", "cpos_weight")),
    ("real", "cweight"), ("real", "cpos_weight")])
def test_bce_with_logits_complex_operands(target, kw):
    """A complex target makes a complex loss ((1 - target).mul_(input)); a complex weight
    or pos_weight meeting a real loss is refused by its in-place step's cast."""
    a, b = _bce_scenario(autotensor, target, kw), _bce_scenario(torch, target, kw)
    if isinstance(b[1], str):
        assert a == b
    else:
        assert a[0] == b[0] and np.allclose(a[1], b[1], rtol=2e-6, atol=2e-6)
