"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:

Not equal to tolerance rtol=2e-06, atol=1e-06
final v5['tangent']['value']
Mismatched elements: 1 / 4 (25%)
Mismatch at index:
 [3]: -1.2027177263007616e-06 (ACTUAL), -0.0 (DESIRED)
Max absolute difference among violations: 1.20271773e-06
Max relative difference among violations: inf
 ACTUAL: array([ 3.231154e-04, -1.674424e-01, -2.714180e-02, -1.202718e-06])
 DESIRED: array([ 0.000323, -0.167442, -0.027142, -0.      ])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, 0.9789999723434448, 2.240999937057495], dtype='float32').reshape((4,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528, -1.073], dtype='float64').reshape((4,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v1.tanh()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, 0.9789999723434448, 2.240999937057495], dtype='float32').reshape((4,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528, -1.073], dtype='float64').reshape((4,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v1.tanh()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
