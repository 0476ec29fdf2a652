"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v0.add_(v2)
line 3['raised']: autotensor raised RuntimeError: "output with shape [2, 1] doesn't match the broadcast shape [2, 2]"
                  torch raised RuntimeError: 'unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.'
  autotensor: {'raised': Raised(type_name='RuntimeError', message="output with shape [2, 1] doesn't match the broadcast shape [2, 2]")}
  torch:      {'raised': Raised(type_name='RuntimeError', message='unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645]], dtype='float32').reshape((2, 1)))
    v1 = v0.transpose(0, 1)
    v2 = _View.apply(v1)
    v0.add_(v2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645]], dtype='float32').reshape((2, 1)))",
    'v1 = v0.transpose(0, 1)',
    'v2 = _View.apply(v1)',
    'v0.add_(v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
