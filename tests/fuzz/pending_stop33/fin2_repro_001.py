"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:

Not equal to tolerance rtol=2e-06, atol=1e-06
final v0['grad']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 1.
Max relative difference among violations: 1.
 ACTUAL: array(0., dtype=float32)
 DESIRED: array(1., dtype=float32)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = v0.index_fill(-1, torch.tensor([0]), 2.0)
    v2 = v0.exp()
    v3 = v0.sub(v1)
    v4 = v0.exp()
    v5 = v0.exp()
    v3.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = v0.index_fill(-1, torch.tensor([0]), 2.0)',
    'v2 = v0.exp()',
    'v3 = v0.sub(v1)',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v3.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
