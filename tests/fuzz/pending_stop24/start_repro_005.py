"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v0[...] = v3
line 6['raised']: autotensor raised RuntimeError: 'unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.'
                  torch raised RuntimeError: 'a view of a leaf Variable that requires grad is being used in an in-place operation.'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='a view of a leaf Variable that requires grad is being used in an in-place operation.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.reshape(1, -1)
    v0[...] = v3
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.reshape(1, -1)',
    'v0[...] = v3',
]

if __name__ == "__main__":
    run_and_compare(LINES)
