"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v2.backward()
line 5: keys ['ok'] != ['raised']
  autotensor: {'ok': None}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = torch.tensor(np.array(True, dtype='bool').reshape(()))
    v2 = v0.logaddexp(v1)
    v3 = v0.exp()
    v4 = v0.exp()
    v2.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v1 = torch.tensor(np.array(True, dtype='bool').reshape(()))",
    'v2 = v0.logaddexp(v1)',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v2.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
