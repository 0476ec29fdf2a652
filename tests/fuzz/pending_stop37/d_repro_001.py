"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:
final v2['next']: autotensor gave ['AccumulateGrad'], torch gave [None]

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0))).transpose(0, 1).detach()
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v0.dtype))
    v1 = v0.requires_grad_()
    v2 = v0.view_as(v0); v2.retain_grad()
    v3 = _Dirty.apply(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0))).transpose(0, 1).detach()",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v0.dtype))",
    'v1 = v0.requires_grad_()',
    'v2 = v0.view_as(v0); v2.retain_grad()',
    'v3 = _Dirty.apply(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
