"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v3 = torch.vmap(_seg)(v0)

Not equal to tolerance rtol=1e-12, atol=1e-12
line 5['ok']
Mismatched elements: 1 / 1 (100%)
Mismatch at index:
 [0]: -0.24391032961241138 (ACTUAL), -0.22839467494509957 (DESIRED)
Max absolute difference among violations: 0.01551565
Max relative difference among violations: 0.06793352
 ACTUAL: array([-0.24391])
 DESIRED: array([-0.228395])
  autotensor: {'ok': TensorSummary(dtype='float64', shape=(1,), values=array([-0.24391033]), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float64', shape=(1,), values=array([-0.22839467]), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.624], dtype='float64').reshape((1,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.417], dtype='float64').reshape((1,)), dtype=v0.dtype))
    v0.div_(0.1)
    v2 = v0.sinh_()
    v3 = torch.vmap(_seg)(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.624], dtype='float64').reshape((1,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.417], dtype='float64').reshape((1,)), dtype=v0.dtype))",
    'v0.div_(0.1)',
    'v2 = v0.sinh_()',
    'v3 = torch.vmap(_seg)(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
