"""Stop 36 (helper zt36): PyTorch's ZeroTensor tangents in forward over reverse, class by
class, as tests/zero_tangent_sweep.py finds them: each case runs ``autograd.grad`` under a
dual level on autotensor and PyTorch and compares the gradient tangents' sign bits (a zero
tensor comes out +0.0, stored zeros -0.0: the sweep's probe), whether each is a zero
tensor, or the error."""
import numpy as np
import pytest

import autotensor
from tests.zero_tangent_sweep import probe

torch = pytest.importorskip("torch")

_F = "torch.nn.functional."
_BCE_WEIGHT = _F + ("binary_cross_entropy_with_logits(x, o, weight=torch.full(x.shape, 2.0)"
                    ".double(), reduction='sum')")  # (mul_(weight) without grad mode only)
CASES = [
    # fused *_backward kernels (tanh_backward, sigmoid_backward, threshold_backward) compute
    # on the zero tensor materialized
    ("x.tanh()", (), "zt", False), ("x.sigmoid()", (1,), "zt", False),
    ("x.relu()", (1, 1), "zt", False), ("x.tanh_()", (), "zt_graph", False),
    (_F + "threshold(x, 0.4, 0.0)", (), "zt", False),
    # div's rule with a zero-tensor self_t: ZT - y is y * -1
    ("x.atanh()", (), "dual_zt", False), ("x.std()", (3,), "dual_zt", False),
    ("torch.logaddexp(x, o)", (1,), "dual_zt", True),
    # div.Scalar (C++'s tensor / double) has no zero-tensor kernel
    ("torch.special.log_ndtr(x)", (), "zt", False),
    # index_fill / index_put have none either
    ("x.index_fill(-1, torch.tensor([0]), 2.0)", (), "zt", False),
    ("x.index_fill(-1, torch.tensor([0]), 2.0)", (1, 1), "inside", False),
    ("x.index_put((torch.tensor([0]),), torch.tensor(1.0).double())", (1,), "zt", False),
    # xlogy's masks: the zero tensor's term is computed and summed
    ("torch.xlogy(x, 2.0)", (), "zt", False), ("torch.special.xlog1py(x, 2.0)", (1,), "zt", False),
    ("torch.xlogy(x, o)", (3,), "dual_zt", True),
    ("torch.special.xlog1py(x, o)", (), "dual_zt", True),
    # in-place ops on a formula's intermediate refuse a zero-tensor tangent
    ("x.norm(3)", (), "zt", False), ("x.norm(1.5)", (1,), "zt", False),
    (_F + "binary_cross_entropy_with_logits(x, o)", (), "zt", True),
    (_BCE_WEIGHT, (1,), "zt", True), (_BCE_WEIGHT, (), "zt_graph", True),
    (_F + "binary_cross_entropy(x, o)", (), "zt", True),
    (_F + "binary_cross_entropy(x, o, weight=torch.full(x.shape, 2.0).double(), "
     "reduction='sum')", (1, 1), "zt_graph", True),
    # a missing tangent's stored term in smooth_l1_loss_backward's rule
    (_F + "smooth_l1_loss(x, o)", (), "zt", True),
    (_F + "smooth_l1_loss(x, o, reduction='none')", (2, 3), "zt", True),
    # slogdet's solve
    ("torch.linalg.slogdet(x)[1]", (1, 1), "zt", False),
    # not zero-tensor ones, found by the sweep: cdist's backward op has no forward-AD rule;
    # zeta's derivative is derivatives.yaml's not_implemented("zeta")
    ("torch.cdist(x, o)", (1, 1), "zt", True), ("torch.cdist(x, x)", (2, 3), "zt_graph", False),
    ("torch.special.zeta(x + 1, o)", (), "zt", True),
    # the gradient autograd.grad returns keeps its zero-tensor tangent
    ("x.exp()", (), "zt", False), ("x * 2", (1,), "zt", False),
]


@pytest.mark.parametrize("expr,shape,variant,binary", CASES)
def test_zero_tensor_tangents_through_backward_formulas(expr, shape, variant, binary):
    assert probe(autotensor, expr, shape, variant, binary) == \
        probe(torch, expr, shape, variant, binary)


def _returned(mod):
    """What a user does with the gradient: its tangent's kind, ``g * -1``'s tangent sign (a
    zero tensor's product is one: +0.0), and an in-place op on it (refused)."""
    fw = mod.autograd.forward_ad
    with fw.dual_level():
        go = fw.make_dual(mod.zeros(()).double(), mod.ones(()).double()).sgn() * 1
        w = mod.tensor(0.5, dtype=mod.float64, requires_grad=True)
        g = mod.autograd.grad(w.exp(), w, go)[0]
        out = [fw.unpack_dual(g).tangent._is_zerotensor(),
               bool(np.signbit(fw.unpack_dual(g * -1).tangent.clone().detach().numpy()))]
        try:
            g.abs_()
        except RuntimeError as e:
            out.append(str(e))
        return out


def test_returned_gradient_keeps_its_zero_tensor_tangent():
    assert _returned(autotensor) == _returned(torch)
