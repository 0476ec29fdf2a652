"""Stop 36 (lead): the fuzzer's reproducers of stop 35's end and this stop, and the classes
behind them, each run on autotensor and PyTorch (tests/fuzz/OPEN_FINDINGS.md, Stop 36)."""
import pathlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_REPRODUCERS = ["pending_stop35/fin_repro_002.py"]


@pytest.mark.parametrize("path", _REPRODUCERS)
def test_fuzzer_reproducers_of_stop_36(path):
    """The reproducers fixed this stop agree with PyTorch."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)


def _det_1x1(mod, dtype, batch, create_graph, dual):
    """A 1x1 det's gradient: PyTorch's is the incoming gradient itself, bit for bit, with its
    tangent and history only (det's own tangent does not reach it)."""
    fw = mod.autograd.forward_ad
    rng = np.random.default_rng(36)
    a = mod.tensor(rng.standard_normal(batch + (1, 1)) * 10, dtype=dtype, requires_grad=True)
    go = mod.tensor(rng.standard_normal(batch), dtype=dtype, requires_grad=create_graph)
    with fw.dual_level():
        x = fw.make_dual(a, mod.full(a.shape, 2.0, dtype=dtype)) if dual else a
        g = mod.tensor(go.detach().numpy(), dtype=dtype)
        if dual:
            g = fw.make_dual(g, mod.full(g.shape, 7.0, dtype=dtype))
        if create_graph:
            g = g + go * 0
        r = mod.linalg.det(x)
        grad = mod.autograd.grad(r, x, g, create_graph=create_graph)[0]
        primal, tangent = fw.unpack_dual(grad)
        return (primal.detach().numpy().tolist(), None if tangent is None
                else tangent.detach().numpy().tolist(), grad.stride(),
                grad.grad_fn and grad.grad_fn.name())


@pytest.mark.parametrize("dual", [False, True])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("batch", [(), (50,)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_det_1x1_gradient_is_the_incoming_gradient(dtype, batch, create_graph, dual):
    got = _det_1x1(autotensor, getattr(autotensor, dtype), batch, create_graph, dual)
    want = _det_1x1(torch, getattr(torch, dtype), batch, create_graph, dual)
    assert got == want
