"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:

Not equal to tolerance rtol=2e-06, atol=9.47723e-06
final v1['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 368.58398628
Max relative difference among violations: 38.89152308
 ACTUAL: array(378.061218)
 DESIRED: array(9.477232)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    with torch.no_grad():
        v3 = v1.view_as(v1); v3.retain_grad()
    v4 = v0.exp()
    v1.mul_(v3)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'with torch.no_grad():\n    v3 = v1.view_as(v1); v3.retain_grad()',
    'v4 = v0.exp()',
    'v1.mul_(v3)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
