"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v1.detach_()
line 4: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message="Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py 
  torch:      {'ok': TensorSummary(dtype='float32', shape=(2, 2), values=array([[ 0.05978391,  1.6365929 ],
       [ 0.31863645, -1.904855  ]], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]], dtype='float32').reshape((2, 2)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))
    v1 = torch.vmap(_seg, in_dims=-1, out_dims=0)(v0)
    v2 = v1.detach_()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]], dtype='float32').reshape((2, 2)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))",
    'v1 = torch.vmap(_seg, in_dims=-1, out_dims=0)(v0)',
    'v2 = v1.detach_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
