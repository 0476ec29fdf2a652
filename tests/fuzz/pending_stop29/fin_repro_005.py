"""Fuzz reproducer (autotensor vs PyTorch).

final state of v4:
final v4['tangent']['value']: signed zero differs at []: autotensor np.float64(-0.0), torch np.float64(0.0)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = torch.stack([v1, v1], dim=-1)
    v4 = v3.det()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = torch.stack([v1, v1], dim=-1)',
    'v4 = v3.det()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
