"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1 = torch.nn.functional.conv1d(v0, v0)
line 3['raised']: autotensor raised ValueError: 'cannot reshape array of size 0 into shape (1,newaxis,0)'
                  torch raised RuntimeError: 'Only zero batch or zero channel inputs are supported, but got input shape: [1, 1, 1, 0]'
  autotensor: {'raised': Raised(type_name='ValueError', message='cannot reshape array of size 0 into shape (1,newaxis,0)')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Only zero batch or zero channel inputs are supported, but got input shape: [1, 1, 1, 0]')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[[]]], dtype='float32').reshape((1, 1, 0)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[]]], dtype='float64').reshape((1, 1, 0)), dtype=v0.dtype))
    v1 = torch.nn.functional.conv1d(v0, v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[[]]], dtype='float32').reshape((1, 1, 0)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[]]], dtype='float64').reshape((1, 1, 0)), dtype=v0.dtype))",
    'v1 = torch.nn.functional.conv1d(v0, v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
