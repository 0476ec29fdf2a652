"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v3 = v2.masked_fill(v0 > 0, 1099511627777)
line 6['raised']: autotensor raised RuntimeError: 'value cannot be converted to type int without overflow'
                  torch raised RuntimeError: 'The size of tensor a (0) must match the size of tensor b (2) at non-singleton dimension 0'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='value cannot be converted to type int without overflow')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='The size of tensor a (0) must match the size of tensor b (2) at non-singleton dimension 0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([1, -4], dtype='int32').reshape((2,)))
    v3 = v2.masked_fill(v0 > 0, 1099511627777)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array([1, -4], dtype='int32').reshape((2,)))",
    'v3 = v2.masked_fill(v0 > 0, 1099511627777)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
