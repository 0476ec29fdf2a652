"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:

Not equal to tolerance rtol=2e-06, atol=1.27252e-06
final v0['tangent']['value']
Mismatched elements: 4 / 4 (100%)
Mismatch at indices:
 [0, 0, 0]: 0.0 (ACTUAL), -0.4262383282184601 (DESIRED)
 [0, 0, 1]: -0.3468649387359619 (ACTUAL), -0.3501933515071869 (DESIRED)
 [0, 1, 0]: -0.6194602251052856 (ACTUAL), -1.2725178003311157 (DESIRED)
 [0, 1, 1]: 0.022202247753739357 (ACTUAL), 0.038341984152793884 (DESIRED)
Max absolute difference among violations: 0.65305758
Max relative difference among violations: 1.
 ACTUAL: array([[[ 0.      , -0.346865],
        [-0.61946 ,  0.022202]]])
 DESIRED: array([[[-0.426238, -0.350193],
        [-1.272518,  0.038342]]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]]], dtype='float32').reshape((1, 2, 2)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.624, -0.612], [-0.528, -1.073]]], dtype='float64').reshape((1, 2, 2)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.select(2, 0)
    v0.atan2_(v3)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]]], dtype='float32').reshape((1, 2, 2)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.624, -0.612], [-0.528, -1.073]]], dtype='float64').reshape((1, 2, 2)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.select(2, 0)',
    'v0.atan2_(v3)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
