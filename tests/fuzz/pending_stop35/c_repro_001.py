"""Fuzz reproducer (autotensor vs PyTorch).

final state of v6:
final v6['tangent']['value']: dtype float64 != torch's float16

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array(1.763671875, dtype='float16').reshape(()))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v2.dtype))
    v3 = v0.exp()
    v4 = v0.floor_divide(v0)
    v5 = v2.var(0, keepdim=False)
    with torch.no_grad():
        v6 = torch.nn.functional.mish(v5)
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
    "v2 = torch.tensor(np.array(1.763671875, dtype='float16').reshape(()))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v2.dtype))",
    'v3 = v0.exp()',
    'v4 = v0.floor_divide(v0)',
    'v5 = v2.var(0, keepdim=False)',
    'with torch.no_grad():\n    v6 = torch.nn.functional.mish(v5)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
