"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v3.backward(inputs=[v3])
line 5: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='NotImplementedError', message="the derivative for 'igamma: input' is not implemented.")}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.igamma(v0)
    v4 = v0.exp()
    v3.backward(inputs=[v3])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.igamma(v0)',
    'v4 = v0.exp()',
    'v3.backward(inputs=[v3])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
