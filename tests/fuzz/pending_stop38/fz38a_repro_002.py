"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:
final v3['tangent']['requires_grad']: autotensor gave False, torch gave True

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)), requires_grad=True)
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v1.dtype))
    v2 = torch.tensor(np.array([[]], dtype='float32').reshape((1, 0, 0)))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([[]], dtype='float64').reshape((1, 0, 0)), dtype=v2.dtype))
    v3 = torch.nn.functional.conv1d(v1, v2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/wt-fz38a'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([], dtype='float32').reshape((0, 0)), requires_grad=True)",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array([[]], dtype='float32').reshape((1, 0, 0)))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([[]], dtype='float64').reshape((1, 0, 0)), dtype=v2.dtype))",
    'v3 = torch.nn.functional.conv1d(v1, v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
