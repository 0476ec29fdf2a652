"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1 = v0.index_fill(-1, torch.tensor([0]), 2.0)
line 3: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='IndexError', message='too many indices for array: array is 0-dimensional, but 1 were indexed')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(2., dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.index_fill(-1, torch.tensor([0]), 2.0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.index_fill(-1, torch.tensor([0]), 2.0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
