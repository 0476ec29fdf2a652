"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v3 = v1 ** v2
line 5['raised']: autotensor raised NotImplementedError: '"pow" not implemented for \\'Bool\\''
                  torch raised RuntimeError: 'The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0'
  autotensor: {'raised': Raised(type_name='NotImplementedError', message='"pow" not implemented for \\'Bool\\'')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([True, True], dtype='bool').reshape((2,)))
    v2 = torch.cat([v1, v1[:1] if v1.dim() else v1], 0)
    v3 = v1 ** v2
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([True, True], dtype='bool').reshape((2,)))",
    'v2 = torch.cat([v1, v1[:1] if v1.dim() else v1], 0)',
    'v3 = v1 ** v2',
]

if __name__ == "__main__":
    run_and_compare(LINES)
