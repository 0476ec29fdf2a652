"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:
final v5['tangent']['value']: signed zero differs at [0]: autotensor np.float64(-0.0), torch np.float64(0.0)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([-0.2750000059604645, 0.23999999463558197], dtype='float32').reshape((2,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.586, 0.082], dtype='float64').reshape((2,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.softmax(0)
    v5 = torch.autograd.grad(v4.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([-0.2750000059604645, 0.23999999463558197], dtype='float32').reshape((2,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.586, 0.082], dtype='float64').reshape((2,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.softmax(0)',
    'v5 = torch.autograd.grad(v4.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
