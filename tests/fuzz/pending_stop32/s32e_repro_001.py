"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:

Not equal to tolerance rtol=2e-06, atol=1.66767e-06
final v0['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 3.05175781e-05
Max relative difference among violations: 1.82995239e-05
 ACTUAL: array(1.667701)
 DESIRED: array(1.667671)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(-2.275390625, dtype='float16').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(0.425, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = torch.nn.functional.elu(v1)
    v0.add_(v3)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(-2.275390625, dtype='float16').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(0.425, dtype='float64').reshape(()), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = torch.nn.functional.elu(v1)',
    'v0.add_(v3)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
