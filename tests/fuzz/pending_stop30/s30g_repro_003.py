"""Fuzz reproducer (autotensor vs PyTorch).

line 14: v2.backward()
line 14: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message='Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after cal
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = v0 % v1
    v3 = v0.exp()
    v4 = v0.exp()
    v2.backward()
    v5 = v0.exp()
    v6 = v0.exp()
    v7 = v0.exp()
    v8 = v0.exp()
    v9 = v0.exp()
    v2.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    'v2 = v0 % v1',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v2.backward()',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'v7 = v0.exp()',
    'v8 = v0.exp()',
    'v9 = v0.exp()',
    'v2.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
