"""Fuzz reproducer (autotensor vs PyTorch).

final state of v6:
final v6['tangent']['value']: signed zero differs at []: autotensor np.float64(0.0), torch np.float64(-0.0)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.624, dtype='float64').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(-0.417, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.floor_divide(v0)
    v5 = v0.sgn()
    v6 = v5.addcmul(v0, v5, value=0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.624, dtype='float64').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(-0.417, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.floor_divide(v0)',
    'v5 = v0.sgn()',
    'v6 = v5.addcmul(v0, v5, value=0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
