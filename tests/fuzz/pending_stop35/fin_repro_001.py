"""Fuzz reproducer (autotensor vs PyTorch).

final state of v2:

Not equal to tolerance rtol=2e-06, atol=3.81456e-06
final v2['tangent']['value']
Mismatched elements: 2 / 6 (33.3%)
Mismatch at indices:
 [0, 1]: -2.313652515411377 (ACTUAL), -2.313643455505371 (DESIRED)
 [1, 1]: -3.814577102661133 (ACTUAL), -3.8145644664764404 (DESIRED)
Max absolute difference among violations: 1.26361847e-05
Max relative difference among violations: 3.91586093e-06
 ACTUAL: array([[ 1.863219, -2.313653],
       [ 3.038574, -3.814577],
       [ 2.502338, -3.256424]])
 DESIRED: array([[ 1.863213, -2.313643],
       [ 3.038565, -3.814564],
       [ 2.502331, -3.256415]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.562000036239624, -1.9190000295639038, 0.9750000238418579], [0.9309999942779541, -1.6089999675750732, 0.5429999828338623]], dtype='float32').reshape((2, 3)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[0.275, -0.066, 0.155], [0.824, 0.128, 0.435]], dtype='float64').reshape((2, 3)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.pinverse()
    v2.add_(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.562000036239624, -1.9190000295639038, 0.9750000238418579], [0.9309999942779541, -1.6089999675750732, 0.5429999828338623]], dtype='float32').reshape((2, 3)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[0.275, -0.066, 0.155], [0.824, 0.128, 0.435]], dtype='float64').reshape((2, 3)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.pinverse()',
    'v2.add_(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
