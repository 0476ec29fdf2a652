"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:
final v3['next']: autotensor gave ['MulBackward1', 'AccumulateGrad'], torch gave ['MulBackward0', 'AccumulateGrad']

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = _Sq.apply(v0)
    v0.backward()
    v2 = v1.exp()
    v3 = torch.autograd.grad(v2, [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = _Sq.apply(v0)',
    'v0.backward()',
    'v2 = v1.exp()',
    'v3 = torch.autograd.grad(v2, [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
