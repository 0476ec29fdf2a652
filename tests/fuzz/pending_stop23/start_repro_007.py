"""Fuzz reproducer (autotensor vs PyTorch).

line 9: v6 = v4.pow(0.5)
line 9['ok']: signed zero differs at []: autotensor np.float16(-0.0), torch np.float16(0.0)
  autotensor: {'ok': TensorSummary(dtype='float16', shape=(), values=array(-0., dtype=float16), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float16', shape=(), values=array(0., dtype=float16), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(-0.2239990234375, dtype='float16').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(-0.606, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v1.ceil()
    v5 = v0.exp()
    v6 = v4.pow(0.5)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(-0.2239990234375, dtype='float16').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(-0.606, dtype='float64').reshape(()), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v1.ceil()',
    'v5 = v0.exp()',
    'v6 = v4.pow(0.5)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
