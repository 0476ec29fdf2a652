"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v1.view(-1)
line 4: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message="view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.")}
  torch:      {'ok': TensorSummary(dtype='float64', shape=(4,), values=array([ 0.99998925, -0.99998925, -0.99998744,  0.99998744]), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.764, 0.979], [0.4, 2.241]], dtype='float64').reshape((2, 2))).transpose(0, 1).detach()
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))
    v1 = torch.nn.functional.layer_norm(v0, v0.shape[-1:])
    v2 = v1.view(-1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.764, 0.979], [0.4, 2.241]], dtype='float64').reshape((2, 2))).transpose(0, 1).detach()",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))",
    'v1 = torch.nn.functional.layer_norm(v0, v0.shape[-1:])',
    'v2 = v1.view(-1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
