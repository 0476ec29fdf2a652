"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:

Not equal to tolerance rtol=0.016, atol=1.17648e+12
final v2['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 5.98964909e+31
Max relative difference among violations: 5.09117206e+17
 ACTUAL: array(5.989649e+31)
 DESIRED: array(1.176477e+14)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(-1.9989999532699585, dtype='float32').reshape(()), dtype=torch.bfloat16)
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(0.363, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = v1.digamma()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(-1.9989999532699585, dtype='float32').reshape(()), dtype=torch.bfloat16)",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(0.363, dtype='float64').reshape(()), dtype=v1.dtype))",
    'v2 = v1.digamma()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
