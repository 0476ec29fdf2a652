"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v1.median(2, keepdim=False)[0]
line 4['raised']: autotensor raised NotImplementedError: '"median_out" not implemented for \\'Bool\\''
                  torch raised IndexError: 'Dimension out of range (expected to be in range of [-1, 0], but got 2)'
  autotensor: {'raised': Raised(type_name='NotImplementedError', message='"median_out" not implemented for \\'Bool\\'')}
  torch:      {'raised': Raised(type_name='IndexError', message='Dimension out of range (expected to be in range of [-1, 0], but got 2)')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(True, dtype='bool').reshape(()))
    v2 = v1.median(2, keepdim=False)[0]
"""
import sys

sys.path.insert(0, '/work/main')

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(True, dtype='bool').reshape(()))",
    'v2 = v1.median(2, keepdim=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
