"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v3 = torch.nn.functional.binary_cross_entropy_with_logits(v2, v0)

Not equal to tolerance rtol=2e-06, atol=1.14812e-06
line 7['ok']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 0.00048828
Max relative difference among violations: 0.00042529
 ACTUAL: array(1.147632, dtype=float32)
 DESIRED: array(1.14812, dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(), values=array(1.1476319, dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(1.1481202, dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array(-0.347900390625, dtype='float16').reshape(()))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array(-0.926, dtype='float64').reshape(()), dtype=v2.dtype))
    v3 = torch.nn.functional.binary_cross_entropy_with_logits(v2, v0)
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
    "v2 = torch.tensor(np.array(-0.347900390625, dtype='float16').reshape(()))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array(-0.926, dtype='float64').reshape(()), dtype=v2.dtype))",
    'v3 = torch.nn.functional.binary_cross_entropy_with_logits(v2, v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
