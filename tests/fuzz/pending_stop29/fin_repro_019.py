"""Fuzz reproducer (autotensor vs PyTorch).

final state of v4:

Not equal to tolerance rtol=2e-06, atol=2.83075e-05
final v4['tangent']['value']
Mismatched elements: 1 / 6 (16.7%)
Mismatch at index:
 [2, 0]: -3.444056510925293 (ACTUAL), -3.444021224975586 (DESIRED)
Max absolute difference among violations: 3.52859497e-05
Max relative difference among violations: 1.02455669e-05
 ACTUAL: array([[-28.307568,   8.822326],
       [ 10.5691  ,  -2.603987],
       [ -3.444057,  -0.700407]])
 DESIRED: array([[-28.307507,   8.822306],
       [ 10.569057,  -2.603972],
       [ -3.444021,  -0.700421]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[-0.1469999998807907, -0.5989999771118164, -0.03999999910593033], [-0.7179999947547913, -1.3020000457763672, -0.3790000081062317]], dtype='float32').reshape((2, 3)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.254, -0.813, 0.253], [-0.338, 1.16, -1.285]], dtype='float64').reshape((2, 3)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.pinverse()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[-0.1469999998807907, -0.5989999771118164, -0.03999999910593033], [-0.7179999947547913, -1.3020000457763672, -0.3790000081062317]], dtype='float32').reshape((2, 3)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.254, -0.813, 0.253], [-0.338, 1.16, -1.285]], dtype='float64').reshape((2, 3)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.pinverse()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
