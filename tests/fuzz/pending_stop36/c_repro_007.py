"""Fuzz reproducer (autotensor vs PyTorch).

final state of v8:
final v8['version']: autotensor gave 0, torch gave 1

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v0.add_(v0)
    v0.add_(v0)
    v6 = torch.func.jacrev(_seg)(v0)
    v7 = v0.exp()
    v8 = torch.nn.functional.max_pool1d(v6, kernel_size=2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v0.add_(v0)',
    'v0.add_(v0)',
    'v6 = torch.func.jacrev(_seg)(v0)',
    'v7 = v0.exp()',
    'v8 = torch.nn.functional.max_pool1d(v6, kernel_size=2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
