"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:

Not equal to tolerance rtol=inf, atol=inf
final v3['tangent']['value']
nan location mismatch:
 ACTUAL: array([      nan, -0.364971,       nan])
 DESIRED: array([          nan, -3.649707e-01, -8.631674e-05])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([-0.2669999897480011, 1.9450000524520874, -1.7890000343322754], dtype='float32').reshape((3,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-1.376, -1.018, 0.808], dtype='float64').reshape((3,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.clamp_min(1e-310)
    v3 = torch.fft.irfft(torch.fft.rfft(v2, dim=0), n=3, dim=0)
    v4 = v3.sqrt_()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([-0.2669999897480011, 1.9450000524520874, -1.7890000343322754], dtype='float32').reshape((3,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-1.376, -1.018, 0.808], dtype='float64').reshape((3,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.clamp_min(1e-310)',
    'v3 = torch.fft.irfft(torch.fft.rfft(v2, dim=0), n=3, dim=0)',
    'v4 = v3.sqrt_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
