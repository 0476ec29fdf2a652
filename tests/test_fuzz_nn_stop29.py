"""Stop 29, helper nn29: nn.functional's backward ops under create_graph, the norms' forward
rules, and the norm of one element, against PyTorch 2.13 (the final-run reproducers 013,
015, 020 of stop 28 and their classes; tests/fuzz/OPEN_FINDINGS.md "Stop 29
(nn.functional; helper nn29)").

Each case runs one program on torch and on autotensor and compares the outcome: the
exception (type and message), or the gradients' values, dtypes and node names (first and
second order), or the forward tangent's values, dtype and signs of zeros."""

import functools
import itertools
import pathlib
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402


def _node(t):
    return None if t is None or t.grad_fn is None else type(t.grad_fn).__name__


def _summary(t):
    if t is None:
        return None
    return (str(t.dtype).split(".")[-1], np.array(t.detach().tolist(), dtype=np.float64),
            _node(t))


def _same(a, b, rtol=1e-9, signs=True):
    """Two outcomes: equal exceptions, or the same structure of summaries (values to rtol,
    dtypes, node names and, with ``signs``, the signs of zeros)."""
    if isinstance(a, tuple) and a and a[0] == "raised" or \
            isinstance(b, tuple) and b and b[0] == "raised":
        return a == b
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if (x is None) != (y is None):
            return False
        if x is None:
            continue
        if x[0] != y[0] or x[2] != y[2] or x[1].shape != y[1].shape:
            return False
        if not np.allclose(x[1], y[1], rtol=rtol, atol=rtol * 1e-3, equal_nan=True):
            return False
        if signs and not (np.signbit(x[1]) == np.signbit(y[1])).all():
            return False
    return True


# ---- backward ops under create_graph --------------------------------------------------
def _x(L, shape, seed, dt, lo=-2.0, hi=2.0, rg=True):
    r = np.random.RandomState(seed).uniform(lo, hi, shape)
    return L.tensor(r, dtype=getattr(L, dt), requires_grad=rg)


def _p(L, shape, seed, dt, rg=False):
    return _x(L, shape, seed, dt, 0.05, 0.95, rg)


def _F(L):
    return L.nn.functional


_REDUCTIONS = ("mean", "sum", "none")


def _huber(r, L, dt):
    x, t = _x(L, (3, 4), 0, dt), _x(L, (3, 4), 3, dt)
    return _F(L).huber_loss(x, t, reduction=r, delta=0.7), [x, t]


def _soft_margin(r, L, dt):
    x, t = _x(L, (3, 4), 0, dt), L.sign(_x(L, (3, 4), 3, dt, rg=False))
    return _F(L).soft_margin_loss(x, t, reduction=r), [x]


def _bce(r, L, dt):
    x, t = _p(L, (3, 4), 1, dt, True), _p(L, (3, 4), 4, dt, True)
    return _F(L).binary_cross_entropy(x, t, reduction=r), [x, t]


def _bcewl(r, L, dt):
    x, t = _x(L, (3, 4), 0, dt), _p(L, (3, 4), 4, dt, True)
    return _F(L).binary_cross_entropy_with_logits(x, t, reduction=r), [x, t]


def _nll(r, L, dt):
    x = _x(L, (3, 4), 0, dt)
    return _F(L).nll_loss(x, L.tensor([0, 2, 1]), reduction=r), [x]


def _pad(mode, n, L, dt):
    shape = {1: (2, 5), 2: (1, 2, 4, 5), 3: (1, 1, 3, 3, 4)}[n]
    pads = {1: (2, 1), 2: (2, 1, 1, 2), 3: (1, 1, 2, 0, 1, 2)}[n]
    x = _x(L, shape, 0, dt)
    return _F(L).pad(x, pads, mode=mode), [x]


