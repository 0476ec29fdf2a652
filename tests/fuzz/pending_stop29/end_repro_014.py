"""Fuzz reproducer (autotensor vs PyTorch).

final state of v4:

Not equal to tolerance rtol=2e-06, atol=1e-06
final v4['tangent']['value']
Mismatched elements: 1 / 6 (16.7%)
Mismatch at index:
 [2, 0]: 0.00014662742614746094 (ACTUAL), 0.00014543533325195312 (DESIRED)
Max absolute difference among violations: 1.1920929e-06
Max relative difference among violations: 0.00819672
 ACTUAL: array([[-0.009023,  0.009024],
       [-0.004078,  0.004079],
       [ 0.000147, -0.000146]])
 DESIRED: array([[-0.009023,  0.009024],
       [-0.004078,  0.004079],
       [ 0.000145, -0.000146]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[-0.3869999945163727, -0.15600000321865082], [0.1459999978542328, -0.004999999888241291], [0.1509999930858612, 0.9399999976158142]], dtype='float32').reshape((3, 2)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.981, 1.803], [-1.126, -0.774], [0.987, -0.806]], dtype='float64').reshape((3, 2)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = torch.nn.functional.layer_norm(v0, v0.shape[-1:])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[-0.3869999945163727, -0.15600000321865082], [0.1459999978542328, -0.004999999888241291], [0.1509999930858612, 0.9399999976158142]], dtype='float32').reshape((3, 2)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.981, 1.803], [-1.126, -0.774], [0.987, -0.806]], dtype='float64').reshape((3, 2)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = torch.nn.functional.layer_norm(v0, v0.shape[-1:])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
