"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:

Not equal to tolerance rtol=1e-12, atol=6.71114e-07
final v2['tangent']['value']
Mismatched elements: 1 / 4 (25%)
Mismatch at index:
 [1, 1]: -671113.8578534462 (ACTUAL), -671113.8578555038 (DESIRED)
Max absolute difference among violations: 2.05764081e-06
Max relative difference among violations: 3.06600853e-12
 ACTUAL: array([[   -978.491839,            nan],
       [  42771.532882, -671113.857853]])
 DESIRED: array([[   -978.491839,            nan],
       [  42771.532882, -671113.857856]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[0.286, -0.157], [0.16, 0.084]], dtype='float64').reshape((2, 2)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[0.088, -0.527], [-0.19, 0.462]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))
    v0.pow_(-1.5)
    v2 = torch.func.grad(lambda t: _seg(t).sum())(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[0.286, -0.157], [0.16, 0.084]], dtype='float64').reshape((2, 2)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[0.088, -0.527], [-0.19, 0.462]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))",
    'v0.pow_(-1.5)',
    'v2 = torch.func.grad(lambda t: _seg(t).sum())(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