CASES = {
    "glu_last": lambda L, dt: (lambda x: (_F(L).glu(x, -1), [x]))(_x(L, (3, 4), 0, dt)),
    "glu_0": lambda L, dt: (lambda x: (_F(L).glu(x, 0), [x]))(_x(L, (4, 3), 0, dt)),
    "glu_empty": lambda L, dt: (lambda x: (_F(L).glu(x, -1), [x]))(_x(L, (0,), 0, dt)),
    **{f"huber_{r}": functools.partial(_huber, r) for r in _REDUCTIONS},
    **{f"soft_margin_{r}": functools.partial(_soft_margin, r) for r in _REDUCTIONS},
    **{f"bce_{r}": functools.partial(_bce, r) for r in _REDUCTIONS},
    "bce_weight": lambda L, dt: (lambda x, t, w: (
        _F(L).binary_cross_entropy(x, t, weight=w), [x]))(
        _p(L, (3, 4), 1, dt, True), _p(L, (3, 4), 4, dt), _p(L, (3, 4), 5, dt)),
    **{f"bcewl_{r}": functools.partial(_bcewl, r) for r in _REDUCTIONS},
    "bcewl_pos_weight": lambda L, dt: (lambda x, t, w: (
        _F(L).binary_cross_entropy_with_logits(x, t, pos_weight=w), [x, t]))(
        _x(L, (3, 4), 0, dt), _p(L, (3, 4), 4, dt, True), _p(L, (4,), 5, dt)),
    **{f"nll_{r}": functools.partial(_nll, r) for r in _REDUCTIONS},
    "nll_weight_ignore": lambda L, dt: (lambda x: (_F(L).nll_loss(
        x, L.tensor([0, 2, 1]), weight=_p(L, (4,), 2, dt), ignore_index=2), [x]))(
        _x(L, (3, 4), 0, dt)),
    "nll_1d": lambda L, dt: (lambda x: (_F(L).nll_loss(x, L.tensor(2)), [x]))(
        _x(L, (4,), 0, dt)),
    "nll_2d": lambda L, dt: (lambda x: (_F(L).nll_loss(x, L.tensor([[[0, 2], [1, 1]]])), [x]))(
        _x(L, (1, 3, 2, 2), 0, dt)),
    "nll_3d": lambda L, dt: (lambda x: (_F(L).nll_loss(
        x, L.tensor([[0, 2, 1]]), reduction="none"), [x]))(_x(L, (1, 3, 3), 0, dt)),
    "cross_entropy": lambda L, dt: (lambda x: (_F(L).cross_entropy(
        x, L.tensor([0, 2, 1])), [x]))(_x(L, (3, 4), 0, dt)),
    "prelu_scalar_weight": lambda L, dt: (lambda x, w: (_F(L).prelu(x, w), [x, w]))(
        _x(L, (3, 4), 0, dt), _x(L, (1,), 5, dt)),
    "prelu_channels": lambda L, dt: (lambda x, w: (_F(L).prelu(x, w), [x, w]))(
        _x(L, (2, 3, 2), 0, dt), _x(L, (3,), 5, dt)),
    "max_pool2d": lambda L, dt: (lambda x: (_F(L).max_pool2d(x, 3, 2, 1, ceil_mode=True),
                                            [x]))(_x(L, (1, 2, 5, 5), 0, dt)),
    "max_pool1d": lambda L, dt: (lambda x: (_F(L).max_pool1d(x, 2), [x]))(
        _x(L, (2, 5), 0, dt)),
    "avg_pool2d": lambda L, dt: (lambda x: (_F(L).avg_pool2d(
        x, 3, 2, 1, ceil_mode=True, count_include_pad=False), [x]))(
        _x(L, (1, 2, 5, 5), 0, dt)),
    "avg_pool2d_divisor": lambda L, dt: (lambda x: (_F(L).avg_pool2d(
        x, 2, divisor_override=3), [x]))(_x(L, (2, 4, 4), 0, dt)),
    "adaptive_avg_pool2d": lambda L, dt: (lambda x: (_F(L).adaptive_avg_pool2d(
        x, (2, 3)), [x]))(_x(L, (1, 2, 5, 5), 0, dt)),
    "adaptive_max_pool2d": lambda L, dt: (lambda x: (_F(L).adaptive_max_pool2d(
        x, (2, 3)), [x]))(_x(L, (1, 2, 5, 5), 0, dt)),
    "adaptive_max_pool1d": lambda L, dt: (lambda x: (_F(L).adaptive_max_pool1d(x, 3), [x]))(
        _x(L, (2, 5), 0, dt)),
    **{f"pad_{m}{n}d": functools.partial(_pad, m, n) for m in ("reflect", "replicate")
       for n in (1, 2, 3)},
    "gaussian_nll": lambda L, dt: (lambda x, t, v: (
        _F(L).gaussian_nll_loss(x, t, v), [x, t, v]))(
        _x(L, (3, 4), 0, dt), _x(L, (3, 4), 3, dt), _p(L, (3, 4), 1, dt, True)),
}


