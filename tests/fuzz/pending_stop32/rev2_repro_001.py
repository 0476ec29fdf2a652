"""Fuzz reproducer (autotensor vs PyTorch).

final state of v6:

Not equal to tolerance rtol=1e-12, atol=1e-12
final v6['tangent']['value']
Mismatched elements: 1 / 3 (33.3%)
Mismatch at index:
 [2]: -3.498321632378065e-08 (ACTUAL), 5.421583182396717e-08 (DESIRED)
Max absolute difference among violations: 8.91990481e-08
Max relative difference among violations: 1.64525832
 ACTUAL: array([ 3.247009e-15,  0.000000e+00, -3.498322e-08])
 DESIRED: array([0.000000e+00, 0.000000e+00, 5.421583e-08])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[[0.023, -0.715], [-0.168, -0.452]], [[0.698, 0.045], [0.558, -1.443]], [[0.817, -1.112], [1.681, -0.248]]], dtype='float64').reshape((3, 2, 2)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.831, -0.654], [1.065, 0.783]], [[0.592, 0.611], [-0.071, 1.552]], [[1.124, -2.177], [-0.881, 1.47]]], dtype='float64').reshape((3, 2, 2)), dtype=v0.dtype))
    v1 = v0.mm(torch.tensor(np.array([[1.764], [0.4]], dtype='float64').reshape((2, 1))))
    v2 = v0.var(-2, keepdim=True)
    v3 = v0.exp()
    v4 = v2.var(-1)
    v5 = v4.exp2()
    v6 = torch.nn.functional.cosine_similarity(v4, v5)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[[0.023, -0.715], [-0.168, -0.452]], [[0.698, 0.045], [0.558, -1.443]], [[0.817, -1.112], [1.681, -0.248]]], dtype='float64').reshape((3, 2, 2)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.831, -0.654], [1.065, 0.783]], [[0.592, 0.611], [-0.071, 1.552]], [[1.124, -2.177], [-0.881, 1.47]]], dtype='float64').reshape((3, 2, 2)), dtype=v0.dtype))",
    "v1 = v0.mm(torch.tensor(np.array([[1.764], [0.4]], dtype='float64').reshape((2, 1))))",
    'v2 = v0.var(-2, keepdim=True)',
    'v3 = v0.exp()',
    'v4 = v2.var(-1)',
    'v5 = v4.exp2()',
    'v6 = torch.nn.functional.cosine_similarity(v4, v5)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
