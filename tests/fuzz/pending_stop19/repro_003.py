"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v4.add_(v0)
line 7: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='TypeError', message='copyto() argument 1 must be a numpy.ndarray, not numpy.float32')}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.floor_divide(v0)
    v4 = v0.sum(0, keepdim=False)
    v4.add_(v0)
"""
import sys

sys.path.insert(0, '/work/main')

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.floor_divide(v0)',
    'v4 = v0.sum(0, keepdim=False)',
    'v4.add_(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
