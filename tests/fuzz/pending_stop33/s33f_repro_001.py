"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:

Not equal to tolerance rtol=2e-06, atol=0.000344008
final v0['tangent']['value']
Mismatched elements: 1 / 12 (8.33%)
Mismatch at index:
 [2, 1]: -344.044677734375 (ACTUAL), -344.0081787109375 (DESIRED)
Max absolute difference among violations: 0.03649902
Max relative difference among violations: 0.0001061
 ACTUAL: array([[ 104.952293,  -14.621304,    7.730431,    8.864367],
       [  58.79882 ,   28.326214,   73.533272,   -5.061686],
       [ -25.493509, -344.044678,   39.544872,    1.091629]])
 DESIRED: array([[ 104.952293,  -14.621304,    7.730431,    8.864367],
       [  58.79882 ,   28.326214,   73.533272,   -5.061686],
       [ -25.493509, -344.008179,   39.544872,    1.091629]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[0.6499999761581421, -0.057999998331069946, -0.14300000667572021, 0.22200000286102295], [-0.5630000233650208, 0.8960000276565552, 1.3860000371932983, -0.7319999933242798], [0.2549999952316284, -2.505000114440918, -1.2970000505447388, -0.19499999284744263]], dtype='float32').reshape((3, 4)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.488, -0.866, 0.605, -1.617], [0.541, -2.019, -0.482, -2.033], [1.331, -0.684, -1.008, 0.36]], dtype='float64').reshape((3, 4)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = torch.func.grad(lambda t: _seg(t).sum())(v0)
    v3 = v0.exp()
    v4 = v0.floor_divide(v0)
    v5 = torch.func.grad(lambda t: _seg(t).sum())(v2)
    v0.add_(v5)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[0.6499999761581421, -0.057999998331069946, -0.14300000667572021, 0.22200000286102295], [-0.5630000233650208, 0.8960000276565552, 1.3860000371932983, -0.7319999933242798], [0.2549999952316284, -2.505000114440918, -1.2970000505447388, -0.19499999284744263]], dtype='float32').reshape((3, 4)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.488, -0.866, 0.605, -1.617], [0.541, -2.019, -0.482, -2.033], [1.331, -0.684, -1.008, 0.36]], dtype='float64').reshape((3, 4)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = torch.func.grad(lambda t: _seg(t).sum())(v0)',
    'v3 = v0.exp()',
    'v4 = v0.floor_divide(v0)',
    'v5 = torch.func.grad(lambda t: _seg(t).sum())(v2)',
    'v0.add_(v5)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
