"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v3 = v1.logical_xor(v2)

Arrays are not equal
line 5['ok']
Mismatched elements: 1 / 1 (100%)
Mismatch at index:
 [0]: False (ACTUAL), True (DESIRED)
 ACTUAL: array([False])
 DESIRED: array([ True])
  autotensor: {'ok': TensorSummary(dtype='bool', shape=(1,), values=array([False]), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='bool', shape=(1,), values=array([ True]), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(-9223372036854775808, dtype='int64').reshape(()))
    v2 = torch.tensor(np.array([1], dtype='int32').reshape((1,)))
    v3 = v1.logical_xor(v2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(-9223372036854775808, dtype='int64').reshape(()))",
    "v2 = torch.tensor(np.array([1], dtype='int32').reshape((1,)))",
    'v3 = v1.logical_xor(v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
