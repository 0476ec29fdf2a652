"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v1.qr()[1]

Not equal to tolerance rtol=2e-06, atol=7.05285e-06
line 4['ok']
Mismatched elements: 1 / 2 (50%)
Mismatch at index:
 [1, 0, 0, 0]: 1.5795636177062988 (ACTUAL), -1.5795636177062988 (DESIRED)
Max absolute difference among violations: 3.1591272
Max relative difference among violations: 2.
 ACTUAL: array([[[[-7.052847]]],


       [[[ 1.579564]]]], dtype=float32)
 DESIRED: array([[[[-7.052847]]],


       [[[-1.579564]]]], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(2, 1, 1, 1), values=array([[[[-7.0528474]]],


       [[[ 1.5795636]]]], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(2, 1, 1, 1), values=array([[[[-7.0528474]]],


       [[[-1.5795636]]]], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645]], dtype='float32').reshape((2, 1)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624], [-0.612]], dtype='float64').reshape((2, 1)), dtype=v0.dtype))
    v1 = torch.func.jacrev(_seg)(v0)
    v2 = v1.qr()[1]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645]], dtype='float32').reshape((2, 1)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624], [-0.612]], dtype='float64').reshape((2, 1)), dtype=v0.dtype))",
    'v1 = torch.func.jacrev(_seg)(v0)',
    'v2 = v1.qr()[1]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
