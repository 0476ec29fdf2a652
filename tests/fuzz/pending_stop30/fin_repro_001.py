"""Fuzz reproducer (autotensor vs PyTorch).

line 10: v7 = v4.view(-1)
line 10: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message="view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.")}
  torch:      {'ok': TensorSummary(dtype='bool', shape=(4,), values=array([ True,  True,  True,  True]), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[[1.7640000581741333], [0.9789999723434448]], [[0.4000000059604645], [2.240999937057495]]], dtype='float32').reshape((2, 2, 1))).transpose(0, 1).detach()
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[[1.624], [-0.612]], [[-0.528], [-1.073]]], dtype='float64').reshape((2, 2, 1)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v0.floor_divide(v0)
    v4 = v1.all(2, keepdim=False)
    v5 = v0.exp()
    v6 = v0.exp()
    v7 = v4.view(-1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[[1.7640000581741333], [0.9789999723434448]], [[0.4000000059604645], [2.240999937057495]]], dtype='float32').reshape((2, 2, 1))).transpose(0, 1).detach()",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[[1.624], [-0.612]], [[-0.528], [-1.073]]], dtype='float64').reshape((2, 2, 1)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v0.floor_divide(v0)',
    'v4 = v1.all(2, keepdim=False)',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'v7 = v4.view(-1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
