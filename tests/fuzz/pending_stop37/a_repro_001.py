"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1 = torch.nn.functional.adaptive_avg_pool1d(v0, output_size=2)
line 3: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message='adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for non-batch dimensions, but grad_output has sizes [0, 0, 1, 2] with dimension 1 being empty')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(0, 0, 2), values=array([], shape=(0, 0, 2), dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0, 1)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0, 1)), dtype=v0.dtype))
    v1 = torch.nn.functional.adaptive_avg_pool1d(v0, output_size=2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0, 1)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0, 1)), dtype=v0.dtype))",
    'v1 = torch.nn.functional.adaptive_avg_pool1d(v0, output_size=2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
