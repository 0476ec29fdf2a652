"""Fuzz reproducer (autotensor vs PyTorch).

final state of v4:
final v4['tangent']['value']: signed zero differs at []: autotensor np.float64(-0.0), torch np.float64(0.0)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.floor_divide(v0)
    v2 = torch.nn.functional.l1_loss(v0, v0)
    v3 = v2.abs_()
    v4 = torch.autograd.grad(v2, [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.floor_divide(v0)',
    'v2 = torch.nn.functional.l1_loss(v0, v0)',
    'v3 = v2.abs_()',
    'v4 = torch.autograd.grad(v2, [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
