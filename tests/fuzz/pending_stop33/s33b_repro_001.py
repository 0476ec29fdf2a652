"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:

Not equal to tolerance rtol=2e-06, atol=1e-06
final v2['tangent']['value']
nan location mismatch:
 ACTUAL: array([[-2.296683e+00,  8.654987e-01],
       [ 0.000000e+00,  9.470554e-09]])
 DESIRED: array([[nan, nan],
       [nan, nan]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))
    v1 = v0.expand(2, *v0.shape)
    v2 = v1.qr()[1]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))",
    'v1 = v0.expand(2, *v0.shape)',
    'v2 = v1.qr()[1]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
