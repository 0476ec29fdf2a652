"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v2 = torch.nn.functional.cross_entropy(v1, v0)
line 5['raised']: autotensor raised RuntimeError: 'Expected target size [0, 0], got []'
                  torch raised RuntimeError: 'ArrayRef: invalid slice, N = 1; size = 0'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='Expected target size [0, 0], got []')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='ArrayRef: invalid slice, N = 1; size = 0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0, 0)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 0, 0)), dtype=v1.dtype))
    v2 = torch.nn.functional.cross_entropy(v1, v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0, 0)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 0, 0)), dtype=v1.dtype))",
    'v2 = torch.nn.functional.cross_entropy(v1, v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
