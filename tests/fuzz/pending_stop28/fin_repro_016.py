"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v5 = v4[1]
line 7['raised']: autotensor raised IndexError: 'index 1 is out of bounds for dimension 0 with size 0'
                  torch raised IndexError: 'index 1 is out of bounds for dimension 0 with size 1'
  autotensor: {'raised': Raised(type_name='IndexError', message='index 1 is out of bounds for dimension 0 with size 0')}
  torch:      {'raised': Raised(type_name='IndexError', message='index 1 is out of bounds for dimension 0 with size 1')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.max(0, keepdim=False)[0]
    v5 = v4[1]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.max(0, keepdim=False)[0]',
    'v5 = v4[1]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
