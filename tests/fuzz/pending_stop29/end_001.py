"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = torch.nn.functional.gelu(v1)

Not equal to tolerance rtol=2e-06, atol=1e-06
line 4['ok']
nan location mismatch:
 ACTUAL: array(nan, dtype=float32)
 DESIRED: array(inf, dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(), values=array(nan, dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(inf, dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0 / 1e-310
    v2 = torch.nn.functional.gelu(v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0 / 1e-310',
    'v2 = torch.nn.functional.gelu(v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
