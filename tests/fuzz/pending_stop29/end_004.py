"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v6 = torch.autograd.grad(v4.sum(), [v1], retain_graph=False, create_graph=True, allow_unused=False)[0]
line 8['ok']: grad_fn AsStridedBackwardBackward0 != torch's AsStridedBackward0
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(), values=array(117180.15, dtype=float32), requires_grad=True, grad_fn='AsStridedBackwardBackward0')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(117180.15, dtype=float32), requires_grad=True, grad_fn='AsStridedBackward0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v1.view(-1)
    v3 = _Dirty.apply(v1)
    v4 = v2.exp()
    v5 = v0.exp()
    v6 = torch.autograd.grad(v4.sum(), [v1], retain_graph=False, create_graph=True, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v1.view(-1)',
    'v3 = _Dirty.apply(v1)',
    'v4 = v2.exp()',
    'v5 = v0.exp()',
    'v6 = torch.autograd.grad(v4.sum(), [v1], retain_graph=False, create_graph=True, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
