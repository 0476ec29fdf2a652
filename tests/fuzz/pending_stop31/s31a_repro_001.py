"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:

Not equal to tolerance rtol=1e-12, atol=1e-12
final v1['tangent']['value']
nan location mismatch:
 ACTUAL: array([nan, nan, nan])
 DESIRED: array([  nan, 0.319,   nan])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.764, inf, 0.979], [2.241, 1.868, -0.977], [0.95, -0.151, -0.103]], dtype='float64').reshape((3, 3)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528], [-1.073, 0.865, -2.302], [1.745, -0.761, 0.319]], dtype='float64').reshape((3, 3)), dtype=v0.dtype))
    v1 = v0.svd()[1]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.764, inf, 0.979], [2.241, 1.868, -0.977], [0.95, -0.151, -0.103]], dtype='float64').reshape((3, 3)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528], [-1.073, 0.865, -2.302], [1.745, -0.761, 0.319]], dtype='float64').reshape((3, 3)), dtype=v0.dtype))",
    'v1 = v0.svd()[1]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
