"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v2 = v1.prod(0, keepdim=False)
line 5: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='ValueError', message='cannot reshape array of size 0 into shape (0)')}
  torch:      {'ok': TensorSummary(dtype='float16', shape=(), values=array(1., dtype=float16), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([], dtype='float16').reshape((0,)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v1.dtype))
    v2 = v1.prod(0, keepdim=False)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([], dtype='float16').reshape((0,)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v1.dtype))",
    'v2 = v1.prod(0, keepdim=False)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
