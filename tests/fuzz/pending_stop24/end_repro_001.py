"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v3 = v2 // 0.1

Not equal to tolerance rtol=0.002, atol=0.009
line 3['ok']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 1.
Max relative difference among violations: 0.1111
 ACTUAL: array(10., dtype=float16)
 DESIRED: array(9., dtype=float16)
  autotensor: {'ok': TensorSummary(dtype='float16', shape=(), values=array(10., dtype=float16), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float16', shape=(), values=array(9., dtype=float16), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.tensor(np.array(1.763671875, dtype='float16').reshape(()))
    v2 = v1 / v1
    v3 = v2 // 0.1
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.tensor(np.array(1.763671875, dtype='float16').reshape(()))",
    'v2 = v1 / v1',
    'v3 = v2 // 0.1',
]

if __name__ == "__main__":
    run_and_compare(LINES)
