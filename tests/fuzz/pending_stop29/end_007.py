"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:
final v0['grad']: requires_grad True != torch's False

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)
    v1 = v0.neg()
    v2 = v1.unsqueeze(0)
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v1.add_(v0)
    v7 = v2.exp()
    v7.sum().backward(create_graph=True)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)",
    'v1 = v0.neg()',
    'v2 = v1.unsqueeze(0)',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v1.add_(v0)',
    'v7 = v2.exp()',
    'v7.sum().backward(create_graph=True)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
