"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v5 = torch.autograd.grad(v4.sum(), [v1], retain_graph=False, create_graph=True, allow_unused=False)[0]
line 8['ok']: grad_fn CatBackward0 != torch's GluBackwardBackward0
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(0,), values=array([], dtype=float32), requires_grad=True, grad_fn='CatBackward0')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(0,), values=array([], dtype=float32), requires_grad=True, grad_fn='GluBackwardBackward0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v0.floor_divide(v0)
    v4 = torch.nn.functional.glu(v1, dim=-1)
    v5 = torch.autograd.grad(v4.sum(), [v1], retain_graph=False, create_graph=True, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v0.floor_divide(v0)',
    'v4 = torch.nn.functional.glu(v1, dim=-1)',
    'v5 = torch.autograd.grad(v4.sum(), [v1], retain_graph=False, create_graph=True, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
