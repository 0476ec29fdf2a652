"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v3 = torch.nn.functional.soft_margin_loss(v2, v1)

Not equal to tolerance rtol=0.002, atol=0.001
line 6['ok']
nan location mismatch:
 ACTUAL: array(nan, dtype=float16)
 DESIRED: array(0.6934, dtype=float16)
  autotensor: {'ok': TensorSummary(dtype='float16', shape=(), values=array(nan, dtype=float16), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float16', shape=(), values=array(0.6934, dtype=float16), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(-9223372036854775808, dtype='int64').reshape(()))
    v2 = torch.tensor(np.array([0.0], dtype='float16').reshape((1,)))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v2.dtype))
    v3 = torch.nn.functional.soft_margin_loss(v2, v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(-9223372036854775808, dtype='int64').reshape(()))",
    "v2 = torch.tensor(np.array([0.0], dtype='float16').reshape((1,)))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v2.dtype))",
    'v3 = torch.nn.functional.soft_margin_loss(v2, v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
