"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v1.pow_(1099511627777)
line 4['raised']: autotensor raised OverflowError: 'Python integer 1099511627777 out of bounds for int32'
                  torch raised RuntimeError: 'value cannot be converted to type int without overflow'
  autotensor: {'raised': Raised(type_name='OverflowError', message='Python integer 1099511627777 out of bounds for int32')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='value cannot be converted to type int without overflow')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1, dtype='int32').reshape(()))
    v1.pow_(1099511627777)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1, dtype='int32').reshape(()))",
    'v1.pow_(1099511627777)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
