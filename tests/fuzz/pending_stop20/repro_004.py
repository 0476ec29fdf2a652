"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = torch.special.bessel_j0(v1)

Not equal to tolerance rtol=2e-06, atol=1e-06
line 4['ok']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 1.4370481e-06
Max relative difference among violations: 2.0662508
 ACTUAL: array(7.415623e-07, dtype=float32)
 DESIRED: array(-6.954858e-07, dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(), values=array(7.415623e-07, dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(-6.954858e-07, dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1099511627773, dtype='int64').reshape(()))
    v2 = torch.special.bessel_j0(v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1099511627773, dtype='int64').reshape(()))",
    'v2 = torch.special.bessel_j0(v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
