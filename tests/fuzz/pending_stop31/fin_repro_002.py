"""Fuzz reproducer (autotensor vs PyTorch).

line 12: v10 = torch.autograd.grad(v9, [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]
line 12['ok']: grad_fn MulBackward0 != torch's LinalgSolveExBackward0
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(0, 0), values=array([], shape=(0, 0), dtype=float32), requires_grad=True, grad_fn='MulBackward0')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(0, 0), values=array([], shape=(0, 0), dtype=float32), requires_grad=True, grad_fn='LinalgSolveExBackward0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v0.exp()
    v7 = v0.exp()
    v8 = v0.exp()
    v9 = v0.slogdet()[1]
    v10 = torch.autograd.grad(v9, [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'v7 = v0.exp()',
    'v8 = v0.exp()',
    'v9 = v0.slogdet()[1]',
    'v10 = torch.autograd.grad(v9, [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
