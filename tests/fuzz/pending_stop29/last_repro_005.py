"""Fuzz reproducer (autotensor vs PyTorch).

line 10: v6.backward()
line 10: keys ['ok'] != ['raised']
  autotensor: {'ok': None}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.eq(v0)
    v4 = v0.exp()
    v5 = v0.logical_and(1)
    v6 = v0.pow(v3)
    v7 = v0.exp()
    v8 = v0.exp()
    v9 = v0.exp()
    v6.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.eq(v0)',
    'v4 = v0.exp()',
    'v5 = v0.logical_and(1)',
    'v6 = v0.pow(v3)',
    'v7 = v0.exp()',
    'v8 = v0.exp()',
    'v9 = v0.exp()',
    'v6.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
