"""Fuzz reproducer (autotensor vs PyTorch).

final state of v7:
final v7['tangent']['value']: signed zero differs at []: autotensor np.float64(-0.0), torch np.float64(0.0)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([-0.0], dtype='float32').reshape((1,)), dtype=torch.bfloat16)
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([-0.417], dtype='float64').reshape((1,)), dtype=v2.dtype))
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v2.cos()
    v7 = v6.mean(0, keepdim=False)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array([-0.0], dtype='float32').reshape((1,)), dtype=torch.bfloat16)",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([-0.417], dtype='float64').reshape((1,)), dtype=v2.dtype))",
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v2.cos()',
    'v7 = v6.mean(0, keepdim=False)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
