"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1 = torch.nn.functional.conv1d(v0, 1)
line 3['raised']: autotensor raised RuntimeError: 'Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: []'
                  torch raised TypeError: 'conv1d() received an invalid combination of arguments - got (Tensor, int), but expected one of:\\n * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, tuple of ints padding = 0, tuple of ints dilation = 1, int groups = 1)\\n * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, str padding = "valid", tuple of ints dilation = 1, int groups = 1)\\n'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: []')}
  torch:      {'raised': Raised(type_name='TypeError', message='conv1d() received an invalid combination of arguments - got (Tensor, int), but expected one of:\\n * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, tuple of ints padding = 0, tuple of ints dilation = 1, int groups = 1)\\n * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, str padding = "valid", 

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.nn.functional.conv1d(v0, 1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = torch.nn.functional.conv1d(v0, 1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
