"""Fuzz reproducer (autotensor vs PyTorch).

final state of v4:

Not equal to tolerance rtol=2e-06, atol=2.57286e-06
final v4['tangent']['value']
Mismatched elements: 1 / 3 (33.3%)
Mismatch at index:
 [2]: 2.0613536834716797 (ACTUAL), 2.0611515045166016 (DESIRED)
Max absolute difference among violations: 0.00020218
Max relative difference among violations: 9.8090293e-05
 ACTUAL: array([-2.572861,  1.595387,  2.061354])
 DESIRED: array([-2.572861,  1.595387,  2.061152])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.61899995803833, 0.6690000295639038, 0.7200000286102295, 0.45399999618530273], [0.4959999918937683, 0.18000000715255737, 0.6389999985694885, -0.15600000321865082], [-0.9769999980926514, 0.289000004529953, 1.6069999933242798, 3.197999954223633]], dtype='float32').reshape((3, 4)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.223, 0.229, 0.737, -0.855], [1.129, -0.898, 0.151, 0.005], [-0.037, 0.38, -0.075, -2.379]], dtype='float64').reshape((3, 4)), dtype=v0.dtype))
    v0 *= v0
    v2 = v0[3]
    v3 = torch.addmm(torch.tensor(np.array([-1.6239999532699585, -0.10199999809265137], dtype='float32').reshape((2,))), v0, torch.tensor(np.array([[-1.8519999980926514, -1.0809999704360962], [0.07900000363588333, -1.3539999723434448], [0.6259999871253967, 0.7329999804496765], [-1.4709999561309814, -1.6749999523162842]], dtype='float32').reshape((4, 2))))
    v4 = v3.var(-1, keepdim=False)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.61899995803833, 0.6690000295639038, 0.7200000286102295, 0.45399999618530273], [0.4959999918937683, 0.18000000715255737, 0.6389999985694885, -0.15600000321865082], [-0.9769999980926514, 0.289000004529953, 1.6069999933242798, 3.197999954223633]], dtype='float32').reshape((3, 4)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.223, 0.229, 0.737, -0.855], [1.129, -0.898, 0.151, 0.005], [-0.037, 0.38, -0.075, -2.379]], dtype='float64').reshape((3, 4)), dtype=v0.dtype))",
    'v0 *= v0',
    'v2 = v0[3]',
    "v3 = torch.addmm(torch.tensor(np.array([-1.6239999532699585, -0.10199999809265137], dtype='float32').reshape((2,))), v0, torch.tensor(np.array([[-1.8519999980926514, -1.0809999704360962], [0.07900000363588333, -1.3539999723434448], [0.6259999871253967, 0.7329999804496765], [-1.4709999561309814, -1.6749999523162842]], dtype='float32').reshape((4, 2))))",
    'v4 = v3.var(-1, keepdim=False)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
