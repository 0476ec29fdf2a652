"""Fuzz reproducer (autotensor vs PyTorch).

line 10: v6.atan2_(v0)
line 10: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message='ZeroTensors are immutable. Please materialize the tensor using `.clone()`, if you want a mutable zero tensor.')}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.floor_divide(v0)
    v0.sum().backward()
    v6 = v0.sgn()
    v6.atan2_(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.floor_divide(v0)',
    'v0.sum().backward()',
    'v6 = v0.sgn()',
    'v6.atan2_(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
