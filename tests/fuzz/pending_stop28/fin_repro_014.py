"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:
final v1['grad']: requires_grad False != torch's True

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)
    v2 = v0.exp()
    v3 = v1.cummax(-1)[0]
    v4 = v0.exp()
    v3.sum().backward(create_graph=True)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)",
    'v2 = v0.exp()',
    'v3 = v1.cummax(-1)[0]',
    'v4 = v0.exp()',
    'v3.sum().backward(create_graph=True)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
