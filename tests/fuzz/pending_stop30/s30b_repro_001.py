"""Fuzz reproducer (autotensor vs PyTorch).

line 9: v7 = v3.eq(v5)

Arrays are not equal
line 9['ok']
Mismatched elements: 1 / 1 (100%)
 ACTUAL: array(True)
 DESIRED: array(False)
  autotensor: {'ok': TensorSummary(dtype='bool', shape=(), values=array(True), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='bool', shape=(), values=array(False), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(-0.417, dtype='float64').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.789, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v1.add(1)
    v4 = v0.unflatten(0, (1, -1))
    v5 = v1.logaddexp2(v1)
    v6 = v0.exp()
    v7 = v3.eq(v5)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(-0.417, dtype='float64').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.789, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v1.add(1)',
    'v4 = v0.unflatten(0, (1, -1))',
    'v5 = v1.logaddexp2(v1)',
    'v6 = v0.exp()',
    'v7 = v3.eq(v5)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
