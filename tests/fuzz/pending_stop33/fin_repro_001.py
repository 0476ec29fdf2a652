"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v7 = v0.bitwise_and(v5)
line 7['raised']: autotensor raised NotImplementedError: '"bitwise_and_cpu" not implemented for \\'Float\\''
                  torch raised RuntimeError: "A view was created in no_grad mode and its base or another view of its base has been modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
  autotensor: {'raised': Raised(type_name='NotImplementedError', message='"bitwise_and_cpu" not implemented for \\'Float\\'')}
  torch:      {'raised': Raised(type_name='RuntimeError', message="A view was created in no_grad mode and its base or another view of its base has been modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) 

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    with torch.no_grad():
        v5 = v0.unsqueeze(0)
    with torch.no_grad():
        v6 = v0.exp_()
    v7 = v0.bitwise_and(v5)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'with torch.no_grad():\n    v5 = v0.unsqueeze(0)',
    'with torch.no_grad():\n    v6 = v0.exp_()',
    'v7 = v0.bitwise_and(v5)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
