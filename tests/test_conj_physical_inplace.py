"""conj_physical_: in place, recorded (ConjPhysicalBackward1) for real tensors too, the
leaf error, gradients and tangents as PyTorch's."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")


def _scenario(T):
    out = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    try:
        x.conj_physical_()
    except RuntimeError as e:
        out.append(str(e))
    for base in (T.tensor([1.0, -2.0], requires_grad=True),
                 T.tensor([1 + 2j, 3 - 1j], requires_grad=True)):
        y = base * 1
        v = y._version
        r = y.conj_physical_()
        out.append((r is y, y._version - v, y.grad_fn.name(), y.detach().numpy().tolist()))
        y.abs().sum().backward()
        out.append(base.grad.numpy().tolist())
    fa = T.autograd.forward_ad
    with fa.dual_level():
        d = fa.make_dual(T.tensor([1 + 2j, 3 - 1j]), T.tensor([1j, 1 + 0j]))
        d.conj_physical_()
        out.append(np.asarray(fa.unpack_dual(d).tangent.numpy()).tolist())
    out.append(T.conj_physical_(T.tensor([1j, 2 + 0j])).numpy().tolist())
    return out


def test_conj_physical_inplace_as_torch():
    assert _scenario(autotensor) == _scenario(torch)
