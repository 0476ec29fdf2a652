"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v6 = v3.inverse()

Not equal to tolerance rtol=2e-06, atol=95.9426
line 8['ok']
Mismatched elements: 9 / 9 (100%)
First 5 mismatches are at indices:
 [0, 0]: 18415222.0 (ACTUAL), 24654208.0 (DESIRED)
 [0, 1]: -20005878.0 (ACTUAL), -26783774.0 (DESIRED)
 [0, 2]: -25007256.0 (ACTUAL), -33479592.0 (DESIRED)
 [1, 0]: -20005878.0 (ACTUAL), -38468412.0 (DESIRED)
 [1, 1]: 75885320.0 (ACTUAL), 95942600.0 (DESIRED)
Max absolute difference among violations: 2.5071506e+07
Max relative difference among violations: 0.83256334
 ACTUAL: array([[ 1.841522e+07, -2.000588e+07, -2.500726e+07],
       [-2.000588e+07,  7.588532e+07,  5.042126e+06],
       [-2.500726e+07,  5.042126e+06,  4.299893e+07]], dtype=float32)
 DESIRED: array([[ 2.465421e+07, -2.678377e+07, -3.347959e+07],
       [-3.846841e+07,  9.594260e+07,  3.011363e+07],
       [-2.870548e+07,  9.059791e+06,  4.802099e+07]], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(3, 3), values=array([[ 1.8415222e+07, -2.0005878e+07, -2.5007256e+07],
       [-2.0005878e+07,  7.5885320e+07,  5.0421255e+06],
       [-2.5007256e+07,  5.0421255e+06,  4.2998928e+07]], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(3, 3), values=array([[ 2.4654208e+07, -2.6783774e+07, -3.3479592e+07],
       [-3.8468412e+07,  9.5942600e+07,  3.0113632e+07],
       [-2.8705478e+07,  9.0597910e+06,  4.8020992e+07]], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, 0.9789999723434448], dtype='float32').reshape((3,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528], dtype='float64').reshape((3,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.outer(torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, 0.9789999723434448], dtype='float32').reshape((3,))))
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v3.inverse()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, 0.9789999723434448], dtype='float32').reshape((3,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528], dtype='float64').reshape((3,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    "v3 = v0.outer(torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, 0.9789999723434448], dtype='float32').reshape((3,))))",
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v3.inverse()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
