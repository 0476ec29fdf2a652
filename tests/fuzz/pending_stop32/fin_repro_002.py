"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:

Not equal to tolerance rtol=2e-06, atol=7.51516e-05
final v2['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 0.00029755
Max relative difference among violations: 3.95928073e-06
 ACTUAL: array(75.151329)
 DESIRED: array(75.151627)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(-0.3659999966621399, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(-2.123, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.special.log_ndtr(v0)
    v2 = v1.log1p_()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(-0.3659999966621399, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(-2.123, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = torch.special.log_ndtr(v0)',
    'v2 = v1.log1p_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
