"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v5 = torch.autograd.grad(v4.sum(), [v1], retain_graph=False, create_graph=True, allow_unused=False)[0]
line 5['ok']: grad_fn ToCopyBackward0 != torch's SumBackward0
  autotensor: {'ok': TensorSummary(dtype='float64', shape=(), values=array(0.), requires_grad=True, grad_fn='ToCopyBackward0')}
  torch:      {'ok': TensorSummary(dtype='float64', shape=(), values=array(0.), requires_grad=True, grad_fn='SumBackward0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 1)))
    v1 = torch.tensor(np.array(1.764, dtype='float64').reshape(()), requires_grad=True)
    v2 = v0.matmul(v0)
    v0.copy_(v1)
    v4 = v0.exp()
    v5 = torch.autograd.grad(v4.sum(), [v1], retain_graph=False, create_graph=True, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 1)))",
    "v1 = torch.tensor(np.array(1.764, dtype='float64').reshape(()), requires_grad=True)",
    'v2 = v0.matmul(v0)',
    'v0.copy_(v1)',
    'v4 = v0.exp()',
    'v5 = torch.autograd.grad(v4.sum(), [v1], retain_graph=False, create_graph=True, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
