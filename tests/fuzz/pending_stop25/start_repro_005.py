"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2.backward()
line 4['raised']: autotensor raised RuntimeError: 'derivative for aten::floor_divide is not implemented'
                  torch raised RuntimeError: 'one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor []], which is output 0 of Exp, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='derivative for aten::floor_divide is not implemented')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor []], which is output 0 of Exp, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = v0.floor_divide(v0)
    v2 = v1.gather(0, torch.tensor(0))
    v3 = v1.exp_()
    v2.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = v0.floor_divide(v0)',
    'v2 = v1.gather(0, torch.tensor(0))',
    'v3 = v1.exp_()',
    'v2.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
