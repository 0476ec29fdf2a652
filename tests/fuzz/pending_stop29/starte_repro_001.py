"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v6 = v1.remainder(v2)
line 8: keys ['ok'] != ['raised']
  autotensor: {'ok': TensorSummary(dtype='int32', shape=(1,), values=array([0], dtype=int32), requires_grad=False, grad_fn=None)}
  torch:      {'raised': Raised(type_name='RuntimeError', message='ZeroDivisionError')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([1], dtype='int32').reshape((1,)))
    v2 = torch.tensor(np.array(-9223372036854775808, dtype='int64').reshape(()))
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v1.remainder(v2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([1], dtype='int32').reshape((1,)))",
    "v2 = torch.tensor(np.array(-9223372036854775808, dtype='int64').reshape(()))",
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v1.remainder(v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
