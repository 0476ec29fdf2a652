"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v5 = v4.sin()

Not equal to tolerance rtol=2e-06, atol=1e-06
line 7['ok']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 3.0308962e-05
Max relative difference among violations: 0.00025801
 ACTUAL: array(0.11744, dtype=float32)
 DESIRED: array(0.11747, dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(), values=array(0.11744014, dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(0.11747045, dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v1.exp()
    v5 = v4.sin()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v1.exp()',
    'v5 = v4.sin()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
