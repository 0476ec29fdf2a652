"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:

Not equal to tolerance rtol=2e-06, atol=1.54372e-06
final v0['grad']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 0.00022388
Max relative difference among violations: 0.00014502
 ACTUAL: array(1.543945, dtype=float32)
 DESIRED: array(1.543721, dtype=float32)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.763671875, dtype='float16').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v0.retain_grad()
    v1.pow_(v0)
    v1.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.763671875, dtype='float16').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    'v0.retain_grad()',
    'v1.pow_(v0)',
    'v1.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
