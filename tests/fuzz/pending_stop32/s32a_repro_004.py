"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v0.svd()[1]
line 4['ok']: signed zero differs at [1, 1]: autotensor np.float64(-0.0), torch np.float64(0.0)
  autotensor: {'ok': TensorSummary(dtype='float64', shape=(2, 2), values=array([[ 0.4  ,  0.   ],
       [ 0.977, -0.   ]]), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float64', shape=(2, 2), values=array([[0.4  , 0.   ],
       [0.977, 0.   ]]), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[[1.764, 0.4], [0.979, 2.241]], [[1.868, -0.977], [0.95, -0.151]]], dtype='float64').reshape((2, 2, 2)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.624, -0.612], [-0.528, -1.073]], [[0.865, -2.302], [1.745, -0.761]]], dtype='float64').reshape((2, 2, 2)), dtype=v0.dtype))
    v1 = v0.triu_(1)
    v2 = v0.svd()[1]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[[1.764, 0.4], [0.979, 2.241]], [[1.868, -0.977], [0.95, -0.151]]], dtype='float64').reshape((2, 2, 2)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.624, -0.612], [-0.528, -1.073]], [[0.865, -2.302], [1.745, -0.761]]], dtype='float64').reshape((2, 2, 2)), dtype=v0.dtype))",
    'v1 = v0.triu_(1)',
    'v2 = v0.svd()[1]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
