"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v3 = v2.renorm(2, 0, 1.0)
line 6: keys ['ok'] != ['raised']
  autotensor: {'ok': TensorSummary(dtype='int64', shape=(0, 0), values=array([], shape=(0, 0), dtype=int64), requires_grad=False, grad_fn=None)}
  torch:      {'raised': Raised(type_name='RuntimeError', message='linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([], dtype='int64').reshape((0, 0)))
    v3 = v2.renorm(2, 0, 1.0)
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
    "v2 = torch.tensor(np.array([], dtype='int64').reshape((0, 0)))",
    'v3 = v2.renorm(2, 0, 1.0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
