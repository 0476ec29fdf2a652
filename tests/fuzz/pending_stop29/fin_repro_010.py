"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1 = v0.pinverse()
line 3: keys ['ok'] != ['raised']
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(3, 4), values=array([[nan, nan, nan, nan],
       [nan, nan, nan, nan],
       [nan, nan, nan, nan]], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'raised': Raised(type_name='_LinAlgError', message='linalg.svd: The algorithm failed to converge because the input matrix is ill-conditioned or has too many repeated singular values (error code: 2).')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333, inf, 0.9789999723434448], [2.240999937057495, 1.8680000305175781, -0.9769999980926514], [0.949999988079071, -0.1509999930858612, -0.10300000011920929], [0.41100001335144043, 0.14399999380111694, 1.4539999961853027]], dtype='float32').reshape((4, 3)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528], [-1.073, 0.865, -2.302], [1.745, -0.761, 0.319], [-0.249, 1.462, -2.06]], dtype='float64').reshape((4, 3)), dtype=v0.dtype))
    v1 = v0.pinverse()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333, inf, 0.9789999723434448], [2.240999937057495, 1.8680000305175781, -0.9769999980926514], [0.949999988079071, -0.1509999930858612, -0.10300000011920929], [0.41100001335144043, 0.14399999380111694, 1.4539999961853027]], dtype='float32').reshape((4, 3)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528], [-1.073, 0.865, -2.302], [1.745, -0.761, 0.319], [-0.249, 1.462, -2.06]], dtype='float64').reshape((4, 3)), dtype=v0.dtype))",
    'v1 = v0.pinverse()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
