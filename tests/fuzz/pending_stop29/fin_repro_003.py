"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v3 = v2 // True
line 5: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='AttributeError', message="'bool' object has no attribute 'ndim'")}
  torch:      {'ok': TensorSummary(dtype='int64', shape=(), values=array(1), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.long()
    v3 = v2 // True
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.long()',
    'v3 = v2 // True',
]

if __name__ == "__main__":
    run_and_compare(LINES)
