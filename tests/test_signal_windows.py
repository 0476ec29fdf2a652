"""torch.signal.windows: every window x sizes x sym x dtype against PyTorch (the same
linspace and formulas; sin/cos/exp/i0 are NumPy's, within an ulp of PyTorch's: README
Numerics), errors, and a differentiable window."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

WINDOWS = {
    "bartlett": {}, "blackman": {}, "cosine": {}, "hamming": {}, "hann": {}, "nuttall": {},
    "exponential": {"tau": 2.5}, "gaussian": {"std": 0.7}, "kaiser": {"beta": 5.0},
    "general_hamming": {"alpha": 0.6}, "general_cosine": {"a": [0.5, 0.3, 0.2]},
}


def _run(mod, name, M, **kw):
    try:
        r = getattr(mod.signal.windows, name)(M, **kw)
        return ("ok", str(r.dtype).split(".")[-1], r.detach().numpy().tolist())
    except (ValueError, TypeError) as e:
        return ("raised", type(e).__name__, str(e))


@pytest.mark.parametrize("name", sorted(WINDOWS))
def test_windows_match_torch(name):
    for M in [0, 1, 2, 5, 16, 33]:
        for sym in [True, False]:
            for dtype in ["float32", "float64"]:
                kw = dict(WINDOWS[name], sym=sym)
                a = _run(autotensor, name, M, dtype=getattr(autotensor, dtype), **kw)
                t = _run(torch, name, M, dtype=getattr(torch, dtype), **kw)
                assert a[:2] == t[:2], (M, sym, dtype)
                if a[0] == "ok":
                    rtol, atol = (1e-13, 1e-15) if dtype == "float64" else (1e-6, 1e-7)
                    np.testing.assert_allclose(a[2], t[2], rtol=rtol, atol=atol)
                else:
                    assert a == t


@pytest.mark.parametrize("name,kw", [
    ("bartlett", {"M": -1}), ("hann", {"M": 4, "dtype": "int64"}),
    ("exponential", {"M": 4, "tau": 0}), ("exponential", {"M": 4, "center": 1.0}),
    ("gaussian", {"M": 4, "std": -1.0}), ("kaiser", {"M": 4, "beta": -1.0}),
    ("general_cosine", {"M": 4, "a": 3}), ("general_cosine", {"M": 4, "a": []}),
    ("exponential", {"M": 5, "center": 1.0, "sym": False}),
])
def test_window_errors_and_options_match_torch(name, kw):
    def run(mod):
        k = dict(kw)
        if "dtype" in k:
            k["dtype"] = getattr(mod, k["dtype"])
        return _run(mod, name, k.pop("M"), **k)
    assert run(autotensor) == run(torch)


def test_window_default_dtype_and_gradient():
    w = autotensor.signal.windows.general_cosine(6, a=[0.5, 0.5], requires_grad=True)
    assert w.dtype == autotensor.float32 and w.requires_grad
    tw = torch.signal.windows.general_cosine(6, a=[0.5, 0.5], requires_grad=True)
    assert w.grad_fn.name() == tw.grad_fn.name()
