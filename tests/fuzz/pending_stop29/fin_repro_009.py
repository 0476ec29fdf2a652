"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v4 = v2.addcmul(v3, v3, value=0)
line 7['raised']: autotensor raised NotImplementedError: '"addcmul_cpu_out" not implemented for \\'Bool\\''
                  torch raised RuntimeError: 'The size of tensor a (2) must match the size of tensor b (0) at non-singleton dimension 0'
  autotensor: {'raised': Raised(type_name='NotImplementedError', message='"addcmul_cpu_out" not implemented for \\'Bool\\'')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='The size of tensor a (2) must match the size of tensor b (0) at non-singleton dimension 0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([True, True], dtype='bool').reshape((2,)))
    v3 = v2.repeat_interleave(0, 0)
    v4 = v2.addcmul(v3, v3, value=0)
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
    "v2 = torch.tensor(np.array([True, True], dtype='bool').reshape((2,)))",
    'v3 = v2.repeat_interleave(0, 0)',
    'v4 = v2.addcmul(v3, v3, value=0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
