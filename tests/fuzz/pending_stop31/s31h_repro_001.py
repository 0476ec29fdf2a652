"""Fuzz reproducer (autotensor vs PyTorch).

final state of v4:

Not equal to tolerance rtol=2e-06, atol=3.07211e-06
final v4['tangent']['value']
Mismatched elements: 1 / 6 (16.7%)
Mismatch at index:
 [0, 1]: 3.0721235275268555 (ACTUAL), 3.072113275527954 (DESIRED)
Max absolute difference among violations: 1.02519989e-05
Max relative difference among violations: 3.33711617e-06
 ACTUAL: array([[ 0.63721 ,  3.072124],
       [-1.356745,  0.264823],
       [ 0.26319 , -0.977456]])
 DESIRED: array([[ 0.63721 ,  3.072113],
       [-1.356745,  0.264823],
       [ 0.26319 , -0.977456]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[-0.25699999928474426, -1.5230000019073486], [-0.597000002861023, -0.11800000071525574], [1.2910000085830688, -0.0689999982714653]], dtype='float32').reshape((3, 2)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-1.322, -1.227], [-0.132, -0.118], [-1.625, 0.367]], dtype='float64').reshape((3, 2)), dtype=v0.dtype))
    v1 = v0.logsumexp(0, keepdim=False)
    v0.sum().backward()
    v2 = v0.sub(v1)
    v3 = v0.bmm(torch.tensor(np.array([[[1.7640000581741333], [0.4000000059604645]], [[0.9789999723434448], [2.240999937057495]], [[1.8680000305175781], [-0.9769999980926514]]], dtype='float32').reshape((3, 2, 1))))
    v4 = torch.vmap(_seg)(v2)
    v5 = v0.exp()
    v4.register_hook(lambda g: _log.append(('v4', _c([g]))))
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[-0.25699999928474426, -1.5230000019073486], [-0.597000002861023, -0.11800000071525574], [1.2910000085830688, -0.0689999982714653]], dtype='float32').reshape((3, 2)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-1.322, -1.227], [-0.132, -0.118], [-1.625, 0.367]], dtype='float64').reshape((3, 2)), dtype=v0.dtype))",
    'v1 = v0.logsumexp(0, keepdim=False)',
    'v0.sum().backward()',
    'v2 = v0.sub(v1)',
    "v3 = v0.bmm(torch.tensor(np.array([[[1.7640000581741333], [0.4000000059604645]], [[0.9789999723434448], [2.240999937057495]], [[1.8680000305175781], [-0.9769999980926514]]], dtype='float32').reshape((3, 2, 1))))",
    'v4 = torch.vmap(_seg)(v2)',
    'v5 = v0.exp()',
    "v4.register_hook(lambda g: _log.append(('v4', _c([g]))))",
]

if __name__ == "__main__":
    run_and_compare(LINES)
