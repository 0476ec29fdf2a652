"""Fuzz reproducer (autotensor vs PyTorch).

line 10: v4.backward()
line 10: keys ['ok'] != ['raised']
  autotensor: {'ok': None}
  torch:      {'raised': Raised(type_name='RuntimeError', message="result type Float can't be cast to the desired output type Bool")}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.logical_not()
    v2 = v0.floor_divide(v0)
    v3 = v0.floor_divide(v0)
    v4 = v1.addcdiv(v0, v1, value=0)
    v5 = v0.exp()
    v6 = v0.exp()
    v7 = v0.exp()
    v4.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.logical_not()',
    'v2 = v0.floor_divide(v0)',
    'v3 = v0.floor_divide(v0)',
    'v4 = v1.addcdiv(v0, v1, value=0)',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'v7 = v0.exp()',
    'v4.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
