"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v0.add_(v5)
line 7: keys ['ok'] != ['raised']
  autotensor: {'ok': None}
  torch:      {'raised': Raised(type_name='RuntimeError', message='unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645]], dtype='float32').reshape((2, 1))).transpose(0, 1).detach()
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v0.sum().backward()
    v0.add_(v0)
    v5 = _View.apply(v0)
    v0.add_(v5)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645]], dtype='float32').reshape((2, 1))).transpose(0, 1).detach()",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v0.sum().backward()',
    'v0.add_(v0)',
    'v5 = _View.apply(v0)',
    'v0.add_(v5)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
