"""Fuzz reproducer (autotensor vs PyTorch).

final state of v4:

Not equal to tolerance rtol=0.002, atol=0.001
final v4['tangent']['value']
nan location mismatch:
 ACTUAL: array([-0.713379,      -inf])
 DESIRED: array([-0.713379,       nan])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([0.80322265625, -1.013671875], dtype='float16').reshape((2,)))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([-0.556, 1.179], dtype='float64').reshape((2,)), dtype=v2.dtype))
    v3 = v2.polygamma(1)
    v4 = v3.polygamma(1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array([0.80322265625, -1.013671875], dtype='float16').reshape((2,)))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([-0.556, 1.179], dtype='float64').reshape((2,)), dtype=v2.dtype))",
    'v3 = v2.polygamma(1)',
    'v4 = v3.polygamma(1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
