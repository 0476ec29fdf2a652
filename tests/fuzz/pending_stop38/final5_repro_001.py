"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v5 = torch.nn.functional.cross_entropy(v1, v3)
line 8['raised']: autotensor raised ValueError: 'Expected input batch_size (1) to match target batch_size (0).'
                  torch raised RuntimeError: 'expected target dtype to be Long or Byte, but got Float'
  autotensor: {'raised': Raised(type_name='ValueError', message='Expected input batch_size (1) to match target batch_size (0).')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='expected target dtype to be Long or Byte, but got Float')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[]], dtype='float32').reshape((1, 0)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[]], dtype='float64').reshape((1, 0)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = torch.nn.functional.mse_loss(v0, v1)
    v4 = v0.exp()
    v5 = torch.nn.functional.cross_entropy(v1, v3)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[]], dtype='float32').reshape((1, 0)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[]], dtype='float64').reshape((1, 0)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = torch.nn.functional.mse_loss(v0, v1)',
    'v4 = v0.exp()',
    'v5 = torch.nn.functional.cross_entropy(v1, v3)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
