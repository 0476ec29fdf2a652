"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v1.sum().backward()
line 6: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message='unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.')}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[], []], dtype='float32').reshape((2, 0)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[], []], dtype='float64').reshape((2, 0)), dtype=v1.dtype))
    v1.add_(v0)
    v1.sum().backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[], []], dtype='float32').reshape((2, 0)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[], []], dtype='float64').reshape((2, 0)), dtype=v1.dtype))",
    'v1.add_(v0)',
    'v1.sum().backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
