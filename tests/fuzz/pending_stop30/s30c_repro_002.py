"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1 = v0.index_fill(-1, torch.tensor([0]), 2.0)
line 3['raised']: autotensor raised RuntimeError: 'setStorage: sizes [1, 1, 1], strides [1, 1, 0], storage offset 0, and itemsize 4 requiring a storage size of 4 are out of bounds for storage of size 0'
                  torch raised RuntimeError: 'setStorage: sizes [1, 1, 1], strides [0, 0, 0], storage offset 0, and itemsize 4 requiring a storage size of 4 are out of bounds for storage of size 0'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='setStorage: sizes [1, 1, 1], strides [1, 1, 0], storage offset 0, and itemsize 4 requiring a storage size of 4 are out of bounds for storage of size 0')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='setStorage: sizes [1, 1, 1], strides [0, 0, 0], storage offset 0, and itemsize 4 requiring a storage size of 4 are out of bounds for storage of size 0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[[]]], dtype='float32').reshape((1, 1, 0))).transpose(0, 1).detach()
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[]]], dtype='float64').reshape((1, 1, 0)), dtype=v0.dtype))
    v1 = v0.index_fill(-1, torch.tensor([0]), 2.0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[[]]], dtype='float32').reshape((1, 1, 0))).transpose(0, 1).detach()",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[]]], dtype='float64').reshape((1, 1, 0)), dtype=v0.dtype))",
    'v1 = v0.index_fill(-1, torch.tensor([0]), 2.0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
