"""Fuzz reproducer (autotensor vs PyTorch).

line 2: v0.sub_(v1)
line 2: keys ['ok'] != ['raised']
  autotensor: {'ok': None}
  torch:      {'raised': Raised(type_name='RuntimeError', message='unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645]], dtype='float32').reshape((2, 1))).transpose(0, 1).detach()
    v1 = _View.apply(v0)
    v0.sub_(v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645]], dtype='float32').reshape((2, 1))).transpose(0, 1).detach()",
    'v1 = _View.apply(v0)',
    'v0.sub_(v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
