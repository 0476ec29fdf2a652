"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:
final v5['tangent']['value']: dtype float64 != torch's float16

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([], dtype='float16').reshape((0, 1)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 1)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v1.renorm(2, 0, 1.0)
    v4 = v0.exp()
    v5 = v3.logcumsumexp(-1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([], dtype='float16').reshape((0, 1)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 1)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v1.renorm(2, 0, 1.0)',
    'v4 = v0.exp()',
    'v5 = v3.logcumsumexp(-1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
