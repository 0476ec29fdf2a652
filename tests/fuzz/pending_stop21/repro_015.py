"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v5 = v2.median(0, keepdim=False)[0]

Not equal to tolerance rtol=2e-06, atol=1e-06
line 8['ok']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 1.
Max relative difference among violations: inf
 ACTUAL: array(1., dtype=float32)
 DESIRED: array(3.0746e-41, dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(), values=array(1., dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(3.0746e-41, dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))
    v1 = v0.exp()
    v0.sum().backward()
    v2 = torch.autograd.grad(v0.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v2.median(0, keepdim=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v0.sum().backward()',
    'v2 = torch.autograd.grad(v0.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v2.median(0, keepdim=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
