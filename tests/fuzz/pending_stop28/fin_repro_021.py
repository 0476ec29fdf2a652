"""Fuzz reproducer (autotensor vs PyTorch).

line 14: v11 = v4.pinverse()

Not equal to tolerance rtol=2e-06, atol=37.0621
line 14['ok']
Mismatched elements: 4 / 4 (100%)
Mismatch at indices:
 [0, 0]: 0.2499999850988388 (ACTUAL), 37062084.0 (DESIRED)
 [0, 1]: 0.2499999850988388 (ACTUAL), -37062088.0 (DESIRED)
 [1, 0]: 0.2499999850988388 (ACTUAL), -37062080.0 (DESIRED)
 [1, 1]: 0.2499999850988388 (ACTUAL), 37062084.0 (DESIRED)
Max absolute difference among violations: 3.706209e+07
Max relative difference among violations: 1.
 ACTUAL: array([[0.25, 0.25],
       [0.25, 0.25]], dtype=float32)
 DESIRED: array([[ 3.706208e+07, -3.706209e+07],
       [-3.706208e+07,  3.706208e+07]], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(2, 2), values=array([[0.24999999, 0.24999999],
       [0.24999999, 0.24999999]], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(2, 2), values=array([[ 3.7062084e+07, -3.7062088e+07],
       [-3.7062080e+07,  3.7062084e+07]], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]], dtype='float32').reshape((2, 2)), requires_grad=True)
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = torch.autograd.grad(v1.sum(), [v1], retain_graph=False, create_graph=False, allow_unused=False)[0]
    v5 = v0.exp()
    v6 = v0.exp()
    v7 = v0.exp()
    v8 = v0.exp()
    v9 = v0.exp()
    v10 = v0.exp()
    v11 = v4.pinverse()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]], dtype='float32').reshape((2, 2)), requires_grad=True)",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = torch.autograd.grad(v1.sum(), [v1], retain_graph=False, create_graph=False, allow_unused=False)[0]',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'v7 = v0.exp()',
    'v8 = v0.exp()',
    'v9 = v0.exp()',
    'v10 = v0.exp()',
    'v11 = v4.pinverse()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