def _second_order(L, name, dt):
    """The create_graph gradients of the case (with an incoming gradient that requires
    grad) and the gradients of a weighted sum of them in the inputs and that gradient."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            y, xs = CASES[name](L, dt)
            v = L.tensor(np.random.RandomState(7).uniform(-1, 1, tuple(y.shape)),
                         dtype=y.dtype, requires_grad=True)
            gs = L.autograd.grad(y, xs, v, create_graph=True, allow_unused=True)
            s = None
            for i, g in enumerate(gs):
                if g is not None and g.requires_grad:
                    w = L.tensor(np.random.RandomState(8 + i).uniform(-1, 1, tuple(g.shape)),
                                 dtype=g.dtype)
                    s = (g * w).sum() if s is None else s + (g * w).sum()
            if s is None:
                return [_summary(g) for g in gs]
            g2 = L.autograd.grad(s, list(xs) + [v], allow_unused=True)
            return [_summary(g) for g in gs] + [_summary(g) for g in g2]
        except Exception as e:  # noqa: BLE001 (the outcome compared)
            return ("raised", type(e).__name__, str(e))


@pytest.mark.parametrize("dt", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_backward_ops_under_create_graph_match_torch(name, dt):
    """glu_backward, huber_loss_backward, soft_margin_loss_backward,
    binary_cross_entropy_backward, nll_loss(2d)_backward, _prelu_kernel_backward, the 2-d
    pools' and the reflection/replication pads' backward ops are ops with their own
    BackwardBackward0 node and derivatives.yaml's double backward formulas;
    binary_cross_entropy_with_logits' and gaussian_nll_loss's gradients end in PyTorch's
    node (fin_repro_013)."""
    a, t = _second_order(autotensor, name, dt), _second_order(torch, name, dt)
    assert _same(a, t, 1e-9 if dt == "float64" else 2e-5, signs=dt == "float64"), (a, t)


@pytest.mark.parametrize("name", ["max_pool2d", "avg_pool2d", "adaptive_avg_pool2d",
                                  "adaptive_max_pool2d", "reflect", "replicate"])
def test_pools_save_their_input(name):
    """The pools' and pads' nodes save self (their backward ops read it): an in-place change
    of the input before backward raises PyTorch's version error."""
    outcomes = []
    for L in (autotensor, torch):
        x = L.ones(1, 1, 4, 4, requires_grad=True)
        y = x * 1
        if name in ("reflect", "replicate"):
            out = _F(L).pad(y, (1, 1, 1, 1), mode=name)
        else:
            out = getattr(_F(L), name)(y, 2)
        y.add_(1)
        try:
            out.sum().backward()
            outcomes.append("ok")
        except RuntimeError as e:
            outcomes.append(str(e).split("[")[0])
    assert outcomes[0] == outcomes[1], outcomes


def _forward_over_reverse(L, fn, shapes, dual_v, dual_x, dt="float64", seed=0):
    rs = np.random.RandomState(seed)
    fa = L.autograd.forward_ad
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with fa.dual_level():
                xs = []
                for sh in shapes:
                    x = L.tensor(rs.uniform(-2, 2, sh), dtype=getattr(L, dt),
                                 requires_grad=True)
                    if dual_x:
                        x = fa.make_dual(x, L.tensor(rs.uniform(-1, 1, sh),
                                                     dtype=getattr(L, dt)))
                    xs.append(x)
                y = fn(L, *xs)
                v = L.tensor(rs.uniform(-1, 1, tuple(y.shape)), dtype=y.dtype)
                if dual_v:
                    v = fa.make_dual(v, L.tensor(rs.uniform(-1, 1, tuple(y.shape)),
                                                 dtype=y.dtype))
                gs = L.autograd.grad(y, xs, v, allow_unused=True)
                out = []
                for g in gs:
                    p, t = fa.unpack_dual(g)
                    out.append(_summary(p))
                    out.append(None if t is None else _summary(t))
                return out
        except Exception as e:  # noqa: BLE001
            return ("raised", type(e).__name__, str(e))


