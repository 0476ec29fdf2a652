"""Fuzz reproducer (autotensor vs PyTorch).

line 10: v3.backward()
line 10: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='ZeroDivisionError', message='float division by zero')}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([], dtype='float32').reshape((0,)))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v2.dtype))
    v3 = torch.nn.functional.mse_loss(v0, v2)
    v4 = v0.exp()
    v5 = v0.exp()
    v3.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array([], dtype='float32').reshape((0,)))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v2.dtype))",
    'v3 = torch.nn.functional.mse_loss(v0, v2)',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v3.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
