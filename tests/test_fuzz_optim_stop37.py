"""Stop 37: the optimizers' parameter trajectories bit for bit as PyTorch's CPU default
(single-tensor) path, step after step, float32 and float64, given the same gradients
(Note [Fused optimizer updates] in autotensor/optim/optimizer.py).

PyTorch's CPU sqrt is MKL's, which on AMD CPUs is an ulp off the correctly rounded value on
1-20% of inputs (README "Numerics"); autotensor's is correctly rounded. The optimizers that
take a square root are compared with torch's sqrt swapped into autotensor's (``sqrt_`` of
their modules), so that every other op is checked bit for bit; where torch's sqrt is
correctly rounded (Intel CPUs) the swap changes nothing.
"""
import hashlib
import importlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402

SQRT_MODULES = ("adam", "adagrad", "adadelta", "nadam", "radam", "rmsprop")

CONFIGS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("SGD", dict(lr=0.1, maximize=True, dampening=0.1, momentum=0.3)),
    ("SGD", dict(lr=0.07, maximize=True, weight_decay=0.2)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, amsgrad=True, weight_decay=0.1)),
    ("Adam", dict(lr=0.01, maximize=True, betas=(0.8, 0.99))),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.01, amsgrad=True, maximize=True)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, momentum=0.5, centered=True)),
    ("RMSprop", dict(lr=0.01, momentum=0.3, weight_decay=0.1, maximize=True)),
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.1, maximize=True)),
    ("Adadelta", dict()),
    ("Adadelta", dict(lr=0.5, weight_decay=0.1, maximize=True)),
    ("Adamax", dict()),
    ("Adamax", dict(weight_decay=0.1, maximize=True)),
    ("NAdam", dict()),
    ("NAdam", dict(weight_decay=0.1, maximize=True)),
    ("NAdam", dict(decoupled_weight_decay=True, weight_decay=0.1)),
    ("RAdam", dict()),
    ("RAdam", dict(lr=0.01, weight_decay=0.1)),
    ("RAdam", dict(decoupled_weight_decay=True, weight_decay=0.1)),
    ("ASGD", dict()),
    ("ASGD", dict(lr=0.05, t0=3, weight_decay=0.1, maximize=True)),
    ("Rprop", dict()),
    ("Rprop", dict(maximize=True, etas=(0.3, 1.5))),
]

# parameter layouts: (shape, transposed): a transposed one is a non-contiguous leaf
LAYOUTS = {
    "37": [((37,), False)],
    "one": [((1,), False)],
    "0d": [((), False)],
    "group": [((5, 7), False), ((7, 5), True), ((13,), False)],
    "1000": [((1000,), False)],
    "65536": [((256, 256), False)],
    "70000": [((70000,), False)],
    "2d-big-t": [((300, 250), True)],
}


def _sqrt_of(mod):
    """torch's sqrt as an ``out=`` kernel (see the module docstring)."""
    def sqrt_(a, out):
        np.copyto(out, mod.from_numpy(np.ascontiguousarray(a)).sqrt().numpy().reshape(
            out.shape))
        return out
    return sqrt_


