"""float16/bfloat16 tensors with Python scalars: one md5 per result (run with `torch` and
with `autotensor` as the argument and diff the outputs)."""
import hashlib
import sys

import numpy as np

torch = __import__(sys.argv[1])
OPS = ['floor_divide', '__floordiv__', '__rfloordiv__', 'remainder', 'fmod', 'div',
       'true_divide', 'mul', 'add', 'sub', '__rsub__', '__rtruediv__', 'pow', '__rpow__',
       'atan2']


def digest(r):
    return hashlib.md5(r.to(torch.float64).numpy().tobytes()).hexdigest()[:8]


x = np.random.default_rng(0).uniform(-5, 5, 2000)
for dt in [torch.float16, torch.bfloat16]:
    a = torch.tensor(x, dtype=torch.float64).to(dt)
    for s in [0.1, -0.3, 1.7, 3, -2, 1e-3, 0.0]:
        for op in OPS:
            try:
                print(dt, s, op, digest(getattr(a, op)(s)))
            except Exception as e:
                print(dt, s, op, type(e).__name__)
        for mode in ['floor', 'trunc']:
            print(dt, s, mode, digest(a.div(s, rounding_mode=mode)))
