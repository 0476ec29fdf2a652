"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:
final v5['tangent']['value']: dtype float16 != torch's float64

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[[1.763671875, 0.39990234375], [0.97900390625, 2.240234375]]], dtype='float16').reshape((1, 2, 2)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[[1.624, -0.612], [-0.528, -1.073]]], dtype='float64').reshape((1, 2, 2)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v1[..., 0]
    v5 = v4.renorm(2, 0, 1.0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[[1.763671875, 0.39990234375], [0.97900390625, 2.240234375]]], dtype='float16').reshape((1, 2, 2)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[[1.624, -0.612], [-0.528, -1.073]]], dtype='float64').reshape((1, 2, 2)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v1[..., 0]',
    'v5 = v4.renorm(2, 0, 1.0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
