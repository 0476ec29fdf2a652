"""Stop 33, helper act33: float32 activations bit-identical to PyTorch 2.13's CPU results.

A sweep x = linspace(-20, 20, 200001) plus subnormals, +-0, +-inf, NaN and a few large
values, with grad_output = linspace(-3, 3, n), runs forward and backward on autotensor and
torch, compared bit for bit (values, zero signs, NaN positions), once with
set_num_threads(1) on both and once with the default threading; so do typical activation
shapes (contiguous: PyTorch's float32 GELU is oneDNN's there, Note [oneDNN's GELU] in
autotensor/_ops/_specfun.py) and non-contiguous or single-element inputs (aten's kernels'
scalar loops: Note [glibc's log1pf, expm1f and tanhf])."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402

_SPECIAL = np.array([1e-45, 1e-40, 1e-38, -1e-45, -1e-40, -1e-38, 0.0, -0.0, np.inf, -np.inf,
                     np.nan, 1e-7, -1e-7, 88.7, -88.7, 100, -100, 1e30, -1e30], np.float32)
SWEEP = np.concatenate([np.linspace(-20, 20, 200001).astype(np.float32), _SPECIAL])

OPS = {
    "gelu": lambda F, x: F.gelu(x),
    "gelu_tanh": lambda F, x: F.gelu(x, approximate="tanh"),
    "softplus": lambda F, x: F.softplus(x),
    "softplus_2_10": lambda F, x: F.softplus(x, beta=2.0, threshold=10.0),
    "logsigmoid": lambda F, x: F.logsigmoid(x),
    "mish": lambda F, x: F.mish(x),
}
# The float32 kernels are ported up to raw.PORTED_MAX elements (Note [Size of the ported
# kernels]), so the sweep runs in pieces of 50,005 (odd: each has a scalar tail; more than
# GRAIN_SIZE: split between threads)
CHUNK = 50_005


def _run(lib, op, xs, gs):
    x = lib.tensor(xs, requires_grad=True)
    y = OPS[op](lib.nn.functional, x)
    y.backward(lib.tensor(gs))
    return y.detach().numpy(), x.grad.numpy()


def _assert_bits(got, want, what):
    nan = np.isnan(want)
    assert (np.isnan(got) == nan).all(), f"{what}: NaN positions differ"
    bad = got.view(np.uint32)[~nan] != want.view(np.uint32)[~nan]
    assert not bad.any(), f"{what}: {bad.sum()} of {bad.size} differ"


def _compare(op, xs, gs):
    want = _run(torch, op, xs, gs)
    got = _run(autotensor, op, xs, gs)
    _assert_bits(got[0], want[0], f"{op} forward")
    _assert_bits(got[1], want[1], f"{op} backward")


@pytest.fixture(params=["one_thread", "default_threads"])
def threads(request):
    old = torch.get_num_threads()
    if request.param == "one_thread":
        torch.set_num_threads(1)
        autotensor.set_num_threads(1)
    else:
        autotensor.set_num_threads(old)
    yield
    torch.set_num_threads(old)
    autotensor.set_num_threads(old)


@pytest.mark.parametrize("op", sorted(OPS))
def test_sweep_bits(op, threads):
    gs = np.linspace(-3, 3, SWEEP.size).astype(np.float32)
    for i in range(0, SWEEP.size, CHUNK):
        _compare(op, SWEEP[i:i + CHUNK], gs[i:i + CHUNK])


@pytest.mark.parametrize("shape", [(31,), (40, 37), (3, 77, 129), (64, 1024)])
@pytest.mark.parametrize("op", sorted(OPS))
def test_typical_shapes_bits(op, shape, threads):
    rng = np.random.default_rng(sum(shape))
    xs = (rng.standard_normal(shape) * 3).astype(np.float32)
    gs = rng.standard_normal(shape).astype(np.float32)
    _compare(op, xs, gs)


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("layout", ["transposed", "strided", "one", "zero_dim"])
def test_layouts_bits(op, layout):
    """Non-contiguous inputs and single elements (aten's own GELU kernel, the scalar loops
    with glibc's log1pf/tanhf: Note [glibc's log1pf, expm1f and tanhf])."""
    rng = np.random.default_rng(7)
    base = (rng.standard_normal((37, 40)) * 4).astype(np.float32)
    g = rng.standard_normal((37, 40)).astype(np.float32)
    make = {"transposed": lambda F, a: F.tensor(a.T.copy()).t(),
            "strided": lambda F, a: F.tensor(a)[:, ::3]}.get(layout)
    cases = [(make, base, g)] if make else [  # (single elements: 77 of them, one by one)
        (lambda F, a: F.tensor(a.reshape((1, 1) if layout == "one" else ())), base[0, i],
         g[0, i]) for i in range(40)] + [
        (lambda F, a: F.tensor(a.reshape((1, 1) if layout == "one" else ())), base[i, 0],
         g[i, 0]) for i in range(37)]
    for mk, xs, gs in cases:
        res = []
        for lib in (torch, autotensor):
            x = mk(lib, xs).requires_grad_()
            y = OPS[op](lib.nn.functional, x)
            y.backward(mk(lib, gs))
            res.append((y.detach().numpy(), x.grad.numpy()))
        _assert_bits(res[1][0], res[0][0], f"{op} forward")
        _assert_bits(res[1][1], res[0][1], f"{op} backward")
