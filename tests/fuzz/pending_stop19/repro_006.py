"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:

Not equal to tolerance rtol=2e-06, atol=2.79295e-06
final v3['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 0.00097656
Max relative difference among violations: 0.00034965
 ACTUAL: array(2.791969)
 DESIRED: array(2.792945)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([1.763671875, 0.39990234375], dtype='float16').reshape((2,)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v1.dtype))
    v2 = v1.logsumexp(0, keepdim=False)
    v3 = v0.add(v2)
"""
import sys

sys.path.insert(0, '/work/main')

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([1.763671875, 0.39990234375], dtype='float16').reshape((2,)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v1.dtype))",
    'v2 = v1.logsumexp(0, keepdim=False)',
    'v3 = v0.add(v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