_TARGETS = np.sign(np.linspace(-1, 1, 12).reshape(3, 4) + 0.05)
FW_CASES = {
    "glu": (lambda L, x: _F(L).glu(x, -1), [(3, 4)]),
    "glu_0": (lambda L, x: _F(L).glu(x, 0), [(4, 3)]),
    "huber": (lambda L, x, t: _F(L).huber_loss(x, t), [(3, 4), (3, 4)]),
    "soft_margin": (lambda L, x: _F(L).soft_margin_loss(x, L.tensor(_TARGETS)), [(3, 4)]),
    "bce": (lambda L, x, t: _F(L).binary_cross_entropy(L.sigmoid(x), L.sigmoid(t)),
            [(3, 4), (3, 4)]),
    "bce_none": (lambda L, x, t: _F(L).binary_cross_entropy(
        L.sigmoid(x), L.sigmoid(t), reduction="none"), [(3, 4), (3, 4)]),
    "nll": (lambda L, x: _F(L).nll_loss(x, L.tensor([0, 2, 1])), [(3, 4)]),
    "nll_none": (lambda L, x: _F(L).nll_loss(x, L.tensor([0, 2, 1]), reduction="none"),
                 [(3, 4)]),
    "nll_weight_ignore": (lambda L, x: _F(L).nll_loss(
        x, L.tensor([0, 2, 1]), weight=L.tensor([0.5, 2.0, 1.0, 3.0], dtype=L.float64),
        ignore_index=1, reduction="sum"), [(3, 4)]),
    "nll_1d": (lambda L, x: _F(L).nll_loss(x, L.tensor(2)), [(4,)]),
    "nll_2d": (lambda L, x: _F(L).nll_loss(x, L.tensor([[[0, 2], [1, 1]]]),
                                          reduction="none"), [(1, 3, 2, 2)]),
    "prelu": (lambda L, x, w: _F(L).prelu(x, w), [(3, 4), (4,)]),
    "max_pool2d": (lambda L, x: _F(L).max_pool2d(x, 2), [(1, 2, 5, 5)]),
    "avg_pool2d": (lambda L, x: _F(L).avg_pool2d(x, 3, 2, 1), [(1, 2, 5, 5)]),
    "adaptive_avg_pool2d": (lambda L, x: _F(L).adaptive_avg_pool2d(x, (2, 3)),
                            [(1, 2, 5, 5)]),
    "adaptive_max_pool2d": (lambda L, x: _F(L).adaptive_max_pool2d(x, (2, 3)),
                            [(1, 2, 5, 5)]),
    "pad_reflect2d": (lambda L, x: _F(L).pad(x, (2, 1, 1, 2), mode="reflect"), [(1, 2, 4, 5)]),
    "pad_replicate1d": (lambda L, x: _F(L).pad(x, (2, 1), mode="replicate"), [(2, 5)]),
    "prelu_1": (lambda L, x, w: _F(L).prelu(x, w), [(3, 4), (1,)]),
}


