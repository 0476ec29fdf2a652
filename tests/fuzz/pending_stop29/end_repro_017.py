"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v1.backward(inputs=[v1])
line 4: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='NotImplementedError', message='Trying to use forward AD with aten::logit_backward that does not support it.')}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.logit()
    v1.backward(inputs=[v1])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.logit()',
    'v1.backward(inputs=[v1])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
