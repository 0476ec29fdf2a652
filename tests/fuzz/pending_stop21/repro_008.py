"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:
final v3['next']: autotensor gave ['AccumulateGrad'], torch gave [None]

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.transpose(0, 0)
    v4 = v0.detach_()
    v5 = v0.exp_()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.transpose(0, 0)',
    'v4 = v0.detach_()',
    'v5 = v0.exp_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
