"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v3 = v2.det()
line 7: keys ['ok'] != ['raised']
  autotensor: {'ok': TensorSummary(dtype='float16', shape=(), values=array(1., dtype=float16), requires_grad=False, grad_fn=None)}
  torch:      {'raised': Raised(type_name='RuntimeError', message="This function doesn't handle types other than float and double")}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([], dtype='float16').reshape((0, 0)))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v2.dtype))
    v3 = v2.det()
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
    "v2 = torch.tensor(np.array([], dtype='float16').reshape((0, 0)))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v2.dtype))",
    'v3 = v2.det()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
