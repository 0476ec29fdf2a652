"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v4 = torch.autograd.grad(v3.sum(), [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]
line 6['ok']: grad_fn MulBackward0 != torch's NativeLayerNormBackwardBackward0
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(0,), values=array([], dtype=float32), requires_grad=True, grad_fn='MulBackward0')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(0,), values=array([], dtype=float32), requires_grad=True, grad_fn='NativeLayerNormBackwardBackward0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = torch.nn.functional.layer_norm(v0, v0.shape[-1:])
    v4 = torch.autograd.grad(v3.sum(), [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = torch.nn.functional.layer_norm(v0, v0.shape[-1:])',
    'v4 = torch.autograd.grad(v3.sum(), [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
