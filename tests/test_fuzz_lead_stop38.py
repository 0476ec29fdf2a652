"""Stop 38 (lead): the fuzzer's reproducers fixed this stop and the probes behind them.

Differential: each scenario runs on autotensor and on torch and must agree."""
import pathlib
import random

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_REPRODUCERS = ["pending_stop37/d_repro_001.py"]


@pytest.mark.parametrize("path", _REPRODUCERS)
def test_fuzzer_reproducers_of_stop_38(path):
    """The reproducers fixed this stop agree with PyTorch."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)


def _chain(t, depth=3):
    def rec(node, d):
        if node is None:
            return None
        if d == 0:
            return type(node).__name__
        return type(node).__name__, [rec(n, d - 1) for n, _ in node.next_functions]
    return rec(t.grad_fn, depth)


def _describe(t):
    try:
        return t.requires_grad, t.is_leaf, _chain(t), t._version
    except RuntimeError as e:
        return "RuntimeError", str(e)


def _views_of_detached(mod, case):
    """A random sequence of views, detach(), make_dual, requires_grad_() and in-place writes
    (under no_grad, or with an input that requires grad) on a tensor that may be detached:
    the requires_grad, leaf-ness, regenerated grad_fn chain and version of every tensor."""
    r = random.Random(case)
    steps = []
    x = mod.ones(4, 3, requires_grad=r.random() < 0.5)
    p = x * 1 if r.random() < 0.5 else x.detach()
    if r.random() < 0.5:
        p = p.t()
    if r.random() < 0.6:
        p = p.detach()
    ts = [p]
    for _ in range(r.randint(1, 7)):
        op = r.choice(["view", "slice", "rg", "nograd_mul", "mul", "detach", "copy", "dual",
                       "add_w"])
        i = r.randrange(len(ts))
        src = ts[i]
        steps.append((op, i))
        try:
            if op == "view":
                ts.append(src.view_as(src))
            elif op == "slice":
                ts.append(src[1:])
            elif op == "rg":
                src.requires_grad_()
            elif op == "nograd_mul":
                with mod.no_grad():
                    src.mul_(2)
            elif op == "mul":
                src.mul_(2)
            elif op == "detach":
                ts.append(src.detach())
            elif op == "add_w":
                src.add_(mod.ones(src.shape, requires_grad=True))
            elif op == "copy":
                src.copy_(mod.ones(src.shape, requires_grad=True))
            else:
                with mod.autograd.forward_ad.dual_level():
                    ts.append(mod.autograd.forward_ad.make_dual(src, mod.zeros(src.shape)))
        except RuntimeError as e:
            steps.append(str(e))
    return steps, [_describe(t) for t in ts]


@pytest.mark.parametrize("block", range(10))
def test_views_of_detached_tensors_are_ordinary_views(block):
    """d_001's class: a view of a detach()ed tensor is an ordinary view of it (PyTorch's
    detach is a non-differentiable view, its views differentiable ones with DEFAULT
    creation): a stale one regenerates AsStridedBackward0 from the detached base (no edge
    while that base does not require grad), and a view without history raises the leaf
    error once its base has one. 127 of 6,000 such programs differed."""
    for case in range(block * 150, (block + 1) * 150):
        assert _views_of_detached(autotensor, case) == _views_of_detached(torch, case), case
