"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v3 = torch.fft.irfft(torch.fft.rfft(v2, dim=0), n=3, dim=0)

Not equal to tolerance rtol=2e-06, atol=3.40282e+32
line 6['ok']
nan location mismatch:
 ACTUAL: array([ 0., inf, nan], dtype=float32)
 DESIRED: array([0.000000e+00, 3.402823e+38, 1.014120e+31], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(3,), values=array([ 0., inf, nan], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(3,), values=array([0.0000000e+00, 3.4028233e+38, 1.0141205e+31], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, inf, 0.9789999723434448], dtype='float32').reshape((3,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528], dtype='float64').reshape((3,)), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = v0.nextafter(v1)
    v3 = torch.fft.irfft(torch.fft.rfft(v2, dim=0), n=3, dim=0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, inf, 0.9789999723434448], dtype='float32').reshape((3,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528], dtype='float64').reshape((3,)), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    'v2 = v0.nextafter(v1)',
    'v3 = torch.fft.irfft(torch.fft.rfft(v2, dim=0), n=3, dim=0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
