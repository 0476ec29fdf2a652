"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v3 = torch.autograd.grad(v2.sum(), [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]
line 5['ok']: grad_fn CatBackward0 != torch's AddBackward0
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(0, 1), values=array([], shape=(0, 1), dtype=float32), requires_grad=True, grad_fn='CatBackward0')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(0, 1), values=array([], shape=(0, 1), dtype=float32), requires_grad=True, grad_fn='AddBackward0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 1)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 1)), dtype=v0.dtype))
    v1 = v0.matmul(v0)
    v2 = v0.qr()[1]
    v3 = torch.autograd.grad(v2.sum(), [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 1)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 1)), dtype=v0.dtype))",
    'v1 = v0.matmul(v0)',
    'v2 = v0.qr()[1]',
    'v3 = torch.autograd.grad(v2.sum(), [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
