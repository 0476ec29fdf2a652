"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:

Not equal to tolerance rtol=2e-06, atol=1.49767e-06
final v3['tangent']['value']
Mismatched elements: 3 / 6 (50%)
Mismatch at indices:
 [0, 0]: -1.497676968574524 (ACTUAL), -1.4976705312728882 (DESIRED)
 [0, 1]: -0.7414529323577881 (ACTUAL), -0.7414401769638062 (DESIRED)
 [0, 2]: 0.34786519408226013 (ACTUAL), 0.3478604555130005 (DESIRED)
Max absolute difference among violations: 1.2755394e-05
Max relative difference among violations: 1.72035376e-05
 ACTUAL: array([[-1.497677, -0.741453,  0.347865],
       [-0.023468, -0.342485,  0.101358]])
 DESIRED: array([[-1.497671, -0.74144 ,  0.34786 ],
       [-0.023469, -0.342486,  0.101358]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[-1.371000051498413, 1.1859999895095825], [-1.3639999628067017, -1.5149999856948853], [-0.4129999876022339, 2.552999973297119]], dtype='float32').reshape((3, 2)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[0.387, -1.105], [0.464, -0.447], [0.881, -1.119]], dtype='float64').reshape((3, 2)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v1.pinverse()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[-1.371000051498413, 1.1859999895095825], [-1.3639999628067017, -1.5149999856948853], [-0.4129999876022339, 2.552999973297119]], dtype='float32').reshape((3, 2)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[0.387, -1.105], [0.464, -0.447], [0.881, -1.119]], dtype='float64').reshape((3, 2)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v1.pinverse()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
