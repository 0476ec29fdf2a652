"""Fuzz reproducer (autotensor vs PyTorch).

line 9: v7 = v6.logsumexp(0, keepdim=False)
line 9['ok']: signed zero differs at []: autotensor np.float32(-0.0), torch np.float32(0.0)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(), values=array(-0., dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(0., dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(-0.4169999957084656, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.789, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v0.trunc()
    v7 = v6.logsumexp(0, keepdim=False)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(-0.4169999957084656, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.789, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v0.trunc()',
    'v7 = v6.logsumexp(0, keepdim=False)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
