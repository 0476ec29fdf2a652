"""Fuzz reproducer (autotensor vs PyTorch).

line 9: v7 = v1.add(v4, alpha=2.0)
line 9['raised']: autotensor raised RuntimeError: 'For integral input tensors, argument alpha must not be a floating point number.'
                  torch raised RuntimeError: 'The size of tensor a (2) must match the size of tensor b (0) at non-singleton dimension 0'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='For integral input tensors, argument alpha must not be a floating point number.')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='The size of tensor a (2) must match the size of tensor b (0) at non-singleton dimension 0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([1, -4], dtype='int64').reshape((2,)))
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v1[torch.tensor([], dtype=torch.int64)]
    v5 = v0.exp()
    v6 = v0.floor_divide(v0)
    v7 = v1.add(v4, alpha=2.0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([1, -4], dtype='int64').reshape((2,)))",
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v1[torch.tensor([], dtype=torch.int64)]',
    'v5 = v0.exp()',
    'v6 = v0.floor_divide(v0)',
    'v7 = v1.add(v4, alpha=2.0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
