"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:

Not equal to tolerance rtol=2e-06, atol=1.73323e-06
final v0['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 5.55515289e-05
Max relative difference among violations: 3.2050839e-05
 ACTUAL: array(1.733287)
 DESIRED: array(1.733232)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(0.7549999952316284, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(-0.219, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = torch.cat([v0, v0], dim=-1)
    v3 = v0.select(0, 0)
    v0.backward()
    v4 = v0.polygamma(1)
    v5 = torch.func.grad(lambda t: _seg(t).sum())(v4)
    v0.add_(v5)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(0.7549999952316284, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(-0.219, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = torch.cat([v0, v0], dim=-1)',
    'v3 = v0.select(0, 0)',
    'v0.backward()',
    'v4 = v0.polygamma(1)',
    'v5 = torch.func.grad(lambda t: _seg(t).sum())(v4)',
    'v0.add_(v5)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
