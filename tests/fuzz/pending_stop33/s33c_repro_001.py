"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v6 = v5.bool()

Arrays are not equal
line 8['ok']
Mismatched elements: 1 / 3 (33.3%)
Mismatch at index:
 [2]: True (ACTUAL), False (DESIRED)
 ACTUAL: array([ True,  True,  True])
 DESIRED: array([ True,  True, False])
  autotensor: {'ok': TensorSummary(dtype='bool', shape=(3,), values=array([ True,  True,  True]), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='bool', shape=(3,), values=array([ True,  True, False]), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.624, -0.612, -0.0], dtype='float64').reshape((3,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.417, -0.056, -2.136], dtype='float64').reshape((3,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=3, dim=0)
    v6 = v5.bool()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.624, -0.612, -0.0], dtype='float64').reshape((3,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.417, -0.056, -2.136], dtype='float64').reshape((3,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=3, dim=0)',
    'v6 = v5.bool()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