@pytest.mark.parametrize("dual_v,dual_x", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("name", sorted(FW_CASES))
def test_backward_ops_forward_over_reverse_match_torch(name, dual_v, dual_x):
    """The forward formulas of the backward ops (glu_backward_jvp, bce's three double
    backward terms, _prelu_kernel_backward's result0/result1), nll_loss_backward through
    torch._decomp's decomposition (-0.0 zeros of a negative gradient), and the refusals of
    those without one (huber_loss_backward, soft_margin_loss_backward)."""
    fn, shapes = FW_CASES[name]
    a = _forward_over_reverse(autotensor, fn, shapes, dual_v, dual_x)
    t = _forward_over_reverse(torch, fn, shapes, dual_v, dual_x)
    assert _same(a, t, 1e-9), (a, t)


def test_nll_loss_saves_its_input():
    """NllLossBackward0 saves self (nll_loss_backward reads it): an in-place change of the
    input before backward raises PyTorch's version error."""
    outcomes = []
    for L in (autotensor, torch):
        x = L.ones(3, 4, requires_grad=True)
        y = x * 1
        loss = _F(L).nll_loss(y, L.tensor([0, 1, 2]))
        y.add_(1)
        try:
            loss.backward()
            outcomes.append("ok")
        except RuntimeError as e:
            outcomes.append(str(e).split("[")[0])
    assert outcomes[0] == outcomes[1] != "ok", outcomes


# ---- the norms' forward rules ----------------------------------------------------------
def _norm_outcome(L, fname, dt, shape, dual, wdt=None, special=None):
    rs = np.random.RandomState(0)
    fa = L.autograd.forward_ad
    try:
        with fa.dual_level():
            xv = np.full(shape, 1.7636) if special == "const" else rs.uniform(-2, 2, shape)
            x = L.tensor(xv, dtype=getattr(L, dt))
            C = shape[-1] if fname == "layer_norm" else shape[1]
            wd = getattr(L, wdt or dt)
            w = L.tensor(rs.uniform(0.5, 1.5, (C,)), dtype=wd)
            b = L.tensor(rs.uniform(-1, 1, (C,)), dtype=wd)
            ts = [L.tensor(rs.uniform(-1, 1, tuple(t.shape)), dtype=t.dtype) for t in (x, w, b)]
            if "x" in dual:
                x = fa.make_dual(x, ts[0])
            if "w" in dual:
                w = fa.make_dual(w, ts[1])
            if "b" in dual:
                b = fa.make_dual(b, ts[2])
            w = w if "W" in dual or "w" in dual else None
            b = b if "b" in dual else None
            F = _F(L)
            if fname == "layer_norm":
                y = F.layer_norm(x, (C,), w, b)
            elif fname == "layer_norm_all":
                y = F.layer_norm(x, tuple(shape[1:]))
            elif fname == "batch_norm":
                y = F.batch_norm(x, None, None, w, b, training=True)
            elif fname == "batch_norm_eval":
                rm = L.tensor(rs.uniform(-1, 1, (C,)), dtype=wd)
                rv = L.tensor(rs.uniform(0.5, 2, (C,)), dtype=wd)
                y = F.batch_norm(x, rm, rv, w, b, training=False)
            else:
                y = F.group_norm(x, 2, w, b)
            p, t = fa.unpack_dual(y)
            return ("ok", _summary(p), _summary(t))
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e).__name__, str(e))


_NORM_TOL = {"float64": 1e-10, "float32": 2e-6, "float16": 2e-3, "bfloat16": 1e-2}


def _norm_cases():
    for fname in ("layer_norm", "layer_norm_all", "batch_norm", "batch_norm_eval",
                  "group_norm"):
        for dt in ("float64", "float32", "float16", "bfloat16"):
            for shape in ((2, 4), (1, 4), (2, 4, 1), (1, 2, 3)):
                if fname == "group_norm" and shape[1] % 2:
                    continue
                for dual in ("x", "xW", "xwb", "w", "b"):
                    for special in (None, "const"):
                        for wdt in ((None, "float32") if dt in ("float16", "bfloat16")
                                    else (None,)):
                            yield fname, dt, shape, dual, wdt, special


@pytest.mark.parametrize("fname,dt,shape,dual,wdt,special", list(_norm_cases()))
def test_norm_forward_rules_match_torch(fname, dt, shape, dual, wdt, special):
    """layer_norm_jvp / batch_norm_jvp / group_norm_jvp step by step: the saved statistics
    in their dtype (float16's rstd^3 overflows: NaN tangents of a constant row,
    fin_repro_015), in-place steps in their left operand's dtype, a float16 input's tangent
    float32 with a float32 weight without a tangent, absent tangents as zero tensors."""
    if dt == "bfloat16":
        pytest.importorskip("ml_dtypes")
    a = _norm_outcome(autotensor, fname, dt, shape, dual, wdt, special)
    t = _norm_outcome(torch, fname, dt, shape, dual, wdt, special)
    assert a[0] == t[0], (a, t)
    if a[0] == "raised":
        assert a == t
        return
    assert a[1][0] == t[1][0] and (a[2] is None) == (t[2] is None), (a, t)
    if a[2] is not None:
        tol = _NORM_TOL[dt]
        scale = max(1.0, float(np.nanmax(np.abs(np.where(np.isfinite(t[2][1]), t[2][1], 0)),
                                         initial=0)))
        assert a[2][0] == t[2][0], (a, t)
        assert np.allclose(a[2][1], t[2][1], rtol=tol, atol=tol * scale, equal_nan=True), (a, t)


