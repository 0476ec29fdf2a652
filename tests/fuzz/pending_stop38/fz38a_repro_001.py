"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:
final v1['tangent']['requires_grad']: autotensor gave False, torch gave True

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[]], dtype='float32').reshape((1, 0, 0)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[]], dtype='float64').reshape((1, 0, 0)), dtype=v0.dtype))
    v1 = torch.nn.functional.conv1d(v0, v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/wt-fz38a'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[]], dtype='float32').reshape((1, 0, 0)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[]], dtype='float64').reshape((1, 0, 0)), dtype=v0.dtype))",
    'v1 = torch.nn.functional.conv1d(v0, v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
