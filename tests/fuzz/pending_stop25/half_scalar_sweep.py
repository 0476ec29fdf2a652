import sys, itertools
import numpy as np
torch = __import__(sys.argv[1])
rng = np.random.default_rng(0)
x = rng.uniform(-5, 5, 2000)
for dt in [torch.float16, torch.bfloat16]:
    a = torch.tensor(x, dtype=torch.float64).to(dt)
    for s in [0.1, -0.3, 1.7, 3, -2, 1e-3, 0.0]:
        for op in ['floor_divide', '__floordiv__', '__rfloordiv__', 'remainder', 'fmod', 'div', 'true_divide', 'mul', 'add', 'sub', '__rsub__', '__rtruediv__', 'pow', '__rpow__', 'atan2' ]:
            try:
                r = getattr(a, op)(s)
                print(dt, s, op, r.to(torch.float64).numpy().tobytes().hex()[:0], __import__("hashlib").md5(r.to(torch.float64).numpy().tobytes()).hexdigest()[:8])
            except Exception as e:
                print(dt, s, op, type(e).__name__)
        for mode in ['floor', 'trunc']:
            r = a.div(s, rounding_mode=mode); print(dt, s, mode, __import__("hashlib").md5(r.to(torch.float64).numpy().tobytes()).hexdigest()[:8])
