"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:

Arrays are not equal
final v2['value']
Mismatched elements: 1 / 1 (100%)
Mismatch at index:
 [0]: 0 (ACTUAL), 255 (DESIRED)
Max absolute difference among violations: 1
Max relative difference among violations: 0.00392157
 ACTUAL: array([0], dtype=uint8)
 DESIRED: array([255], dtype=uint8)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.tensor(np.array(-1.694000005722046, dtype='float32').reshape(()), dtype=torch.bfloat16)
    v2 = torch.tensor(np.array([4], dtype='uint8').reshape((1,)))
    v2[...] = v1
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.tensor(np.array(-1.694000005722046, dtype='float32').reshape(()), dtype=torch.bfloat16)",
    "v2 = torch.tensor(np.array([4], dtype='uint8').reshape((1,)))",
    'v2[...] = v1',
]

if __name__ == "__main__":
    run_and_compare(LINES)
