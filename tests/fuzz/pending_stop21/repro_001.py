"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v2 = torch.cat([v0, v1], dim=-1)
line 5['ok']: dtype float32 != torch's float64
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(0, 0), values=array([], shape=(0, 0), dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float64', shape=(0, 0), values=array([], shape=(0, 0), dtype=float64), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float64').reshape((0,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v1.dtype))
    v2 = torch.cat([v0, v1], dim=-1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float64').reshape((0,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v1.dtype))",
    'v2 = torch.cat([v0, v1], dim=-1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
