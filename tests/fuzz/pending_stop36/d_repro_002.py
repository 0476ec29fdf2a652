"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1 = torch.nn.functional.unfold(v0, kernel_size=1)
line 3['raised']: autotensor raised IndexError: 'Dimension specified as -1 but tensor has no dimensions'
                  torch raised IndexError: 'Dimension specified as 1 but tensor has no dimensions'
  autotensor: {'raised': Raised(type_name='IndexError', message='Dimension specified as -1 but tensor has no dimensions')}
  torch:      {'raised': Raised(type_name='IndexError', message='Dimension specified as 1 but tensor has no dimensions')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.nn.functional.unfold(v0, kernel_size=1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = torch.nn.functional.unfold(v0, kernel_size=1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