def trajectory(mod, name, kw, dtype, layout, steps, seed=0):
    """The hash of every parameter and state tensor after each step."""
    rng = np.random.default_rng(seed)
    dt = getattr(mod, dtype)
    params = []
    def draw(shape):
        if dtype.startswith("complex"):
            return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
        return rng.standard_normal(shape)

    for shape, transposed in LAYOUTS[layout]:
        a = draw(shape[::-1] if transposed else shape)
        w = mod.tensor(a, dtype=dt)
        if transposed:
            w = w.t()
        params.append(w.detach().requires_grad_())
    groups = [{"params": params[:1]}]
    if len(params) > 1:  # a second group with its own learning rate
        groups.append({"params": params[1:], "lr": kw.get("lr", 0.01) * 0.5})
    opt = getattr(mod.optim, name)(groups, **kw)
    out = []
    for step in range(steps):
        for w in params:
            g = draw(tuple(w.shape))
            if rng.random() < 0.2:
                g.flat[:: 3] = 0.0
            if name == "Rprop" and step == 2:  # (aten's sign of NaN is 0: no step there)
                g.flat[-1] = np.nan
            w.grad = mod.tensor(g, dtype=dt)
        opt.step()
        h = hashlib.md5()
        for w in params:
            h.update(np.ascontiguousarray(w.detach().numpy()).tobytes())
            for k, v in sorted(opt.state[w].items()):
                if hasattr(v, "numpy"):
                    h.update(k.encode() + np.ascontiguousarray(v.detach().numpy()).tobytes())
        out.append(h.hexdigest()[:12])
    return out


@pytest.fixture
def torch_sqrt(monkeypatch):
    for m in SQRT_MODULES:
        monkeypatch.setattr(importlib.import_module("autotensor.optim." + m), "sqrt_",
                            _sqrt_of(torch), raising=False)


def _first_difference(a, b):
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,kw", CONFIGS, ids=lambda x: str(x))
@pytest.mark.parametrize("layout", ["37", "one", "0d", "group"])
def test_trajectory_bit_for_bit(torch_sqrt, name, kw, dtype, layout):
    ours = trajectory(autotensor, name, kw, dtype, layout, 30)
    theirs = trajectory(torch, name, kw, dtype, layout, 30)
    assert _first_difference(ours, theirs) is None


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name,kw", [c for c in CONFIGS if c[0] != "Rprop" or "maximize" not in
                                     c[1]], ids=lambda x: str(x))
@pytest.mark.parametrize("layout", ["37", "group"])
def test_complex_trajectory_bit_for_bit(torch_sqrt, name, kw, dtype, layout):
    """Complex parameters through their real views (PyTorch's view_as_real; SGD's complex
    add unfused as aten's). (Not Rprop with maximize: it keeps ``-grad`` as ``prev``, and
    aten's complex neg in its SIMD loop is ``0 - x``, +0 for a zero, unlike ours and its
    scalar tail: tests/fuzz/OPEN_FINDINGS.md, Stop 37 optim37.)"""
    ours = trajectory(autotensor, name, kw, dtype, layout, 10)
    theirs = trajectory(torch, name, kw, dtype, layout, 10)
    assert _first_difference(ours, theirs) is None


LARGE = [c for c in CONFIGS if c[0] in ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta",
                                        "NAdam")]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,kw", LARGE, ids=lambda x: str(x))
@pytest.mark.parametrize("layout", ["1000", "65536"])
def test_trajectory_of_parameters_up_to_ported_max_bit_for_bit(torch_sqrt, name, kw, dtype,
                                                               layout):
    ours = trajectory(autotensor, name, kw, dtype, layout, 4 if layout == "1000" else 2)
    theirs = trajectory(torch, name, kw, dtype, layout, len(ours))
    assert _first_difference(ours, theirs) is None


def _params_after(mod, name, kw, dtype, layout, steps):
    """The parameters after ``steps`` steps, as float64 arrays."""
    rng = np.random.default_rng(1)
    dt = getattr(mod, dtype)
    params = []
    for shape, transposed in LAYOUTS[layout]:
        a = rng.standard_normal(shape[::-1] if transposed else shape)
        w = mod.tensor(a, dtype=dt)
        params.append((w.t() if transposed else w).detach().requires_grad_())
    opt = getattr(mod.optim, name)(params, **kw)
    for _ in range(steps):
        for w in params:
            w.grad = mod.tensor(rng.standard_normal(tuple(w.shape)), dtype=dt)
        opt.step()
    return [w.detach().numpy().astype(np.float64) for w in params]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,kw", LARGE, ids=lambda x: str(x))
