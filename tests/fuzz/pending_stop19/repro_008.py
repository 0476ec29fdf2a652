"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:

Not equal to tolerance rtol=2e-06, atol=1e-06
final v5['tangent']['value']
nan location mismatch:
 ACTUAL: array(nan)
 DESIRED: array(0.100746)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([1.6239999532699585, -0.6119999885559082], dtype='float32').reshape((2,)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([-0.417, -0.056], dtype='float64').reshape((2,)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v1.clamp_(min=0.0)
    v4 = v1.rsqrt()
    v5 = v4.amin(0, keepdim=False)
"""
import sys

sys.path.insert(0, '/work/main')

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([1.6239999532699585, -0.6119999885559082], dtype='float32').reshape((2,)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([-0.417, -0.056], dtype='float64').reshape((2,)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v1.clamp_(min=0.0)',
    'v4 = v1.rsqrt()',
    'v5 = v4.amin(0, keepdim=False)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
