"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v3 = torch.nn.functional.rms_norm(v2, v2.shape[-1:])
line 6['ok']: grad_fn MulBackward0 != torch's ToCopyBackward0
  autotensor: {'ok': TensorSummary(dtype='float16', shape=(0,), values=array([], dtype=float16), requires_grad=True, grad_fn='MulBackward0')}
  torch:      {'ok': TensorSummary(dtype='float16', shape=(0,), values=array([], dtype=float16), requires_grad=True, grad_fn='ToCopyBackward0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([], dtype='float16').reshape((0,)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v1.dtype))
    v2 = v0.add(v1)
    v3 = torch.nn.functional.rms_norm(v2, v2.shape[-1:])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/wt-fz'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([], dtype='float16').reshape((0,)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v1.dtype))",
    'v2 = v0.add(v1)',
    'v3 = torch.nn.functional.rms_norm(v2, v2.shape[-1:])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
