"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:
final v5['tangent']['requires_grad']: autotensor gave False, torch gave True

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.764, dtype='float64').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.floor_divide(v0)
    with torch.no_grad():
        v4 = v1.remainder(1)
    v5 = torch.func.grad(lambda t: _seg(t).sum())(v4)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.764, dtype='float64').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.floor_divide(v0)',
    'with torch.no_grad():\n    v4 = v1.remainder(1)',
    'v5 = torch.func.grad(lambda t: _seg(t).sum())(v4)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
