"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:
final v3['next']: autotensor gave ['LinalgInvExBackward0', None, None], torch gave ['CloneBackward0', None, None]

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]], dtype='float32').reshape((2, 2)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.inverse()
    v3 = torch.nn.functional.group_norm(v2, num_groups=1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]], dtype='float32').reshape((2, 2)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.inverse()',
    'v3 = torch.nn.functional.group_norm(v2, num_groups=1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
