"""Fuzz reproducer (autotensor vs PyTorch).

final state of v7:

Not equal to tolerance rtol=1e-12, atol=1e-12
final v7['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 1.624
Max relative difference among violations: inf
 ACTUAL: array(1.624)
 DESIRED: array(0.)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.764, dtype='float64').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v0.remainder(1e-310)
    v7 = v6.norm(dim=0, keepdim=False)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.764, dtype='float64').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v0.remainder(1e-310)',
    'v7 = v6.norm(dim=0, keepdim=False)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
