"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v3 = torch.nn.functional.binary_cross_entropy_with_logits(v0, v2)
line 7['ok']: dtype float32 != torch's bfloat16
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(), values=array(-1.1923988, dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='bfloat16', shape=(), values=array(-1.1953125, dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), dtype=torch.bfloat16)
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v2.dtype))
    v3 = torch.nn.functional.binary_cross_entropy_with_logits(v0, v2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), dtype=torch.bfloat16)",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v2.dtype))",
    'v3 = torch.nn.functional.binary_cross_entropy_with_logits(v0, v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
