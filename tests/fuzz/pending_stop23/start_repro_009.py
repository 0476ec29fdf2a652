"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v0.sum().backward()
line 4['raised']: autotensor raised RuntimeError: 'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.'
                  torch raised RuntimeError: 'one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [0, 2]], which is output 0 of AsStrided, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [0, 2]], which is output 0 of AsStrided, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=F

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 2)), requires_grad=True) * 1
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 2)), dtype=v0.dtype))
    v0.atan2_(v0)
    v0.sum().backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 2)), requires_grad=True) * 1",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 2)), dtype=v0.dtype))",
    'v0.atan2_(v0)',
    'v0.sum().backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
