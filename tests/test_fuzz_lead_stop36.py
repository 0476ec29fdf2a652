"""Stop 36 (lead): the fuzzer's reproducers of stop 35's end and this stop, and the classes
behind them, each run on autotensor and PyTorch (tests/fuzz/OPEN_FINDINGS.md, Stop 36)."""
import pathlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_REPRODUCERS = ["pending_stop35/f_repro_001.py", "pending_stop35/fin_repro_002.py"]


@pytest.mark.parametrize("path", _REPRODUCERS)
def test_fuzzer_reproducers_of_stop_36(path):
    """The reproducers fixed this stop agree with PyTorch."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)


def _det_1x1(mod, dtype, batch, create_graph, dual):
    """A 1x1 det's gradient: PyTorch's is the incoming gradient itself, bit for bit, with its
    tangent and history only (det's own tangent does not reach it)."""
    fw = mod.autograd.forward_ad
    rng = np.random.default_rng(36)
    a = mod.tensor(rng.standard_normal(batch + (1, 1)) * 10, dtype=dtype, requires_grad=True)
    go = mod.tensor(rng.standard_normal(batch), dtype=dtype, requires_grad=create_graph)
    with fw.dual_level():
        x = fw.make_dual(a, mod.full(a.shape, 2.0, dtype=dtype)) if dual else a
        g = mod.tensor(go.detach().numpy(), dtype=dtype)
        if dual:
            g = fw.make_dual(g, mod.full(g.shape, 7.0, dtype=dtype))
        if create_graph:
            g = g + go * 0
        r = mod.linalg.det(x)
        grad = mod.autograd.grad(r, x, g, create_graph=create_graph)[0]
        primal, tangent = fw.unpack_dual(grad)
        return (primal.detach().numpy().tolist(), None if tangent is None
                else tangent.detach().numpy().tolist(), grad.stride(),
                grad.grad_fn and grad.grad_fn.name())


@pytest.mark.parametrize("dual", [False, True])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("batch", [(), (50,)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_det_1x1_gradient_is_the_incoming_gradient(dtype, batch, create_graph, dual):
    got = _det_1x1(autotensor, getattr(autotensor, dtype), batch, create_graph, dual)
    want = _det_1x1(torch, getattr(torch, dtype), batch, create_graph, dual)
    assert got == want


def _zero_tangent_gradient(mod, name, shape):
    """A gradient whose tangent is PyTorch's ZeroTensor (sgn's rule) flowing through op
    ``name``'s backward, then multiplied by -1 (MulBackward0): a zero tensor stays one
    (+0.0), stored zeros become -0.0, so the sign shows which the formula gave."""
    fw = mod.autograd.forward_ad
    ops = {
        "mean": lambda x: x.mean(), "mean_dim": lambda x: x.mean(0),
        "mean_keepdim": lambda x: x.mean(0, keepdim=True), "sum": lambda x: x.sum(),
        "nanmean": lambda x: x.nanmean(), "var": lambda x: x.var(),
        "std": lambda x: x.std(), "var_mean": lambda x: sum(mod.var_mean(x, 0)),
        "l1_loss": lambda x: mod.nn.functional.l1_loss(x, mod.zeros_like(x)),
        "mse_loss": lambda x: mod.nn.functional.mse_loss(x, mod.zeros_like(x)),
        "exp": lambda x: x.exp(), "prod": lambda x: x.prod(),
    }
    with fw.dual_level():
        w = mod.full(shape, -1.5, dtype=mod.float64, requires_grad=True)
        y = ops[name](w * mod.tensor(-1.0, dtype=mod.float64))
        go = fw.make_dual(mod.zeros(y.shape, dtype=mod.float64),
                          mod.ones(y.shape, dtype=mod.float64)).sgn() * 1
        try:
            g = mod.autograd.grad(y, w, go)[0]
        except RuntimeError as e:
            return str(e)
        t = fw.unpack_dual(g).tangent
        return np.signbit(t.clone().detach().numpy()).tolist()


@pytest.mark.parametrize("shape", [(), (1,), (3,)])
@pytest.mark.parametrize("name", ["mean", "mean_dim", "mean_keepdim", "sum", "nanmean", "var",
                                  "std", "var_mean", "l1_loss", "mse_loss", "exp", "prod"])
def test_zero_tensor_tangent_through_backward_formulas(name, shape):
    """mean_backward's ``/ n`` (div.Scalar, no zero-tensor kernel) stores the zeros; std's
    masked_fill_ on a zero-tensor quotient raises; the others keep the zero tensor."""
    if name in ("exp", "prod", "mse_loss", "l1_loss") and shape == (3,):
        pytest.skip("a 3-element output has no one-element zero-tensor gradient")
    assert _zero_tangent_gradient(autotensor, name, shape) == \
        _zero_tangent_gradient(torch, name, shape)


def _zero_tangent_sums(mod, name):
    """Gradients summed in the engine's buffer: PyTorch adds into a buffer no one else
    holds in place (``old.add_(new)``), whose rule writes into old's tangent: a zero tensor
    there raises; a missing one is dense zeros, so -0.0 comes out +0.0."""
    fw = mod.autograd.forward_ad
    ops = {"x - 2x": lambda x: x - 2 * x, "lerp": lambda x: mod.lerp(x, 2 * x, 0.3),
           "abs(x - x)": lambda x: (x - x).abs(), "x + x": lambda x: x + x}
    with fw.dual_level():
        v = fw.make_dual(mod.tensor(1.5, requires_grad=True), mod.tensor(0.7))
        y = ops[name](v)
        go = fw.make_dual(mod.zeros(()), mod.ones(())).sgn() * 1
        try:
            g = mod.autograd.grad(y, v, go)[0]
        except RuntimeError as e:
            return str(e)
        t = fw.unpack_dual(g).tangent
        return None if t is None else bool(np.signbit(t.clone().detach().numpy()))


@pytest.mark.parametrize("name", ["x - 2x", "lerp", "abs(x - x)", "x + x"])
def test_zero_tensor_tangent_summed_in_place(name):
    assert _zero_tangent_sums(autotensor, name) == _zero_tangent_sums(torch, name)
