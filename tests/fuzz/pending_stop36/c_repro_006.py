"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1 = torch.nn.functional.adaptive_avg_pool1d(v0, output_size=2)

Not equal to tolerance rtol=2e-06, atol=1.764e-06
line 3['ok']
nan location mismatch:
 ACTUAL: array([[nan, inf]], dtype=float32)
 DESIRED: array([[1.764,   inf]], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(1, 2), values=array([[nan, inf]], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(1, 2), values=array([[1.764,   inf]], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333, inf]], dtype='float32').reshape((1, 2)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612]], dtype='float64').reshape((1, 2)), dtype=v0.dtype))
    v1 = torch.nn.functional.adaptive_avg_pool1d(v0, output_size=2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333, inf]], dtype='float32').reshape((1, 2)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612]], dtype='float64').reshape((1, 2)), dtype=v0.dtype))",
    'v1 = torch.nn.functional.adaptive_avg_pool1d(v0, output_size=2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
