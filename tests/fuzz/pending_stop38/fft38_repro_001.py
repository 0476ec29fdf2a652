"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=2, dim=0)

Not equal to tolerance rtol=2e-06, atol=1e-06
line 4['ok']
inf location mismatch:
 ACTUAL: array([0.000000e+00, 3.402823e+38], dtype=float32)
 DESIRED: array([ 0., inf], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(2,), values=array([0.0000000e+00, 3.4028235e+38], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(2,), values=array([ 0., inf], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, inf], dtype='float32').reshape((2,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))
    v1 = v0.nan_to_num_()
    v2 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=2, dim=0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, inf], dtype='float32').reshape((2,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v0.dtype))",
    'v1 = v0.nan_to_num_()',
    'v2 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=2, dim=0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
