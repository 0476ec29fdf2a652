"""The double-backward graph of sum/mean over dims: PyTorch's sum_backward unsqueezes the
gradient once per reduced dim (sorted) before expanding, so create_graph records
UnsqueezeBackward0 nodes, not a ViewBackward0 (s23 end_repro_001, empty and non-empty)."""
import warnings

import pytest

import autotensor

CASES = [((3,), 0), ((0,), 0), ((2, 3), 1), ((2, 0), 1), ((0, 3), 0), ((2, 3, 4), (0, 2)),
         ((2, 0, 4), (0, 2)), ((0, 3), (0, 1)), ((1, 3), 0), ((2, 3, 4), (-1, 0))]


def _chain(torch, shape, dims, op):
    x = torch.ones(shape, dtype=torch.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (a mean of an empty slice)
        y = getattr(x, op)(dims).exp().sum()
        g = torch.autograd.grad(y, [x], create_graph=True)[0]
    names, fn = [], g.grad_fn
    while fn is not None and len(names) < 8:
        names.append(type(fn).__name__)
        nxt = [f for f, _ in fn.next_functions if f is not None]
        fn = nxt[0] if nxt else None
    return names, g.detach().numpy().tolist()


@pytest.mark.parametrize("op", ["sum", "mean", "nansum"])
@pytest.mark.parametrize("shape,dims", CASES)
def test_reduction_double_backward_graph_matches_torch(shape, dims, op):
    torch = pytest.importorskip("torch")
    assert _chain(autotensor, shape, dims, op) == _chain(torch, shape, dims, op)
