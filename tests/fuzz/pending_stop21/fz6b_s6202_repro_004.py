"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:
final v3['next']: autotensor gave ['DotBackward0'], torch gave ['SumBackward0']

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))
    v1 = v0.mm(torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645]], dtype='float32').reshape((2, 1))))
    v2 = torch.autograd.grad(v0.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
    v3 = v0.inner(v2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))",
    "v1 = v0.mm(torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645]], dtype='float32').reshape((2, 1))))",
    'v2 = torch.autograd.grad(v0.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]',
    'v3 = v0.inner(v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
