"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:

Arrays are not equal
final v5['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: -9223372036854775808
Max relative difference among violations: 1.
 ACTUAL: array(0)
 DESIRED: array(-9223372036854775808)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([inf], dtype='float32').reshape((1,)), dtype=torch.bfloat16)
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v0.floor_divide(v0)
    v4 = v0.floor_divide(v0)
    v5 = v0.median(0, keepdim=False)[1]
    v5[...] = v1
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([inf], dtype='float32').reshape((1,)), dtype=torch.bfloat16)",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v0.floor_divide(v0)',
    'v4 = v0.floor_divide(v0)',
    'v5 = v0.median(0, keepdim=False)[1]',
    'v5[...] = v1',
]

if __name__ == "__main__":
    run_and_compare(LINES)
