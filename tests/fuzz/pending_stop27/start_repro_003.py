"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:

Not equal to tolerance rtol=2e-06, atol=1e-06
final v0['grad']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 0.0002076
Max relative difference among violations: 0.00073305
 ACTUAL: array(-0.283411, dtype=float32)
 DESIRED: array(-0.283203, dtype=float32)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v2 = torch.tensor(np.array([1.763671875], dtype='float16').reshape((1,)))
    v2.atan2_(v0)
    v2.sum().backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v2 = torch.tensor(np.array([1.763671875], dtype='float16').reshape((1,)))",
    'v2.atan2_(v0)',
    'v2.sum().backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
