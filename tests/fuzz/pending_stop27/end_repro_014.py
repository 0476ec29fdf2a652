"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v4 = torch.func.grad(lambda t: _seg(t).sum())(v3)
line 6: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message='unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(2,), values=array([-7.0528474, -7.0528474], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.floor_divide(v0)
    v3 = v0.expand(2, *v0.shape)
    v4 = torch.func.grad(lambda t: _seg(t).sum())(v3)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.floor_divide(v0)',
    'v3 = v0.expand(2, *v0.shape)',
    'v4 = torch.func.grad(lambda t: _seg(t).sum())(v3)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
