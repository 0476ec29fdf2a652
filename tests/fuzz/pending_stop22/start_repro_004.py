"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:
final v1['value']: requires_grad True != torch's False

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    with torch.no_grad():
        v1 = v0.unsqueeze(0)
    v2 = v0.detach_()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'with torch.no_grad():\n    v1 = v0.unsqueeze(0)',
    'v2 = v0.detach_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
