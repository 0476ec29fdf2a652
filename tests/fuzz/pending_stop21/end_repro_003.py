"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v4.copy_(v1)
line 8['raised']: autotensor raised RuntimeError: 'The size of tensor a (2) must match the size of tensor b (0) at non-singleton dimension 0'
                  torch raised RuntimeError: 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='The size of tensor a (2) must match the size of tensor b (0) at non-singleton dimension 0')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))
    v1 = torch.tensor(np.array([], dtype='float32').reshape((0,)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = torch.autograd.grad(v0.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
    v4.copy_(v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645], dtype='float32').reshape((2,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([], dtype='float32').reshape((0,)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = torch.autograd.grad(v0.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]',
    'v4.copy_(v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
