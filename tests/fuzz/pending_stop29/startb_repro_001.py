"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:
final v0['grad']: autotensor gave TensorSummary(dtype='float32', shape=(), values=array(5.835734, dtype=float32), requires_grad=False, grad_fn=None), torch gave None

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = v0.exp()
    v2 = v0.detach_()
    v1.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = v0.exp()',
    'v2 = v0.detach_()',
    'v1.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
