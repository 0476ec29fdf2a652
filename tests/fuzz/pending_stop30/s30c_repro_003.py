"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v1.pow(1099511627777)

Not equal to tolerance rtol=2e-06, atol=1e-06
line 4['ok']
inf values mismatch:
 ACTUAL: array([-inf,  inf,  inf,  inf, -inf, -inf], dtype=float32)
 DESIRED: array([ inf,  inf,  inf,  inf,  inf, -inf], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(2, 3, 2, 3), values=array([[[[-inf,   0.,   0.],
         [  0.,  -0.,  -0.]],

        [[ -0.,  inf,   0.],
         [  0.,  -0.,  -0.]],

        [[ -0.,   0.,  inf],
         [  0.,  -0.,  -0.]]],


       [[[ -0.,   0.,   0.],
         [ inf,  -0.,  -0.]],

        [[ -0.,   0.,   0.],
         [  0., -inf,  -0.]],

        [[ -0.,   0.,   0.],

  torch:      {'ok': TensorSummary(dtype='float32', shape=(2, 3, 2, 3), values=array([[[[ inf,   0.,   0.],
         [  0.,   0.,   0.]],

        [[  0.,  inf,   0.],
         [  0.,   0.,   0.]],

        [[  0.,   0.,  inf],
         [  0.,   0.,   0.]]],


       [[[  0.,   0.,   0.],
         [ inf,   0.,   0.]],

        [[  0.,   0.,   0.],
         [  0.,  inf,   0.]],

        [[  0.,   0.,   0.],


Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645, 0.9789999723434448], [2.240999937057495, 1.8680000305175781, -0.9769999980926514]], dtype='float32').reshape((2, 3)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528], [-1.073, 0.865, -2.302]], dtype='float64').reshape((2, 3)), dtype=v0.dtype))
    v1 = torch.func.jacrev(_seg)(v0)
    v2 = v1.pow(1099511627777)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645, 0.9789999723434448], [2.240999937057495, 1.8680000305175781, -0.9769999980926514]], dtype='float32').reshape((2, 3)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528], [-1.073, 0.865, -2.302]], dtype='float64').reshape((2, 3)), dtype=v0.dtype))",
    'v1 = torch.func.jacrev(_seg)(v0)',
    'v2 = v1.pow(1099511627777)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
