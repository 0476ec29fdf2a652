"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:
final v3['version']: autotensor gave 0, torch gave 2

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = v0.repeat_interleave(1, 0)
    v2 = v1.exp_()
    v3 = torch.autograd.grad(v1.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    'v1 = v0.repeat_interleave(1, 0)',
    'v2 = v1.exp_()',
    'v3 = torch.autograd.grad(v1.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
