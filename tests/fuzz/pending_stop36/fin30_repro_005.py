"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = torch.nn.functional.avg_pool1d(v1, kernel_size=2)

Arrays are not equal
line 4['ok']
Mismatched elements: 1 / 1 (100%)
Mismatch at index:
 [0, 0]: -4611686018427387904 (ACTUAL), -4611686018427387903 (DESIRED)
Max absolute difference among violations: 1
Max relative difference among violations: 2.16840434e-19
 ACTUAL: array([[-4611686018427387904]])
 DESIRED: array([[-4611686018427387903]])
  autotensor: {'ok': TensorSummary(dtype='int64', shape=(1, 1), values=array([[-4611686018427387904]]), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='int64', shape=(1, 1), values=array([[-4611686018427387903]]), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[1, -9223372036854775808]], dtype='int64').reshape((1, 2)))
    v2 = torch.nn.functional.avg_pool1d(v1, kernel_size=2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[1, -9223372036854775808]], dtype='int64').reshape((1, 2)))",
    'v2 = torch.nn.functional.avg_pool1d(v1, kernel_size=2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
