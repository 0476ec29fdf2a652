"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:
final v2['next']: autotensor gave None (NoneType), torch gave ['AccumulateGrad'] (list)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = v0.exp()
    v2 = v0.unsqueeze(0)
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v2.exp_()
    v7 = v0.requires_grad_()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    'v1 = v0.exp()',
    'v2 = v0.unsqueeze(0)',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v2.exp_()',
    'v7 = v0.requires_grad_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
