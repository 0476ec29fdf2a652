"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1.atan2_(v0)
line 3['raised']: autotensor raised RuntimeError: "result type Float can't be cast to the desired output type Long"
                  torch raised RuntimeError: 'Autograd not support dtype: Long'
  autotensor: {'raised': Raised(type_name='RuntimeError', message="result type Float can't be cast to the desired output type Long")}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Autograd not support dtype: Long')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = torch.tensor(np.array([], dtype='int64').reshape((0,)))
    v1[...] = v0
    v1.atan2_(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v1 = torch.tensor(np.array([], dtype='int64').reshape((0,)))",
    'v1[...] = v0',
    'v1.atan2_(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
