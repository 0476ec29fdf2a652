"""Fuzz reproducer (autotensor vs PyTorch).

final state of v6:
final v6['tangent']: autotensor gave None, torch gave a dict

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([], dtype='float32').reshape((0, 0, 0)))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([], dtype='float64').reshape((0, 0, 0)), dtype=v2.dtype))
    v3 = v0.exp()
    v4 = v2.logical_not()
    v5 = v0.exp()
    v6 = v4 @ v2
"""
import sys

sys.path.insert(0, '/work/main')

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array([], dtype='float32').reshape((0, 0, 0)))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([], dtype='float64').reshape((0, 0, 0)), dtype=v2.dtype))",
    'v3 = v0.exp()',
    'v4 = v2.logical_not()',
    'v5 = v0.exp()',
    'v6 = v4 @ v2',
]

if __name__ == "__main__":
    run_and_compare(LINES)
