"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v4 = torch.nn.functional.group_norm(v3, num_groups=1)
line 7: keys ['ok'] != ['raised']
  autotensor: {'ok': TensorSummary(dtype='bool', shape=(0, 0), values=array([], shape=(0, 0), dtype=bool), requires_grad=False, grad_fn=None)}
  torch:      {'raised': Raised(type_name='NotImplementedError', message='"GroupNormKernelImpl" not implemented for \\'Bool\\'')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v0.eq(v1)
    v4 = torch.nn.functional.group_norm(v3, num_groups=1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v0.eq(v1)',
    'v4 = torch.nn.functional.group_norm(v3, num_groups=1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