# ---- the norm of one element -------------------------------------------------------------
_NORM_VALUES = {"zero": [0.0, 0.0, 0.0], "inf": [np.inf, 1.0, -2.0], "nan": [np.nan, 1.0, 0.0],
                "sub": [4e-312, -1e-310, 0.0], "one": [5e-312], "scalar_sub": 4e-312,
                "scalar_zero": 0.0, "scalar_inf": np.inf, "scalar": 2.0}


@pytest.mark.parametrize("ord", [2, 1, 3, 0.5, float("inf"), float("-inf"), 0, -1])
@pytest.mark.parametrize("kw", [{}, {"dim": 0}, {"dim": -1, "keepdim": True}, {"dim": ()}])
@pytest.mark.parametrize("vals", sorted(_NORM_VALUES))
def test_vector_norm_values_and_tangents_match_torch(vals, kw, ord):
    """aten's |x| shortcut is taken when every reduced dim has size 1; a 0-d input with a
    dim goes through the reduction (its 2-norm of a subnormal is 0 and the tangent masked:
    fin_repro_020)."""
    outs = []
    for L in (autotensor, torch):
        fa = L.autograd.forward_ad
        try:
            with fa.dual_level():
                x = L.tensor(_NORM_VALUES[vals], dtype=L.float64)
                d = fa.make_dual(x, L.full_like(x, 1.5))
                p, t = fa.unpack_dual(L.linalg.vector_norm(d, ord, **kw))
                outs.append(("ok", _summary(p), _summary(t)))
        except Exception as e:  # noqa: BLE001
            outs.append(("raised", type(e).__name__, str(e)))
    a, t = outs
    assert a[0] == t[0], outs
    if a[0] == "raised":
        assert a == t
    else:
        assert _same(a[1:], t[1:], 1e-12, signs=False), outs


@pytest.mark.parametrize("dt", ["float64", "float32"])
def test_vector_norm_of_0d_with_dim_in_op_math(dt):
    """The reduction squares in the op-math dtype: 3e-23 ** 2 underflows in float32."""
    vals = []
    for L in (autotensor, torch):
        x = L.tensor(3e-23 if dt == "float32" else 4e-312, dtype=getattr(L, dt))
        vals.append([L.linalg.vector_norm(x, o, dim=0).item() for o in (2, 3, 1, -2)] +
                    [L.linalg.vector_norm(x, 2).item(), x.norm(dim=0).item()])
    assert vals[0] == vals[1], vals


# ---- the reproducers ---------------------------------------------------------------------
@pytest.mark.parametrize("name", ["fin_repro_013.py", "fin_repro_015.py", "fin_repro_020.py"])
def test_stop28_final_run_reproducers(name):
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / "pending_stop28" / name)


def test_cases_are_distinct():
    """(a guard on the tables above: each name one program)"""
    assert len(set(CASES)) == len(CASES) and len(set(FW_CASES)) == len(FW_CASES)
    assert len(list(itertools.islice(_norm_cases(), 5))) == 5


@pytest.mark.parametrize("dt", ["float64", "float32", "float16", "bfloat16"])
def test_glu_backward_values_bit_for_bit(dt):
    """glu_backward as aten's kernel: sigmoid(b) * g and (1 - s) * s * a * g, in op-math for
    float16/bfloat16 (s stored in the dtype, each product rounded once)."""
    if dt == "bfloat16":
        pytest.importorskip("ml_dtypes")
    rs = np.random.RandomState(0)
    x, g = rs.uniform(-3, 3, (64, 8)), rs.uniform(-2, 2, (64, 4))
    out = []
    for L in (autotensor, torch):
        X = L.tensor(x, dtype=getattr(L, dt), requires_grad=True)
        gx, = L.autograd.grad(_F(L).glu(X, -1), X, L.tensor(g, dtype=getattr(L, dt)))
        out.append(np.array(gx.float().tolist()))
    assert (out[0] == out[1]).all()
