"""Fuzz reproducer (autotensor vs PyTorch).

line 2: v2 = v1.cummax(2)[0]
line 2: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='IndexError', message='Dimension out of range (expected to be in range of [-1, 0], but got 2)')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(0,), values=array([], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.tensor(np.array([], dtype='float32').reshape((0,)))
    v2 = v1.cummax(2)[0]
"""
import sys

sys.path.insert(0, '/work/main')

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.tensor(np.array([], dtype='float32').reshape((0,)))",
    'v2 = v1.cummax(2)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
