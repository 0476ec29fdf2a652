"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v4 = v3.median()
line 7['ok']: signed zero differs at []: autotensor np.float32(-0.0), torch np.float32(0.0)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(), values=array(-0., dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(0., dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.neg_()
    v0.sum().backward()
    v3 = torch.func.jacrev(_seg)(v0)
    v4 = v3.median()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.neg_()',
    'v0.sum().backward()',
    'v3 = torch.func.jacrev(_seg)(v0)',
    'v4 = v3.median()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
