"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v5.sum().backward()
line 8: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='ZeroDivisionError', message='float division by zero')}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = torch.nn.functional.layer_norm(v0, v0.shape[-1:])
    v4 = v0.exp()
    v5 = torch.autograd.grad(v3.sum(), [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]
    v5.sum().backward()
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
    'v4 = v0.exp()',
    'v5 = torch.autograd.grad(v3.sum(), [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]',
    'v5.sum().backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
