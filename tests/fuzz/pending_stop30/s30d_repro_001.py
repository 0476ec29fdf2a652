"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v1.add_(v3)
line 8['raised']: autotensor raised RuntimeError: 'unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.'
                  torch raised RuntimeError: 'Output 0 of Unbind is a view and its base or another view of its base has been modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Output 0 of Unbind is a view and its base or another view of its base has been modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,)), requires_grad=True) * 1
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v1.unbind(0)[0]
    v4 = _Dirty.apply(v1)
    v1.add_(v3)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,)), requires_grad=True) * 1",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v1.unbind(0)[0]',
    'v4 = _Dirty.apply(v1)',
    'v1.add_(v3)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
