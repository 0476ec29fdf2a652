"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = torch.nn.functional.mse_loss(v1, v1)
line 4: keys ['ok'] != ['raised']
  autotensor: {'ok': TensorSummary(dtype='int64', shape=(), values=array(0), requires_grad=False, grad_fn=None)}
  torch:      {'raised': Raised(type_name='NotImplementedError', message='"mse_cpu" not implemented for \\'Long\\'')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1, dtype='int64').reshape(()))
    v2 = torch.nn.functional.mse_loss(v1, v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1, dtype='int64').reshape(()))",
    'v2 = torch.nn.functional.mse_loss(v1, v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
