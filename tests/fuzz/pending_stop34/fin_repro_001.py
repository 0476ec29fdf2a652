"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:

Not equal to tolerance rtol=2e-06, atol=1.22328e-05
final v5['tangent']['value']
Mismatched elements: 1 / 4 (25%)
Mismatch at index:
 [0, 0, 0]: 6.05222225189209 (ACTUAL), 6.0522894859313965 (DESIRED)
Max absolute difference among violations: 6.72340393e-05
Max relative difference among violations: 1.11088605e-05
 ACTUAL: array([[[  6.052222, -12.232798],
        [ -5.668521,  -1.319591]]])
 DESIRED: array([[[  6.052289, -12.232798],
        [ -5.668522,  -1.319591]]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[[0.6710000038146973, 0.7419999837875366, 0.49000000953674316], [-1.6829999685287476, 1.1399999856948853, 1.4809999465942383]]], dtype='float32').reshape((1, 2, 3)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[-1.409, 1.375, -1.622], [-1.523, 0.012, 0.195]]], dtype='float64').reshape((1, 2, 3)), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(1.7640000581741333, dtype=torch.bfloat16, dtype=torch.bfloat16)
    v3 = v0.bmm(torch.tensor(np.array([[[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495], [1.8680000305175781, -0.9769999980926514]]], dtype='float32').reshape((1, 3, 2))))
    v0.add_(v0)
    v5 = torch.vmap(_seg)(v3)
    v5.add_(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[[0.6710000038146973, 0.7419999837875366, 0.49000000953674316], [-1.6829999685287476, 1.1399999856948853, 1.4809999465942383]]], dtype='float32').reshape((1, 2, 3)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[-1.409, 1.375, -1.622], [-1.523, 0.012, 0.195]]], dtype='float64').reshape((1, 2, 3)), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    'v2 = torch.tensor(1.7640000581741333, dtype=torch.bfloat16, dtype=torch.bfloat16)',
    "v3 = v0.bmm(torch.tensor(np.array([[[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495], [1.8680000305175781, -0.9769999980926514]]], dtype='float32').reshape((1, 3, 2))))",
    'v0.add_(v0)',
    'v5 = torch.vmap(_seg)(v3)',
    'v5.add_(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
