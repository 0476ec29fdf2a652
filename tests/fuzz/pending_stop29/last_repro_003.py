"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v1.triu_(1)
line 4: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message='unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(1, 2), values=array([[0., 0.]], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645]], dtype='float32').reshape((1, 2)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612]], dtype='float64').reshape((1, 2)), dtype=v0.dtype))
    v1 = torch.autograd.grad(v0.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
    v2 = v1.triu_(1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645]], dtype='float32').reshape((1, 2)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612]], dtype='float64').reshape((1, 2)), dtype=v0.dtype))",
    'v1 = torch.autograd.grad(v0.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]',
    'v2 = v1.triu_(1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
