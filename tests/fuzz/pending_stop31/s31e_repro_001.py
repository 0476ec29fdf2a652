"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v0.backward()
line 8: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='NotImplementedError', message="the derivative for 'igamma: input' is not implemented.")}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v2.dtype))
    v0.igamma_(v2)
    v0.backward()
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
    "v2 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v2.dtype))",
    'v0.igamma_(v2)',
    'v0.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
