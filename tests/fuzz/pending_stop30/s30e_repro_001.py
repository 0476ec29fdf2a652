"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v3.sum().backward()
line 5['raised']: autotensor raised RuntimeError: 'one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [0]] is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).'
                  torch raised RuntimeError: 'Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is not supported, please use out-of-place `.detach()` instead'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [0]] is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is not supported, please use out-of-place `.detach()` instead')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True) * 1
    v1 = v0.exp()
    v0.mul_(v0)
    v3 = v0.exp()
    v4 = v0.detach_()
    v3.sum().backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True) * 1",
    'v1 = v0.exp()',
    'v0.mul_(v0)',
    'v3 = v0.exp()',
    'v4 = v0.detach_()',
    'v3.sum().backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
