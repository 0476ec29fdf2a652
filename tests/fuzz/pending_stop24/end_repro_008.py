"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v1[...] = 0
line 4['raised']: autotensor raised RuntimeError: 'ZeroTensors are immutable. Please materialize the tensor using `.clone()`, if you want a mutable zero tensor.'
                  torch raised RuntimeError: 'ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() if you want a mutable tensor.'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='ZeroTensors are immutable. Please materialize the tensor using `.clone()`, if you want a mutable zero tensor.')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() if you want a mutable tensor.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.sgn()
    v1[...] = 0
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.sgn()',
    'v1[...] = 0',
]

if __name__ == "__main__":
    run_and_compare(LINES)
