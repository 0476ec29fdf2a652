"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v3.backward()
line 4: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='OverflowError', message='Python integer -7 out of bounds for uint8')}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v2 = torch.tensor(np.array(4, dtype='uint8').reshape(()))
    v3 = v2.addcmul(v0, v2, value=-7)
    v3.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v2 = torch.tensor(np.array(4, dtype='uint8').reshape(()))",
    'v3 = v2.addcmul(v0, v2, value=-7)',
    'v3.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
