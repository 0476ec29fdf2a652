"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:
final v3['next']: autotensor gave None (NoneType), torch gave ['AccumulateGrad'] (list)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0))).transpose(0, 1).detach()
    v2 = v0.exp()
    v3 = v1.t()
    v4 = v3.exp_()
    v5 = v1.requires_grad_()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0))).transpose(0, 1).detach()",
    'v2 = v0.exp()',
    'v3 = v1.t()',
    'v4 = v3.exp_()',
    'v5 = v1.requires_grad_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
