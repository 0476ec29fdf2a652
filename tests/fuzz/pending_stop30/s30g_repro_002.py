"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v2.sum().backward()
line 6['raised']: autotensor raised RuntimeError: 'Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.'
                  torch raised RuntimeError: 'one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor []], which is output 0 of Prod, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after cal
  torch:      {'raised': Raised(type_name='RuntimeError', message='one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor []], which is output 0 of Prod, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = v0.prod()
    v2 = torch.autograd.grad(v1, [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]
    v1.add_(1)
    v2.sum().backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    'v1 = v0.prod()',
    'v2 = torch.autograd.grad(v1, [v0], retain_graph=False, create_graph=True, allow_unused=False)[0]',
    'v1.add_(1)',
    'v2.sum().backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
