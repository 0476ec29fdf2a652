"""Fuzz stop 23 (helper fz8a): the autograd-graph / views / forward-AD classes, each as its
reproducer (tests/fuzz/pending_stop2*) and a differential sweep of its neighbours against
PyTorch. Every test compares with torch, so the file needs it."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

LEVEL = "torch.autograd.forward_ad.enter_dual_level()"
LEAF = "v0 = torch.tensor(np.array(1.764, dtype='float32'), requires_grad=True)"
DUAL = "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(1.624, dtype=v0.dtype))"

FINDINGS = {
    # maximum's backward is where(...).masked_fill_(...): the graph of a double backward
    "double backward through maximum(v0, v0) (s23 start_repro_003)":
        [LEVEL, LEAF, DUAL, "v2 = v0.maximum(v0)", "v6 = v2.exp()",
         "v7 = torch.autograd.grad(v6, [v0], create_graph=True)[0]"],
    # a stale no_grad view as a root of backward: its grad_fn (the view error) first
    "backward of a no_grad view whose base was written in place (s23 start_repro_005)":
        [LEVEL, LEAF, DUAL, "v1 = v0.exp()", "with torch.no_grad():\n    v2 = v1.transpose(0, 0)",
         "v1.add_(v0)", "v2.backward()"],
}


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_fuzz_finding(name):
    from tests.fuzz.core import run_and_compare
    try:
        run_and_compare(FINDINGS[name])
    finally:
        if autotensor.autograd.forward_ad._current[0] >= 0:
            autotensor.autograd.forward_ad.exit_dual_level()


def _both(fn):
    """fn(lib) on autotensor and on torch: (ours, theirs), each a result or an error."""
    out = []
    for lib in (autotensor, torch):
        try:
            out.append(fn(lib))
        except Exception as e:  # noqa: BLE001
            out.append(f"{type(e).__name__}: {e}")
    return out


def _graph(fn, depth=0):
    """The names of the graph under fn, to four levels."""
    if fn is None:
        return None
    if depth == 4:
        return fn.name()
    return (fn.name(), tuple(_graph(n, depth + 1) for n, _ in fn.next_functions))


# ---- the graph of a double backward of the max/min family (PyTorch's formulas) ----------
MAX_MIN = {
    "maximum": lambda L, a, b: L.maximum(a, b), "minimum": lambda L, a, b: L.minimum(a, b),
    "max_binary": lambda L, a, b: L.max(a, b), "min_binary": lambda L, a, b: L.min(a, b),
    "fmax": lambda L, a, b: L.fmax(a, b), "fmin": lambda L, a, b: L.fmin(a, b),
    "fmax_method": lambda L, a, b: a.fmax(b), "maximum_bcast": lambda L, a, b: L.maximum(a, b[:1]),
    "max": lambda L, a, b: a.max() * b, "min": lambda L, a, b: a.min() * b,
    "median": lambda L, a, b: a.median() * b, "nanmedian": lambda L, a, b: a.nanmedian() * b,
    "amax": lambda L, a, b: a.amax() * b, "amin_0": lambda L, a, b: a.amin(0) * b,
    "amax_keepdim": lambda L, a, b: a.amax(0, keepdim=True) * b,
    "amax_empty_dims": lambda L, a, b: L.amax(a, (), True) * b,
    "aminmax": lambda L, a, b: sum(L.aminmax(a)) * b,
    "aminmax_0": lambda L, a, b: sum(L.aminmax(a, dim=0)) * b,
    "clamp_min_tensor": lambda L, a, b: L.clamp_min(a, b),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", sorted(MAX_MIN))
def test_max_min_double_backward_graph_as_torch(op, dtype):
    """Values, gradients and the graph of the gradients, with ties and a NaN (fmax/fmin)."""
    def run(lib):
        nan = float("nan") if op.startswith("f") else 0.5
        a = lib.tensor(np.array([1.0, 2.0, 3.0, 2.0], dtype), requires_grad=True)
        b = lib.tensor(np.array([2.0, 2.0, 1.0, nan], dtype), requires_grad=True)
        y = MAX_MIN[op](lib, a, b)
        gs = lib.autograd.grad((y.exp() * y).sum(), [a, b], create_graph=True,
                               allow_unused=True)
        gg = lib.autograd.grad(sum(g.sum() for g in gs if g is not None), [a, b],
                               allow_unused=True)
        return ([_graph(g.grad_fn) if g is not None else None for g in gs],
                [None if g is None else g.tolist() for g in gs + gg])
    ours, theirs = _both(run)
    assert ours == theirs


# ---- a no_grad view as a root of backward / grad, after its base or a sibling changed ----
NO_GRAD_VIEWS = {
    "transpose": lambda b: b.transpose(0, 1), "split": lambda b: b.split(1, 0)[0],
    "unbind": lambda b: b.unbind(0)[0], "view": lambda b: b.view(-1), "index": lambda b: b[0],
    "narrow": lambda b: b.narrow(0, 0, 1), "diagonal": lambda b: b.diagonal(),
    "detach": lambda b: b.detach()}
WRITES = {"base_add_": lambda L, b: b.add_(1.0), "sibling_mul_": lambda L, b: b[1].mul_(2.0),
          "none": lambda L, b: None}
ROOTS = {
    "backward": lambda L, v, x: v.backward(L.ones_like(v)),
    "backward_implicit": lambda L, v, x: v.backward(),
    "grad": lambda L, v, x: L.autograd.grad(v, [x], L.ones_like(v)),
    "second_root": lambda L, v, x: L.autograd.backward([x.sum(), v], [None, L.ones_like(v)])}


@pytest.mark.parametrize("root", sorted(ROOTS))
@pytest.mark.parametrize("write", sorted(WRITES))
@pytest.mark.parametrize("view", sorted(NO_GRAD_VIEWS))
def test_no_grad_view_as_root_as_torch(view, write, root):
    """PyTorch's gradient_edge reads the root's grad_fn, so a stale view raises its view
    error before "does not require grad" (or the non-scalar error, read before both)."""
    def run(lib):
        x = lib.tensor(np.arange(4.0).reshape(2, 2), requires_grad=True)
        b = x * 1
        with lib.no_grad():
            v = NO_GRAD_VIEWS[view](b)
        WRITES[write](lib, b)
        ROOTS[root](lib, v, x)
        return None if x.grad is None else x.grad.tolist()
    ours, theirs = _both(run)
    assert ours == theirs
