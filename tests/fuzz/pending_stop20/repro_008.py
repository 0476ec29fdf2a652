"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v3 = v0.igamma(v2)

Not equal to tolerance rtol=2e-06, atol=1e-06
line 3['ok']
nan location mismatch:
 ACTUAL: array([nan], dtype=float32)
 DESIRED: array([0.], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(1,), values=array([nan], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(1,), values=array([0.], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array([inf], dtype='float32').reshape((1,)))
    v1 = v0.exp()
    v2 = v0.sin()
    v3 = v0.igamma(v2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array([inf], dtype='float32').reshape((1,)))",
    'v1 = v0.exp()',
    'v2 = v0.sin()',
    'v3 = v0.igamma(v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
