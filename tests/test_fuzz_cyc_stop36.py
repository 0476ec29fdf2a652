"""test_no_reference_cycles after an earlier test's garbage (Note [One gc.collect() is not a
clean baseline]), and the check still catching the cycles it is there for."""
import gc
import re
import weakref

import numpy as np
import pytest
import test_engine

import autotensor

torch = pytest.importorskip("torch")


def _failed_gradcheck(m):
    """test_complex's missing-conjugate case: gradcheck of a custom Function fails under
    pytest.raises, whose traceback keeps the frames, and so the tensors, in a cycle."""
    class Holomorphic(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 2 * x

    x = m.tensor(np.array([0.5 + 1.5j, -1.0 + 0.25j]), requires_grad=True)
    with pytest.raises(Exception) as info:
        m.autograd.gradcheck(Holomorphic.apply, (x,), fast_mode=True)
    return type(info.value).__name__


def _garbage_per_pass(m):
    """What successive collections find after the failed gradcheck (gc off meanwhile)."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        assert _failed_gradcheck(m) == "GradcheckError"
        return [gc.collect() for _ in range(3)]
    finally:
        if was_enabled:
            gc.enable()


def test_no_reference_cycles_after_torchs_failed_gradcheck():
    # PyTorch's C++ graph holds the Function's ctx (and through it its classes) out of the
    # collector's sight: they are garbage only after a first pass; ours is gone in one.
    first, second, third = _garbage_per_pass(torch)
    assert first > 0 and second > 0 and third == 0, (first, second, third)
    first, second, third = _garbage_per_pass(autotensor)
    assert first > 0 and second == 0 and third == 0, (first, second, third)
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()  # no automatic collection between the garbage and the check
    try:
        _failed_gradcheck(torch)
        test_engine.test_no_reference_cycles("autotensor")  # found PyTorch's 14 before
        _failed_gradcheck(torch)
        test_engine.test_no_reference_cycles("torch")
    finally:
        if was_enabled:
            gc.enable()


def _tensor_node_cycle(m, refs):
    w = m.tensor(np.array([0.5, -1.0], dtype=np.float32), requires_grad=True)
    out = (w * w).exp()
    out.grad_fn.metadata["out"] = out  # the node holds its own output: a cycle
    out.sum().backward()
    refs.extend([weakref.ref(w), weakref.ref(out)])


def _node_self_cycle(m, refs):
    x = m.tensor(np.array([1.0, 2.0], dtype=np.float32), requires_grad=True)
    y = x * 2
    y.grad_fn.metadata["self"] = y.grad_fn  # x dies by counting, MulBackward0 does not
    refs.append(weakref.ref(y))


def _foreign_cycle(m, refs):
    test_engine._mlp_step(m, refs)
    cycle = []
    cycle.append(cycle)  # no autotensor object in it: the collector's count still sees it


@pytest.mark.parametrize("step, message", [
    (_tensor_node_cycle, "tensors still alive before gc.collect(): ['Tensor(2,)', 'Tensor(2,)']"),
    (_node_self_cycle, "more autotensor objects tracked by gc after the step"),
    (_foreign_cycle, "gc.collect() found 1 unreachable objects"),
])
def test_cycle_check_still_catches_cycles(step, message):
    """The settled baseline collects only before the step: the step's own cycles fail."""
    with pytest.raises(AssertionError, match=re.escape(message)):
        test_engine.cycle_check("autotensor", step)
