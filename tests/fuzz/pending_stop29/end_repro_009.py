"""Fuzz reproducer (autotensor vs PyTorch).

line 9: v5 = v2.var(0, keepdim=False)

Not equal to tolerance rtol=2e-06, atol=1e-06
line 9['ok']
Mismatched elements: 2 / 2 (100%)
Mismatch at indices:
 [0]: 6597069766656.0 (ACTUAL), 0.0 (DESIRED)
 [1]: 6597069766656.0 (ACTUAL), 0.0 (DESIRED)
Max absolute difference among violations: 6.59707e+12
Max relative difference among violations: inf
 ACTUAL: array([6.59707e+12, 6.59707e+12], dtype=float32)
 DESIRED: array([0., 0.], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(2,), values=array([6.59707e+12, 6.59707e+12], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(2,), values=array([0., 0.], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495], [1.8680000305175781, -0.9769999980926514]], dtype='float32').reshape((3, 2)))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073], [0.865, -2.302]], dtype='float64').reshape((3, 2)), dtype=v2.dtype))
    v2.add_(1099511627777)
    v2.xlogy_(v2)
    v5 = v2.var(0, keepdim=False)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495], [1.8680000305175781, -0.9769999980926514]], dtype='float32').reshape((3, 2)))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073], [0.865, -2.302]], dtype='float64').reshape((3, 2)), dtype=v2.dtype))",
    'v2.add_(1099511627777)',
    'v2.xlogy_(v2)',
    'v5 = v2.var(0, keepdim=False)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
