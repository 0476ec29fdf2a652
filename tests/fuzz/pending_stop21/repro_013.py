"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v5 = v2.kron(torch.ones(2))
line 7: keys ['ok'] != ['raised']
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(2, 4), values=array([[1.764, 1.764, 0.4  , 0.4  ],
       [0.979, 0.979, 2.241, 2.241]], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'raised': Raised(type_name='RuntimeError', message="view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.")}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333, 0.9789999723434448], [0.4000000059604645, 2.240999937057495]], dtype='float32').reshape((2, 2))).transpose(0, 1).detach()
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.diff(0, 0)
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v2.kron(torch.ones(2))
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333, 0.9789999723434448], [0.4000000059604645, 2.240999937057495]], dtype='float32').reshape((2, 2))).transpose(0, 1).detach()",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.diff(0, 0)',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v2.kron(torch.ones(2))',
]

if __name__ == "__main__":
    run_and_compare(LINES)
