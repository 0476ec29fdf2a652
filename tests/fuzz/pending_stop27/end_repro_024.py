"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:

Not equal to tolerance rtol=2e-06, atol=1e-06
final v2['tangent']['value']
nan location mismatch:
 ACTUAL: array([[nan, nan]])
 DESIRED: array([[      nan, -0.130399]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[-1.0379999876022339, 0.593999981880188]], dtype='float32').reshape((1, 2)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.131, -0.201]], dtype='float64').reshape((1, 2)), dtype=v0.dtype))
    v1 = v0.sqrt_()
    v2 = v0.qr()[1]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[-1.0379999876022339, 0.593999981880188]], dtype='float32').reshape((1, 2)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.131, -0.201]], dtype='float64').reshape((1, 2)), dtype=v0.dtype))",
    'v1 = v0.sqrt_()',
    'v2 = v0.qr()[1]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
