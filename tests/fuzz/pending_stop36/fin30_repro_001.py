"""Fuzz reproducer (autotensor vs PyTorch).

line 10: v6 = torch.nn.functional.conv1d(v1, v5)
line 10: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='ValueError', message='cannot reshape array of size 0 into shape (1,newaxis,0)')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(0, 0, 1), values=array([], shape=(0, 0, 1), dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0, 0)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 0, 0)), dtype=v1.dtype))
    v2 = v0.exp()
    v0.backward()
    v3 = v0 // v0
    v4 = v0.select(0, 0)
    v5 = v1.sum(0, keepdim=True)
    v6 = torch.nn.functional.conv1d(v1, v5)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0, 0)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 0, 0)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v0.backward()',
    'v3 = v0 // v0',
    'v4 = v0.select(0, 0)',
    'v5 = v1.sum(0, keepdim=True)',
    'v6 = torch.nn.functional.conv1d(v1, v5)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
