"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v0.pinverse()

Not equal to tolerance rtol=2e-06, atol=2.42158
line 4['ok']
Mismatched elements: 6 / 6 (100%)
First 5 mismatches are at indices:
 [0, 0]: -2521755.5 (ACTUAL), -2421583.0 (DESIRED)
 [0, 1]: 1260877.625 (ACTUAL), 1210791.5 (DESIRED)
 [0, 2]: 1260877.875 (ACTUAL), 1210791.375 (DESIRED)
 [1, 0]: 2521755.25 (ACTUAL), 2421583.0 (DESIRED)
 [1, 1]: -1260877.125 (ACTUAL), -1210791.125 (DESIRED)
Max absolute difference among violations: 100172.5
Max relative difference among violations: 0.04136687
 ACTUAL: array([[-2.521756e+06,  1.260878e+06,  1.260878e+06],
       [ 2.521755e+06, -1.260877e+06, -1.260878e+06]], dtype=float32)
 DESIRED: array([[-2.421583e+06,  1.210792e+06,  1.210791e+06],
       [ 2.421583e+06, -1.210791e+06, -1.210791e+06]], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(2, 3), values=array([[-2.5217555e+06,  1.2608776e+06,  1.2608779e+06],
       [ 2.5217552e+06, -1.2608771e+06, -1.2608775e+06]], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(2, 3), values=array([[-2.4215830e+06,  1.2107915e+06,  1.2107914e+06],
       [ 2.4215830e+06, -1.2107911e+06, -1.2107909e+06]], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495], [1.8680000305175781, -0.9769999980926514]], dtype='float32').reshape((3, 2)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073], [0.865, -2.302]], dtype='float64').reshape((3, 2)), dtype=v0.dtype))
    v1 = v0.fill_(1.5)
    v2 = v0.pinverse()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495], [1.8680000305175781, -0.9769999980926514]], dtype='float32').reshape((3, 2)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073], [0.865, -2.302]], dtype='float64').reshape((3, 2)), dtype=v0.dtype))",
    'v1 = v0.fill_(1.5)',
    'v2 = v0.pinverse()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
