"""Fuzz reproducer (autotensor vs PyTorch).

line 9: v7 = v6.detach_()
line 9: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message="Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py 
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(-7.0528474, dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = torch.func.grad(lambda t: _seg(t).sum())(v0)
    v7 = v6.detach_()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = torch.func.grad(lambda t: _seg(t).sum())(v0)',
    'v7 = v6.detach_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
