"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:
final v1['grad']: signed zero differs at []: autotensor np.float32(-0.0), torch np.float32(0.0)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.tensor(np.array(-0.052000001072883606, dtype='float32').reshape(()), requires_grad=True)
    v2 = v1.log()
    v3 = v2.sgn()
    v4 = v0.exp()
    v5 = v0.exp()
    v3.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.tensor(np.array(-0.052000001072883606, dtype='float32').reshape(()), requires_grad=True)",
    'v2 = v1.log()',
    'v3 = v2.sgn()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v3.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
