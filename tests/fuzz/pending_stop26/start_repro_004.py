"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v2 = v1.prod()
line 5: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message="view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.")}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(0., dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[1.7640000581741333, 0.9789999723434448], [0.4000000059604645, 0.0]], dtype='float32').reshape((2, 2))).transpose(0, 1).detach()
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v1.dtype))
    v2 = v1.prod()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[1.7640000581741333, 0.9789999723434448], [0.4000000059604645, 0.0]], dtype='float32').reshape((2, 2))).transpose(0, 1).detach()",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v1.dtype))",
    'v2 = v1.prod()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
