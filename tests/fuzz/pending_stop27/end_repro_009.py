"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v1.sort(-1, descending=True)[1]

Arrays are not equal
line 4['ok']
Mismatched elements: 2 / 2 (100%)
Mismatch at indices:
 [0]: 0 (ACTUAL), 1 (DESIRED)
 [1]: 1 (ACTUAL), 0 (DESIRED)
Max absolute difference among violations: 1
Max relative difference among violations: 1.
 ACTUAL: array([0, 1])
 DESIRED: array([1, 0])
  autotensor: {'ok': TensorSummary(dtype='int64', shape=(2,), values=array([0, 1]), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='int64', shape=(2,), values=array([1, 0]), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.6239999532699585, -0.6119999885559082], dtype='float32').reshape((2,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.417, -0.056], dtype='float64').reshape((2,)), dtype=v0.dtype))
    v1 = v0.log()
    v2 = v1.sort(-1, descending=True)[1]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.6239999532699585, -0.6119999885559082], dtype='float32').reshape((2,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.417, -0.056], dtype='float64').reshape((2,)), dtype=v0.dtype))",
    'v1 = v0.log()',
    'v2 = v1.sort(-1, descending=True)[1]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
