"""The CPU norms' dtype rules (aten's mixed_data_type.h): float32 parameters of a float16 /
bfloat16 input are allowed ("mixed"), any other parameter dtype raises PyTorch's error, and
batch norm checks its running statistics first. Every input x weight x bias dtype triple of
layer / group / instance / batch norm is run on both modules."""
import itertools

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

DTYPES = ["float16", "bfloat16", "float32", "float64"]


def _run(T, fn, xd, wd, bd):
    F = T.nn.functional
    dt = lambda name: None if name is None else getattr(T, name)  # noqa: E731
    x = T.tensor(np.linspace(-2, 3, 24).reshape(2, 4, 3), dtype=dt(xd))
    n = 3 if fn == "layer_norm" else 4
    w = None if wd is None else T.tensor(np.linspace(0.5, 1.5, n), dtype=dt(wd))
    b = None if bd is None else T.tensor(np.linspace(-0.5, 0.5, n), dtype=dt(bd))
    try:
        if fn == "layer_norm":
            r = F.layer_norm(x, (3,), w, b)
        elif fn == "group_norm":
            r = F.group_norm(x, 2, w, b)
        elif fn == "batch_norm":
            r = F.batch_norm(x, T.zeros(4, dtype=dt(xd)), T.ones(4, dtype=dt(xd)), w, b,
                             training=True)
        else:
            r = F.instance_norm(x, weight=w, bias=b)
    except RuntimeError as e:
        return ("raised", str(e))
    return ("ok", str(r.dtype).split(".")[-1], r.float().detach().numpy())


@pytest.mark.parametrize("fn", ["layer_norm", "group_norm", "batch_norm", "instance_norm"])
def test_norm_dtype_table(fn):
    mismatches = []
    for xd, wd, bd in itertools.product(DTYPES, [None] + DTYPES, [None] + DTYPES):
        a, t = _run(autotensor, fn, xd, wd, bd), _run(torch, fn, xd, wd, bd)
        if a[:2] != t[:2]:
            mismatches.append((xd, wd, bd, a[:2], t[:2]))
        elif a[0] == "ok":
            # float16/bfloat16 compute in float32 as PyTorch's kernels and round once; for
            # batch (and so instance) norm PyTorch also rounds its statistics to the half
            # dtype between steps (save_mean / var_sum), which we do not emulate: up to 6
            # float16 ulps there (ours is the more accurate), 1e-6 for layer / group norm
            half = {"float16": 8e-3, "bfloat16": 3e-2}
            tol = {"float64": 1e-12, "float32": 2e-6}.get(xd) or (
                half[xd] if fn in ("batch_norm", "instance_norm") else 2e-6)
            np.testing.assert_allclose(a[2], t[2], rtol=tol, atol=tol)
    assert not mismatches, mismatches[:5]


def _bn(T, w, b, rm, rv, training):
    x = T.tensor(np.linspace(-2, 3, 24).reshape(2, 4, 3), dtype=T.float32)
    mk = lambda d, v: None if d is None else T.full((4,), v, dtype=getattr(T, d))  # noqa: E731
    try:
        T.nn.functional.batch_norm(x, mk(rm, 0.0), mk(rv, 1.0), mk(w, 1.0), mk(b, 0.0),
                                   training=training)
        return "ok"
    except (RuntimeError, ValueError) as e:
        return type(e).__name__, str(e)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("combo", [
    ("float32", "float64", "float16", "float32"), ("float32", "float32", "float16", "float64"),
    ("float32", "float32", "float32", "float64"), (None, None, "float64", "float32"),
    (None, "float64", "float32", None), ("float32", None, "float64", "float16"),
    ("float64", None, None, None), (None, None, None, None), (None, None, "float32", None)])
def test_batch_norm_checks_running_stats_in_kernel_order(combo, training):
    """Training reads the running statistics before weight and bias, evaluation after; a
    missing running statistic is refused before any dtype check."""
    assert _bn(autotensor, *combo, training) == _bn(torch, *combo, training)


@pytest.mark.parametrize("fn", ["layer_norm", "group_norm", "batch_norm"])
def test_mixed_norm_gradients(fn):
    """float16 input with float32 parameters: float16 result and input gradient, float32
    parameter gradients, as PyTorch's mixed kernels."""
    got = []
    for T in (autotensor, torch):
        rng = np.random.default_rng(0)
        x = T.tensor(rng.standard_normal((2, 4, 3)), dtype=T.float16, requires_grad=True)
        n = 3 if fn == "layer_norm" else 4
        w = T.tensor(rng.standard_normal(n), dtype=T.float32, requires_grad=True)
        b = T.tensor(rng.standard_normal(n), dtype=T.float32, requires_grad=True)
        F = T.nn.functional
        if fn == "layer_norm":
            y = F.layer_norm(x, (3,), w, b)
        elif fn == "group_norm":
            y = F.group_norm(x, 2, w, b)
        else:
            y = F.batch_norm(x, None, None, w, b, training=True)
        y.float().pow(2).sum().backward()
        got.append([(str(t.dtype).split(".")[-1], t.float().detach().numpy())
                    for t in (y, x.grad, w.grad, b.grad)])
    for (da, va), (dt, vt) in zip(*got):
        assert da == dt
        np.testing.assert_allclose(va, vt, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("fn", ["layer_norm", "group_norm", "batch_norm"])
@pytest.mark.parametrize("dn", ["float16", "bfloat16"])
def test_half_norm_input_gradient_as_pytorchs(fn, dn):
    """The backward of a float16/bfloat16 norm in float32, each gradient rounded once, as
    PyTorch's kernels: the input's gradient within 4 ulps of PyTorch's (it was thousands of
    ulps off, computed op by op in the half type)."""
    got = []
    for T in (autotensor, torch):
        r = np.random.default_rng(0)
        x = T.tensor(r.standard_normal((2, 4, 6))).to(getattr(T, dn)).requires_grad_()
        n = 6 if fn == "layer_norm" else 4
        w = T.tensor(r.standard_normal(n)).to(getattr(T, dn)).requires_grad_()
        b = T.tensor(r.standard_normal(n)).to(getattr(T, dn)).requires_grad_()
        F = T.nn.functional
        y = (F.layer_norm(x, (6,), w, b) if fn == "layer_norm" else
             F.group_norm(x, 2, w, b) if fn == "group_norm" else
             F.batch_norm(x, None, None, w, b, training=True))
        y.backward(T.tensor(r.standard_normal(tuple(y.shape))).to(y.dtype))
        got.append([t.detach().float().numpy() for t in (x.grad, w.grad, b.grad)])
    ulp = 2.0 ** (-10 if dn == "float16" else -7)
    for a, t in zip(*got):
        assert np.max(np.abs(a - t) / np.maximum(np.abs(t), 1e-3)) <= 4 * ulp
