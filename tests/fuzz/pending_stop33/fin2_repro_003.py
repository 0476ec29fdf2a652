"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v5.backward()
line 8: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='NotImplementedError', message='Trying to use forward AD with aten::hardsigmoid_backward that does not support it.')}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    with torch.no_grad():
        v1 = v0.view(-1)
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = torch.nn.functional.hardsigmoid(v1)
    v5.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'with torch.no_grad():\n    v1 = v0.view(-1)',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = torch.nn.functional.hardsigmoid(v1)',
    'v5.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
