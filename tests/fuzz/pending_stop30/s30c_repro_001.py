"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:

Not equal to tolerance rtol=1e-12, atol=1e-12
final v5['tangent']['value']
Mismatched elements: 2 / 8 (25%)
Mismatch at indices:
 [1, 1]: 2.3561924257932447 (ACTUAL), 0.0 (DESIRED)
 [1, 3]: 5.039735099337749 (ACTUAL), 0.0 (DESIRED)
Max absolute difference among violations: 5.0397351
Max relative difference among violations: inf
 ACTUAL: array([[ 0.920635,  0.      ,  0.      , -0.478804],
       [ 0.463062,  2.356192,  0.      ,  5.039735]])
 DESIRED: array([[ 0.920635,  0.      ,  0.      , -0.478804],
       [ 0.463062,  0.      ,  0.      ,  0.      ]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.764, 0.4, 0.979, 2.241], [1.868, -0.977, 0.95, -0.151]], dtype='float64').reshape((2, 4)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528, -1.073], [0.865, -2.302, 1.745, -0.761]], dtype='float64').reshape((2, 4)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.log()
    v0.sum().backward()
    v5 = torch.nn.functional.relu6(v4)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.764, 0.4, 0.979, 2.241], [1.868, -0.977, 0.95, -0.151]], dtype='float64').reshape((2, 4)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528, -1.073], [0.865, -2.302, 1.745, -0.761]], dtype='float64').reshape((2, 4)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.log()',
    'v0.sum().backward()',
    'v5 = torch.nn.functional.relu6(v4)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
