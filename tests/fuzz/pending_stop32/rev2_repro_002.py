"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:

Not equal to tolerance rtol=2e-06, atol=2.03807e-06
final v2['tangent']['value']
Mismatched elements: 1 / 12 (8.33%)
Mismatch at index:
 [2, 3]: -2.0380754470825195 (ACTUAL), -2.038067579269409 (DESIRED)
Max absolute difference among violations: 7.86781311e-06
Max relative difference among violations: 3.86042798e-06
 ACTUAL: array([[ 0.081531,  0.041949,  1.572165, -1.327138],
       [ 0.735378,  0.759462, -0.083756,  0.959376],
       [ 0.593888,  0.624809, -0.13093 , -2.038075]])
 DESIRED: array([[ 0.081531,  0.041949,  1.572165, -1.327138],
       [ 0.735378,  0.759462, -0.083756,  0.959376],
       [ 0.593888,  0.624809, -0.13093 , -2.038068]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.6239999532699585, -0.6119999885559082, -0.527999997138977, -1.0729999542236328], [0.8650000095367432, -2.302000045776367, 1.7450000047683716, -0.7609999775886536], [0.3190000057220459, -0.24899999797344208, 1.4620000123977661, -2.059999942779541]], dtype='float32').reshape((3, 4)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.417, -0.056, -2.136, 1.64], [-1.793, -0.842, 0.503, -1.245], [-1.058, -0.909, 0.551, 2.292]], dtype='float64').reshape((3, 4)), dtype=v0.dtype))
    v1 = torch.special.log_ndtr(v0)
    v2 = torch.autograd.grad(v1.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.6239999532699585, -0.6119999885559082, -0.527999997138977, -1.0729999542236328], [0.8650000095367432, -2.302000045776367, 1.7450000047683716, -0.7609999775886536], [0.3190000057220459, -0.24899999797344208, 1.4620000123977661, -2.059999942779541]], dtype='float32').reshape((3, 4)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.417, -0.056, -2.136, 1.64], [-1.793, -0.842, 0.503, -1.245], [-1.058, -0.909, 0.551, 2.292]], dtype='float64').reshape((3, 4)), dtype=v0.dtype))",
    'v1 = torch.special.log_ndtr(v0)',
    'v2 = torch.autograd.grad(v1.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
