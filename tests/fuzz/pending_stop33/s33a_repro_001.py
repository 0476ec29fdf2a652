"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2.backward()
line 4: keys ['ok'] != ['raised']
  autotensor: {'ok': None}
  torch:      {'raised': Raised(type_name='RuntimeError', message='grad can be implicitly created only for real scalar outputs but got torch.int64')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v2 = torch.tensor(np.array([1], dtype='int64').reshape((1,)))
    v2[...] = v0
    v2.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v2 = torch.tensor(np.array([1], dtype='int64').reshape((1,)))",
    'v2[...] = v0',
    'v2.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
