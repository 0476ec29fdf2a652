"""Stop 33 (helper tstride33): the strides of forward-AD results and of their tangents.

Every unary op string of the fuzzer (UNARY + CATALOGUE_UNARY) on float16 / bfloat16 /
float32 / float64 (2, 3) duals in four layouts (contiguous, transposed, sliced with a step,
expanded), with and without requires_grad, run on autotensor and PyTorch: the results'
dtypes, shapes and strides, their tangents' dtypes and strides, and values within the
dtype's tolerance (tests/fuzz/OPEN_FINDINGS.md, the Stop 33 strides section)."""
import re

import numpy as np
import pytest

import autotensor
from tests.fuzz.core import CATALOGUE_UNARY, UNARY

torch = pytest.importorskip("torch")

_SKIP = ("layer_norm_last", "rms_norm_last", "requires_grad_", "detach_", "retain_grad")
_TOL = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 2e-6, "float64": 1e-12}


def _render(u):
    """The op string as a Python expression of ``x`` (None: not a plain unary op)."""
    if u in _SKIP or u.startswith("register_hook"):
        return None
    if u.startswith("nn.functional.") or u.startswith("special."):
        m = re.match(r"([\w.]+)(\((.*)\))?$", u)
        name, args = m.group(1), m.group(3)
        return f"torch.{name}(x{', ' + args if args else ''})"
    if u.startswith("__"):
        return f"x.{u}()"
    return f"x.{u}" if "(" in u else f"x.{u}()"


_OPS = [u for u in dict.fromkeys(UNARY + CATALOGUE_UNARY) if _render(u) is not None]

_LAYOUTS = {
    "contig": lambda m, a: m.tensor(a),
    "t": lambda m, a: m.tensor(a.T.copy()).t(),
    "slice": lambda m, a: m.tensor(np.concatenate([a, a], 1))[:, ::2],
    "expand": lambda m, a: m.tensor(a[:1]).expand(2, 3),
}

_rng = np.random.default_rng(5)
_A = np.round(_rng.uniform(-1.5, 1.5, (2, 3)), 3)
_A[0, 1] = 0.5
_A[1, 2] = -0.0
_T = np.round(_rng.uniform(-2, 2, (2, 3)), 3)


def _arr(m, t):
    ints = (m.int64, m.bool)
    return np.array(t.tolist() if t.dtype in ints else t.detach().double().tolist(),
                    dtype=float)


def _scenario(m, src, dt, layout, rg):
    """(dtype, shape, stride, values, (tangent dtype, stride, values) or None), or the
    error's type name / a non-tensor result's repr."""
    fw = m.autograd.forward_ad
    try:
        with fw.dual_level():
            x = _LAYOUTS[layout](m, _A).to(getattr(m, dt))
            t = _LAYOUTS[layout](m, _T).to(getattr(m, dt))
            if rg and x.is_leaf:
                x = x.detach().requires_grad_(True)
            x = fw.make_dual(x, t)
            y = eval(src, {"torch": m, "x": x})
            if isinstance(y, tuple):
                y = y[0]
            if not isinstance(y, m.Tensor):
                return ("nontensor", repr(y))
            tt = fw.unpack_dual(y).tangent
            tan = None if tt is None else (str(tt.dtype), tt.stride(), _arr(m, tt))
            return (str(y.dtype), tuple(y.shape), y.stride(), _arr(m, y), tan)
    except Exception as e:  # noqa: BLE001 (the error's type is compared)
        return ("ERR", type(e).__name__)


def _close(a, b, dt):
    if a.shape != b.shape or not np.array_equal(np.isnan(a), np.isnan(b)):
        return False
    k = ~np.isnan(a)
    tol = _TOL.get(dt, 1e-12)
    return np.allclose(a[k], b[k], rtol=tol, atol=tol)


@pytest.mark.parametrize("op", _OPS)
def test_forward_ad_result_and_tangent_strides(op):
    src = _render(op)
    bad = []
    for dt in _TOL:
        for layout in _LAYOUTS:
            for rg in (False, True):
                a = _scenario(autotensor, src, dt, layout, rg)
                t = _scenario(torch, src, dt, layout, rg)
                case = (dt, layout, rg)
                if a[0] in ("ERR", "nontensor") or t[0] in ("ERR", "nontensor"):
                    if a != t:
                        bad.append((case, a, t))
                    continue
                if a[:3] != t[:3] or not _close(a[3], t[3], dt):
                    bad.append((case, "result", a[:3], t[:3]))
                elif (a[4] is None) != (t[4] is None):
                    bad.append((case, "tangent presence", a[4], t[4]))
                elif a[4] is not None and (a[4][:2] != t[4][:2] or
                                           not _close(a[4][2], t[4][2], dt)):
                    bad.append((case, "tangent", a[4][:2], t[4][:2]))
    assert not bad, bad
