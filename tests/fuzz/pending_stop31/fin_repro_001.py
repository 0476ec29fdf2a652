"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:
final v0['grad']: signed zero differs at []: autotensor np.float32(-0.0), torch np.float32(0.0)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(-0.4169999957084656, dtype='float32').reshape(()), requires_grad=True)
    v1 = v0.softmax(0)
    v2 = v1.atan2(v0)
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v2.sub(v2)
    v6.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(-0.4169999957084656, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = v0.softmax(0)',
    'v2 = v1.atan2(v0)',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v2.sub(v2)',
    'v6.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
