"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v4 = torch.where(v2 > 0, v2, v2)
line 4: keys ['ok'] != ['raised']
  autotensor: {'ok': TensorSummary(dtype='int64', shape=(0,), values=array([], dtype=int64), requires_grad=True, grad_fn='WhereBackward0')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Autograd not support dtype: Long')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v2 = torch.tensor(np.array([], dtype='int64').reshape((0,)))
    v2[...] = v0
    v4 = torch.where(v2 > 0, v2, v2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v2 = torch.tensor(np.array([], dtype='int64').reshape((0,)))",
    'v2[...] = v0',
    'v4 = torch.where(v2 > 0, v2, v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
