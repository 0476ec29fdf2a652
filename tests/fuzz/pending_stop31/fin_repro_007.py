"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:
final v2: autotensor gave {'value': TensorSummary(dtype='float32', shape=(3, 3), values=array([[nan, nan, nan],
       [nan, nan, nan],
       [nan, nan, nan]], dtype=float32), requires_grad=False, grad_fn=None), 'grad': None, 'version': 0, 'is_leaf': True, 'grad_fn': None, 'next': None, 'tangent': {'value': TensorSummary(dtype='float64', shape=(3, 3), values=array([[nan, nan, nan],
       [nan, nan, nan],
       [nan, nan, nan]]), requires_grad=False, grad_fn=None), 'requires_grad': False}} (dict), torch gave 'undefined' (str)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645, 0.9789999723434448], [2.240999937057495, 1.8680000305175781, -0.9769999980926514], [0.949999988079071, -0.1509999930858612, -0.10300000011920929]], dtype='float32').reshape((3, 3)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528], [-1.073, 0.865, -2.302], [1.745, -0.761, 0.319]], dtype='float64').reshape((3, 3)), dtype=v0.dtype))
    v1 = v0.add(float('inf'))
    v2 = v1.pinverse()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645, 0.9789999723434448], [2.240999937057495, 1.8680000305175781, -0.9769999980926514], [0.949999988079071, -0.1509999930858612, -0.10300000011920929]], dtype='float32').reshape((3, 3)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528], [-1.073, 0.865, -2.302], [1.745, -0.761, 0.319]], dtype='float64').reshape((3, 3)), dtype=v0.dtype))",
    "v1 = v0.add(float('inf'))",
    'v2 = v1.pinverse()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
