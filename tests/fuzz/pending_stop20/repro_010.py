"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v4 = v3.inner(v3)
line 7['raised']: autotensor raised RuntimeError: 'dot : expected both vectors to have same dtype, but found Long and Bool'
                  torch raised NotImplementedError: '"dot" not implemented for \\'Bool\\''
  autotensor: {'raised': Raised(type_name='RuntimeError', message='dot : expected both vectors to have same dtype, but found Long and Bool')}
  torch:      {'raised': Raised(type_name='NotImplementedError', message='"dot" not implemented for \\'Bool\\'')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(1.7640000581741333, dtype=torch.bfloat16, dtype=torch.bfloat16)
    v3 = v0.bool()
    v4 = v3.inner(v3)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    'v2 = torch.tensor(1.7640000581741333, dtype=torch.bfloat16, dtype=torch.bfloat16)',
    'v3 = v0.bool()',
    'v4 = v3.inner(v3)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
