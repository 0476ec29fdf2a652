"""Fuzz reproducer (autotensor vs PyTorch).

line 9: v6 = torch.autograd.grad(v4, [v4], grad_outputs=torch.ones((1,), dtype=v4.dtype) * 2, retain_graph=False, create_graph=False, allow_unused=False)[0]
line 9: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message='element 0 of tensors does not require grad and does not have a grad_fn')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(1,), values=array([2.], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = v1.exp()
    v3 = v0.exp()
    v4 = v2.unfold(-1, 1, 1)
    v2[...] = v0
    v6 = torch.autograd.grad(v4, [v4], grad_outputs=torch.ones((1,), dtype=v4.dtype) * 2, retain_graph=False, create_graph=False, allow_unused=False)[0]
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
    'v2 = v1.exp()',
    'v3 = v0.exp()',
    'v4 = v2.unfold(-1, 1, 1)',
    'v2[...] = v0',
    'v6 = torch.autograd.grad(v4, [v4], grad_outputs=torch.ones((1,), dtype=v4.dtype) * 2, retain_graph=False, create_graph=False, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
