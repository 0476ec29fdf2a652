"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:
final v5['next']: autotensor gave ['MulBackward0', None], torch gave ['ToCopyBackward0', None]

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.renorm(2, 0, 1.0)
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = torch.autograd.grad(v2.sum(), [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.renorm(2, 0, 1.0)',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = torch.autograd.grad(v2.sum(), [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
