"""Custom autograd.Function: no reference cycles, saved tensors released (PITFALLS: ctx)."""
import gc
import weakref

from _gc import collect_until_clean

import autotensor as torch


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)  # saving the output must not make a cycle
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result


def test_custom_function_graph_dies_with_its_tensors():
    collect_until_clean()  # Note [One gc.collect() is not a clean baseline]
    gc.disable()
    try:
        x = torch.tensor([0.5, 1.0], requires_grad=True)
        y = Exp.apply(x)
        node_ref = weakref.ref(y.grad_fn)
        y_ref = weakref.ref(y)
        y.sum().backward()
        assert x.grad.tolist() == y.detach().tolist()
        del y
        assert y_ref() is None and node_ref() is None  # freed by reference counting alone
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_custom_function_saved_tensors_freed_after_backward():
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    y = Exp.apply(x)
    y.sum().backward()
    import pytest
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second"):
        _ = y.grad_fn.saved_tensors
