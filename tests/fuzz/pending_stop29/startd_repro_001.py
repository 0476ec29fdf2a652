"""Fuzz reproducer (autotensor vs PyTorch).

final state of v0:

Not equal to tolerance rtol=2e-06, atol=1e-06
final v0['grad']
Mismatched elements: 1 / 3 (33.3%)
Mismatch at index:
 [0]: 0.5 (ACTUAL), 1.0 (DESIRED)
Max absolute difference among violations: 0.5
Max relative difference among violations: 0.5
 ACTUAL: array([0.5, 0. , 0. ], dtype=float32)
 DESIRED: array([1., 0., 0.], dtype=float32)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.6239999532699585, -0.6119999885559082, -0.527999997138977], dtype='float32').reshape((3,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.417, -0.056, -2.136], dtype='float64').reshape((3,)), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.6239999532699585, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(-0.417, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=3, dim=0)
    v3 = v1.maximum(v2)
    v3.sum().backward(inputs=[v0])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.6239999532699585, -0.6119999885559082, -0.527999997138977], dtype='float32').reshape((3,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.417, -0.056, -2.136], dtype='float64').reshape((3,)), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.6239999532699585, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(-0.417, dtype='float64').reshape(()), dtype=v1.dtype))",
    'v2 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=3, dim=0)',
    'v3 = v1.maximum(v2)',
    'v3.sum().backward(inputs=[v0])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
