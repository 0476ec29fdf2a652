"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = torch.nn.functional.conv1d(v0, v1)
line 4: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message='expected scalar type Float but found Long')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(1, 0, 1), values=array([], shape=(1, 0, 1), dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[]], dtype='float32').reshape((1, 0, 0)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[]], dtype='float64').reshape((1, 0, 0)), dtype=v0.dtype))
    v1 = v0.sort(stable=True, dim=0)[1]
    v2 = torch.nn.functional.conv1d(v0, v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[]], dtype='float32').reshape((1, 0, 0)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[]], dtype='float64').reshape((1, 0, 0)), dtype=v0.dtype))",
    'v1 = v0.sort(stable=True, dim=0)[1]',
    'v2 = torch.nn.functional.conv1d(v0, v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
