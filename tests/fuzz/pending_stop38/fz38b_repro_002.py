"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v3 = torch.nn.functional.batch_norm(v2, None, None, training=True)
line 6['raised']: autotensor raised NotImplementedError: '"batch_norm" not implemented for \\'Long\\''
                  torch raised RuntimeError: 'mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long'
  autotensor: {'raised': Raised(type_name='NotImplementedError', message='"batch_norm" not implemented for \\'Long\\'')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([[1, -1], [-4, -1]], dtype='int64').reshape((2, 2))).transpose(0, 1).detach()
    v3 = torch.nn.functional.batch_norm(v2, None, None, training=True)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/wt-fz38b'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array([[1, -1], [-4, -1]], dtype='int64').reshape((2, 2))).transpose(0, 1).detach()",
    'v3 = torch.nn.functional.batch_norm(v2, None, None, training=True)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
