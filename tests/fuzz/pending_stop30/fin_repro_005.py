"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:

Not equal to tolerance rtol=2e-06, atol=6.748e-06
final v1['value']
Mismatched elements: 2 / 4 (50%)
Mismatch at indices:
 [1, 0]: 2.743000030517578 (ACTUAL), 4.506999969482422 (DESIRED)
 [1, 1]: 3.2199997901916504 (ACTUAL), 6.748000144958496 (DESIRED)
Max absolute difference among violations: 3.5280004
Max relative difference among violations: 0.5228216
 ACTUAL: array([[3.528, 1.379],
       [2.743, 3.22 ]], dtype=float32)
 DESIRED: array([[3.528, 1.379],
       [4.507, 6.748]], dtype=float32)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]], dtype='float32').reshape((2, 2)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v1.select(-1, 0)
    v1.add_(v3)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]], dtype='float32').reshape((2, 2)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v1.select(-1, 0)',
    'v1.add_(v3)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
