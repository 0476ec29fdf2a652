"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:

Not equal to tolerance rtol=2e-06, atol=1.624e-06
final v5['tangent']['value']
Mismatched elements: 1 / 2 (50%)
Mismatch at index:
 [0]: -0.6119999885559082 (ACTUAL), 0.0 (DESIRED)
Max absolute difference among violations: 0.61199999
Max relative difference among violations: inf
 ACTUAL: array([-0.612,  1.624])
 DESIRED: array([0.   , 1.624])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, 0.0], dtype='float32').reshape((2,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.cumprod(0)
    v4 = v0.exp()
    v5 = torch.autograd.grad(v3.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.0], dtype='float32').reshape((2,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.cumprod(0)',
    'v4 = v0.exp()',
    'v5 = torch.autograd.grad(v3.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
