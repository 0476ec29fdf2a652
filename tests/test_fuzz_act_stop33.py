"""Stop 33, helper act33: float32 activations bit-identical to PyTorch 2.13's CPU results.

A sweep x = linspace(-20, 20, 200001) plus subnormals, +-0, +-inf, NaN and a few large
values, with grad_output = linspace(-3, 3, n), runs forward and backward on autotensor and
torch, compared bit for bit (values, zero signs, NaN positions), once with
torch.set_num_threads(1) and once with the default threading; and on typical activation
shapes (contiguous, where PyTorch's float32 GELU is oneDNN's: Note [oneDNN's GELU] in
autotensor/_ops/_specfun.py)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402

_SPECIAL = np.array([1e-45, 1e-40, 1e-38, -1e-45, -1e-40, -1e-38, 0.0, -0.0, np.inf, -np.inf,
                     np.nan, 1e-7, -1e-7, 88.7, -88.7, 100, -100, 1e30, -1e30], np.float32)
SWEEP = np.concatenate([np.linspace(-20, 20, 200001).astype(np.float32), _SPECIAL])

OPS = {
    "gelu": lambda F, x: F.gelu(x),
}


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
    yield
    torch.set_num_threads(old)


@pytest.mark.parametrize("op", sorted(OPS))
def test_sweep_bits(op, threads):
    _compare(op, SWEEP, np.linspace(-3, 3, SWEEP.size).astype(np.float32))


@pytest.mark.parametrize("shape", [(2,), (17,), (40, 37), (64, 1024), (8, 128, 257)])
@pytest.mark.parametrize("op", sorted(OPS))
def test_typical_shapes_bits(op, shape, threads):
    rng = np.random.default_rng(sum(shape))
    xs = (rng.standard_normal(shape) * 3).astype(np.float32)
    gs = rng.standard_normal(shape).astype(np.float32)
    _compare(op, xs, gs)
