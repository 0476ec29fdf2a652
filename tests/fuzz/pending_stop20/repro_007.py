"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:
final v2['next']: autotensor gave ['AccumulateGrad'], torch gave ['AccumulateGrad', None]

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    with torch.no_grad():
        v1 = _View.apply(v0)
    v2 = v0.floor_divide(v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'with torch.no_grad():\n    v1 = _View.apply(v0)',
    'v2 = v0.floor_divide(v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
