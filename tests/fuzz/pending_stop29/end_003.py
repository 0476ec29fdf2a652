"""Fuzz reproducer (autotensor vs PyTorch).

line 12: v2.sum().backward()
line 12: keys ['ok'] != ['raised']
  autotensor: {'ok': None}
  torch:      {'raised': Raised(type_name='RuntimeError', message='one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [1]], which is output 0 of AsStrided, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=Fals

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,)), requires_grad=True) * 1
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=1, dim=0)
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v0.exp()
    v7 = v0.exp()
    v8 = v0.exp()
    v9 = v0.exp_()
    v2.sum().backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,)), requires_grad=True) * 1",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=1, dim=0)',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'v7 = v0.exp()',
    'v8 = v0.exp()',
    'v9 = v0.exp_()',
    'v2.sum().backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
