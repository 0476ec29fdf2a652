"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1 = torch.special.bessel_j0(v0)

Not equal to tolerance rtol=1e-12, atol=1e-12
line 3['ok']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 3.53722607e-11
Max relative difference among violations: 1.01710423e-10
 ACTUAL: array(-0.347774)
 DESIRED: array(-0.347774)
  autotensor: {'ok': TensorSummary(dtype='float64', shape=(), values=array(-0.3477742), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float64', shape=(), values=array(-0.3477742), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(-3.316, dtype='float64').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.9, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.special.bessel_j0(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(-3.316, dtype='float64').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.9, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = torch.special.bessel_j0(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
