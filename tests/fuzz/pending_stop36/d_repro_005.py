"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v5 = torch.nn.functional.interpolate(v2, size=3, mode='linear')

Not equal to tolerance rtol=2e-06, atol=1e-06
line 8['ok']
nan location mismatch:
 ACTUAL: array([[[inf, inf, inf]]], dtype=float32)
 DESIRED: array([[[nan, inf, inf]]], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(1, 1, 3), values=array([[[inf, inf, inf]]], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(1, 1, 3), values=array([[[nan, inf, inf]]], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[[0.0]]], dtype='float32').reshape((1, 1, 1)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[[1.624]]], dtype='float64').reshape((1, 1, 1)), dtype=v1.dtype))
    v2 = 1 / v1
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = torch.nn.functional.interpolate(v2, size=3, mode='linear')
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[[0.0]]], dtype='float32').reshape((1, 1, 1)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[[1.624]]], dtype='float64').reshape((1, 1, 1)), dtype=v1.dtype))",
    'v2 = 1 / v1',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    "v5 = torch.nn.functional.interpolate(v2, size=3, mode='linear')",
]

if __name__ == "__main__":
    run_and_compare(LINES)
