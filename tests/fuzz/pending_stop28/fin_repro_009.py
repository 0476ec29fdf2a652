"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1 = v0.index_fill(-1, torch.tensor([0]), 2.0)
line 3: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='IndexError', message='index 0 is out of bounds for dimension 1 with size 0')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(0, 0), values=array([], shape=(0, 0), dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v0.dtype))
    v1 = v0.index_fill(-1, torch.tensor([0]), 2.0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v0.dtype))",
    'v1 = v0.index_fill(-1, torch.tensor([0]), 2.0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