@pytest.mark.parametrize("layout", ["70000", "2d-big-t"])
def test_parameters_past_ported_max_within_rounding(name, kw, dtype, layout):
    """Past PORTED_MAX elements (several blocks; transposed) the multiply-adds round twice,
    as the tensor ops' (Note [Fused optimizer updates]): an ulp or so from PyTorch's."""
    ours = _params_after(autotensor, name, kw, dtype, layout, 3)
    theirs = _params_after(torch, name, kw, dtype, layout, 3)
    tol = 1e-5 if dtype == "float32" else 1e-13
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,kw", [c for c in CONFIGS if c[0] in ("SGD", "Adamax", "ASGD",
                                                                     "Rprop")],
                         ids=lambda x: str(x))
def test_trajectory_without_sqrt_bit_for_bit(name, kw, dtype):
    """The optimizers that take no square root: bit for bit with nothing swapped."""
    ours = trajectory(autotensor, name, kw, dtype, "group", 30)
    theirs = trajectory(torch, name, kw, dtype, "group", 30)
    assert _first_difference(ours, theirs) is None


def _versions(mod, name, kw):
    """The parameter's and its state tensors' version counters after three steps."""
    w = mod.tensor(np.arange(3.0), dtype=mod.float32, requires_grad=True)
    opt = getattr(mod.optim, name)([w], **kw)
    for _ in range(3):
        w.grad = mod.tensor(np.ones(3), dtype=mod.float32)
        opt.step()
    return w._version, {k: v._version for k, v in opt.state[w].items()
                        if hasattr(v, "_version")}


@pytest.mark.parametrize("name,kw", CONFIGS, ids=lambda x: str(x))
def test_version_counters_count_pytorchs_in_place_ops(name, kw):
    assert _versions(autotensor, name, kw) == _versions(torch, name, kw)


def test_fused_multiply_add_at_float32_midpoints_and_subnormals():
    """The float32 FMA's rare cases: a float64 sum on a float32 midpoint (double rounding)
    and results in float32's subnormal range, against torch's add with alpha."""
    from autotensor.optim.optimizer import axpy_
    # (1 + 2**-23) + (2**-24 + 2**-47) * (1 - 2**-23) = 1 + 2**-23 + 2**-24 - 2**-70: float64
    # rounds it onto the float32 midpoint, which then rounds to even (1 + 2**-22) instead
    # of down (1 + 2**-23)
    a = np.array([1 + 2.0 ** -23, -1 - 2.0 ** -23, 2.0 ** -130, -(2.0 ** -127), 3.0],
                 np.float32)
    b = np.array([2.0 ** -24 + 2.0 ** -47, -(2.0 ** -24 + 2.0 ** -47), 2.0 ** -140,
                  2.0 ** -128, 0.0], np.float32)
    for alpha in (1 - 2.0 ** -23, 0.3, -0.7):
        ours = a.copy()
        axpy_(ours, b, alpha)
        theirs = torch.from_numpy(a.copy()).add_(torch.from_numpy(b), alpha=alpha).numpy()
        assert ours.tobytes() == theirs.tobytes()
    naive = a + np.float32(1 - 2.0 ** -23) * b
    assert naive[0] == np.float32(1 + 2.0 ** -22)   # (the double rounding it avoids)


if __name__ == "__main__":  # the differing (config x step) counts, and with torch's sqrt
    import sys
    total = differ = 0
    for layout in sys.argv[1:] or ["37"]:
        for dtype in ("float32", "float64"):
            for name, kw in CONFIGS:
                t = trajectory(torch, name, kw, dtype, layout, 30 if layout in (
                    "37", "one", "0d", "group") else 3)
                a = trajectory(autotensor, name, kw, dtype, layout, len(t))
                n = sum(x != y for x, y in zip(t, a))
                total += len(t)
                differ += n
                if n:
                    print(layout, dtype, name, kw, n, "first", _first_difference(t, a))
    print("differing", differ, "of", total)
