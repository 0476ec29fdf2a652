"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:

Not equal to tolerance rtol=2e-06, atol=0.000430388
final v2['tangent']['value']
Mismatched elements: 9 / 9 (100%)
First 5 mismatches are at indices:
 [0, 0]: -167.58712768554688 (ACTUAL), -167.58218383789062 (DESIRED)
 [0, 1]: 66.10980224609375 (ACTUAL), 66.10751342773438 (DESIRED)
 [0, 2]: 189.95619201660156 (ACTUAL), 189.95016479492188 (DESIRED)
 [1, 0]: -379.8710021972656 (ACTUAL), -379.860595703125 (DESIRED)
 [1, 1]: 150.92405700683594 (ACTUAL), 150.91917419433594 (DESIRED)
Max absolute difference among violations: 0.01266479
Max relative difference among violations: 3.92180783e-05
 ACTUAL: array([[-167.587128,   66.109802,  189.956192],
       [-379.871002,  150.924057,  430.401062],
       [ -55.152477,   22.421349,   62.641403]])
 DESIRED: array([[-167.582184,   66.107513,  189.950165],
       [-379.860596,  150.919174,  430.388397],
       [ -55.150608,   22.420469,   62.639118]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.6239999532699585, -0.6119999885559082, -0.527999997138977], [-1.0729999542236328, 0.8650000095367432, -2.302000045776367], [1.7450000047683716, -0.7609999775886536, 0.3190000057220459]], dtype='float32').reshape((3, 3)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.417, -0.056, -2.136], [1.64, -1.793, -0.842], [0.503, -1.245, -1.058]], dtype='float64').reshape((3, 3)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.pinverse()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.6239999532699585, -0.6119999885559082, -0.527999997138977], [-1.0729999542236328, 0.8650000095367432, -2.302000045776367], [1.7450000047683716, -0.7609999775886536, 0.3190000057220459]], dtype='float32').reshape((3, 3)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.417, -0.056, -2.136], [1.64, -1.793, -0.842], [0.503, -1.245, -1.058]], dtype='float64').reshape((3, 3)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.pinverse()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
