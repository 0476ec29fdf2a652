"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:

Not equal to tolerance rtol=2e-06, atol=3.99159e+20
final v0['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 1.84467441e+21
Max relative difference among violations: 4.62140054e-06
 ACTUAL: array(3.99161e+26)
 DESIRED: array(3.991592e+26)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(-1.809999942779541, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.306, dtype='float64').reshape(()), dtype=v0.dtype))
    v0 *= v0
    v0.pow_(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(-1.809999942779541, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.306, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v0 *= v0',
    'v0.pow_(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
