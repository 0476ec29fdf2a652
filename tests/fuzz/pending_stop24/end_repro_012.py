"""Fuzz reproducer (autotensor vs PyTorch).

line 11: v9 = v1.bitwise_and(v8)
line 11['ok']: dtype int64 != torch's int32
  autotensor: {'ok': TensorSummary(dtype='int64', shape=(0,), values=array([], dtype=int64), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='int32', shape=(0,), values=array([], dtype=int32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([], dtype='int32').reshape((0,)))
    v2 = v0.exp()
    v3 = v0.median(0, keepdim=False)[1]
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v0.exp()
    v7 = v0.exp()
    v8 = v3.relu()
    v9 = v1.bitwise_and(v8)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([], dtype='int32').reshape((0,)))",
    'v2 = v0.exp()',
    'v3 = v0.median(0, keepdim=False)[1]',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'v7 = v0.exp()',
    'v8 = v3.relu()',
    'v9 = v1.bitwise_and(v8)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
