"""Stop 38 (helper fz38a): the fuzzer's reproducers of seed 10381 and the class behind them,
convolution's forward-mode rule, each run on autotensor and PyTorch (tests/fuzz/
OPEN_FINDINGS.md, Stop 38)."""
import pathlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_REPRODUCERS = ["pending_stop38/fz38a_repro_001.py", "pending_stop38/fz38a_repro_002.py"]


@pytest.mark.parametrize("path", _REPRODUCERS)
def test_fuzzer_reproducers_of_fz38a(path):
    """The reproducers fixed this stop agree with PyTorch."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)


# (name, input shape, weight shape, bias size or None, keyword arguments)
_CONVS = [("conv1d", (1, 0, 0), (1, 0, 0), None, {}),
          ("conv1d", (0, 2, 3), (1, 2, 2), 1, {}),
          ("conv1d", (2, 4, 9), (6, 2, 3), 6, {"groups": 2}),
          ("conv2d", (1, 3, 5, 5), (2, 3, 3, 3), None, {"padding": 1}),
          ("conv_transpose1d", (2, 4, 5), (4, 3, 3), 3, {"stride": 2}),
          ("conv3d", (1, 2, 3, 3, 3), (3, 2, 2, 2, 2), 3, {})]


def _conv_tangent(mod, case, tangents, requires_grad):
    """The tangent of a convolution whose inputs have the given tangents (input, weight,
    bias) and primals that require grad: PyTorch's convolution_jvp is
    convolution(input_t, weight_p) + convolution(input_p, weight_t, bias_t), a missing
    tangent a zero tensor, so each term records while its primal requires grad."""
    name, si, sw, nb, kw = case
    fw = mod.autograd.forward_ad
    rng = np.random.default_rng(38)
    shapes = (si, sw, (nb,) if nb else None)
    primals = [None if s is None else mod.tensor(rng.standard_normal(s), requires_grad=rg)
               for s, rg in zip(shapes, requires_grad)]
    with fw.dual_level():
        args = [p if p is None or not t else fw.make_dual(p, mod.tensor(
            rng.standard_normal(p.shape))) for p, t in zip(primals, tangents)]
        r = getattr(mod.nn.functional, name)(*args, **kw)
        tangent = fw.unpack_dual(r)[1]
        fn = tangent.grad_fn
        return (tangent.detach().numpy(), tangent.requires_grad, fn and fn.name(),
                fn and [n and n.name() for n, _ in fn.next_functions], tangent.stride())


_TANGENTS = [(True, False, False), (False, True, False), (True, True, False),
             (False, False, True), (True, True, True)]
_REQUIRES_GRAD = [(True, False, False), (False, True, False), (True, True, True)]


@pytest.mark.parametrize("case,tangents,requires_grad", [
    pytest.param(c, t, rg, id=f"{c[0]}{c[1]}-t{t}-rg{rg}".replace(" ", ""))
    for c in _CONVS for t in _TANGENTS for rg in _REQUIRES_GRAD if c[3] or not t[2]])
def test_convolution_tangent_graph(case, tangents, requires_grad):
    """The tangent is AddBackward0 of the two terms (ConvolutionBackward0 where a primal
    requires grad) however few inputs have tangents, empty inputs too; ours was the
    transposed backward's graph, or none at all where only the other input had one."""
    got = _conv_tangent(autotensor, case, tangents, requires_grad)
    want = _conv_tangent(torch, case, tangents, requires_grad)
    assert got[1:] == want[1:]
    # (the convolution kernels' sums are not PyTorch's GEMMs' order: within 1e-12)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-12)


def _conv_zero_term(mod, which):
    """A missing tangent is a zero tensor that the convolution materializes: an inf in
    the other input's primal makes NaN there (0 * inf), a bias without tangent adds 0."""
    fw = mod.autograd.forward_ad
    inf = float("inf")
    with fw.dual_level():
        if which == "weight_inf":
            r = mod.nn.functional.conv1d(mod.ones(1, 1, 3, requires_grad=True), fw.make_dual(
                mod.tensor([[[inf, 1.0]]]), mod.ones(1, 1, 2)))
        elif which == "input_inf":
            r = mod.nn.functional.conv1d(fw.make_dual(mod.tensor([[[inf, 1.0, 2.0]]]),
                                                      mod.ones(1, 1, 3)), mod.ones(1, 1, 2))
        else:
            r = mod.nn.functional.conv1d(mod.tensor([[[inf, 1.0, 2.0]]]), mod.ones(1, 1, 2),
                                         fw.make_dual(mod.ones(1), mod.ones(1)))
        tangent = fw.unpack_dual(r)[1]
        return tangent.detach().numpy(), tangent.requires_grad, tangent.dtype.is_complex


@pytest.mark.parametrize("which", ["weight_inf", "input_inf", "bias_only"])
def test_convolution_tangent_of_a_missing_tangent_is_dense_zeros(which):
    got = _conv_zero_term(autotensor, which)
    want = _conv_zero_term(torch, which)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1:] == want[1:]


# (name, input shape, weight shape, bias size or None, keyword arguments)
_COMPLEX_CONVS = [("conv1d", (2, 3, 8), (4, 3, 3), 4, {}),
                  ("conv1d", (3, 5), (2, 3, 2), 2, {}),
                  ("conv1d", (1, 3, 5), (2, 3, 2), 2, {"padding": "same"}),
                  ("conv1d", (1, 0, 3), (2, 0, 2), 2, {}),
                  ("conv1d", (0, 2, 3), (2, 2, 2), None, {}),
                  ("conv2d", (1, 2, 5, 5), (3, 2, 3, 3), None, {"padding": 1}),
                  ("conv3d", (1, 1, 3, 3, 3), (1, 1, 2, 2, 2), None, {}),
                  ("conv_transpose1d", (1, 2, 4), (2, 3, 2), 3, {"stride": 2}),
                  ("conv_transpose2d", (1, 2, 3, 3), (2, 1, 2, 2), None, {"groups": 2})]


def _complex_conv(mod, case, dtype):
    """A complex convolution and its gradients: PyTorch's conv layers run
    complex_convolution, three real convolutions of the parts (Gauss's trick) composed
    above autograd, so the result is AddBackward0 of SubBackward0 and MulBackward1 and
    rounds as the composite does."""
    name, si, sw, nb, kw = case
    rng = np.random.default_rng(38)
    dt = getattr(mod, dtype)

    def c(shape):
        return mod.tensor(rng.standard_normal(shape) + 1j * rng.standard_normal(shape),
                          dtype=dt, requires_grad=True)
    x, w = c(si), c(sw)
    b = None if nb is None else c((nb,))
    r = getattr(mod.nn.functional, name)(x, w, b, **kw)
    inputs = [x, w] + ([] if b is None else [b])
    gs = mod.autograd.grad(r, inputs, c(tuple(r.shape)).detach())
    return (r.detach().numpy(), [g.numpy() for g in gs], r.grad_fn.name(),
            [n and n.name() for n, _ in r.grad_fn.next_functions])


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("case", _COMPLEX_CONVS, ids=lambda c: f"{c[0]}{c[1]}")
def test_complex_convolution_is_the_composite(case, dtype):
    got = _complex_conv(autotensor, case, dtype)
    want = _complex_conv(torch, case, dtype)
    assert got[2:] == want[2:]
    # (each real convolution within the kernels' rounding: float64 1e-12, float32 1e-5)
    tol = 1e-12 if dtype == "complex128" else 1e-5
    for a, b in zip([got[0]] + got[1], [want[0]] + want[1]):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


def _empty_conv_bias_grad(mod, create_graph):
    """convolution_backward's bias gradient has bias's size (bias_sizes) where an input
    without channels gives an output without channels: under create_graph too."""
    x = mod.ones(1, 0, 3, requires_grad=True, dtype=mod.float64)
    w = mod.ones(2, 0, 2, requires_grad=True, dtype=mod.float64)
    b = mod.ones(2, requires_grad=True, dtype=mod.float64)
    r = mod.nn.functional.conv1d(x, w, b)
    gs = mod.autograd.grad(r, [x, w, b], mod.ones_like(r), create_graph=create_graph)
    return [(tuple(g.shape), g.grad_fn and g.grad_fn.name(), g.detach().numpy().tolist())
            for g in gs]


def test_empty_convolution_bias_grad_under_create_graph():
    assert _empty_conv_bias_grad(autotensor, True) == _empty_conv_bias_grad(torch, True)


_LINEAR_RULES = {
    "avg_pool3d": ((1, 2, 3, 4, 4), lambda m, x: m.nn.functional.avg_pool3d(x, 2)),
    "avg_pool3d_channels_last": ((1, 3, 4, 4, 4), lambda m, x: m.nn.functional.avg_pool3d(
        x.contiguous(memory_format=m.channels_last_3d), 2)),
    "embedding": ((5, 3), lambda m, w: m.nn.functional.embedding(m.tensor([[1, 2], [4, 1]]),
                                                                 w)),
    "embedding_padding_idx": ((5, 3), lambda m, w: m.nn.functional.embedding(
        m.tensor([1, 0, 1]), w, padding_idx=0)),
    "fold": ((2, 8, 9), lambda m, x: m.nn.functional.fold(x, (4, 4), 2, stride=1)),
}


def _linear_rule_tangent(mod, name, dtypes, tangent_requires_grad):
    """avg_pool3d, embedding and col2im (fold) are auto_linear in PyTorch: the op applied to
    the tangent, in the tangent's dtype (AvgPool3DBackward0... where the tangent requires
    grad); ours was the transposed backward (DivBackward0, ViewBackward0, and the primal's
    dtype for avg_pool3d's channels-last input)."""
    fw = mod.autograd.forward_ad
    shape, f = _LINEAR_RULES[name]
    rng = np.random.default_rng(38)
    x = mod.tensor(rng.standard_normal(shape), dtype=getattr(mod, dtypes[0]))
    t = mod.tensor(rng.standard_normal(shape), dtype=getattr(mod, dtypes[1]),
                   requires_grad=tangent_requires_grad)
    with fw.dual_level():
        p, tangent = fw.unpack_dual(f(mod, fw.make_dual(x, t)))
        return (tangent.detach().double().numpy(), str(tangent.dtype), tangent.stride(),
                tangent.requires_grad, tangent.grad_fn and tangent.grad_fn.name(), p.stride())


@pytest.mark.parametrize("dtypes", [("float64", "float64"), ("float32", "float64")])
@pytest.mark.parametrize("name", sorted(_LINEAR_RULES))
def test_linear_rules_apply_the_op_to_the_tangent(name, dtypes):
    got = _linear_rule_tangent(autotensor, name, dtypes, True)
    want = _linear_rule_tangent(torch, name, dtypes, True)
    assert got[1:] == want[1:]
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-12)


def _conv3d_layout(mod, n, groups, transposed, dtype):
    """A 3-d convolution of a channels-last input is channels-last only where use_mkldnn
    picks mkldnn (a batch > 1, groups > 1, ...): slow_conv3d and slow_conv_transpose3d
    write contiguous outputs. An empty batch's (the Empty backend) keeps the input's layout
    where the sizes stay, 2-d too."""
    f = mod.nn.functional
    x = mod.ones(n, 4, 5, 5, 5, dtype=getattr(mod, dtype)).contiguous(
        memory_format=mod.channels_last_3d)
    w = mod.ones(4, 4 // groups, 1, 1, 1, dtype=getattr(mod, dtype))
    r = (f.conv_transpose3d if transposed else f.conv3d)(x, w, groups=groups)
    x2 = mod.ones(n, 4, 5, 5, dtype=getattr(mod, dtype)).contiguous(
        memory_format=mod.channels_last)
    r2 = (f.conv_transpose2d if transposed else f.conv2d)(x2, w[..., 0], groups=groups)
    return r.stride(), r2.stride()


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("n,groups,dtype", [(1, 1, "float32"), (0, 1, "float32"),
                                            (0, 1, "float64")])
def test_conv3d_channels_last_only_on_mkldnn(n, groups, transposed, dtype):
    assert _conv3d_layout(autotensor, n, groups, transposed, dtype) == \
        _conv3d_layout(torch, n, groups, transposed, dtype)


@pytest.mark.parametrize("n", [1])
def test_avg_pool3d_is_contiguous(n):
    def run(mod):
        x = mod.ones(n, 3, 4, 4, 4).contiguous(memory_format=mod.channels_last_3d)
        return (mod.nn.functional.avg_pool3d(x, 2).stride(),
                mod.nn.functional.lp_pool3d(x, 2, 2).stride())
    assert run(autotensor) == run(torch)


def _avg_pool3d_values(mod, dtype, seed):
    """cpu_avg_pool3d sums each window in order (d, h, w) from 0 in the input's type and
    divides once, its backward adds ``grad / divisor`` in output order (contiguous): bit for
    bit (np.sum's order and a transposed convolution rounded otherwise, and padding left a
    narrowed view)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(12):
        k = tuple(int(v) for v in rng.integers(1, 4, 3))
        s = tuple(int(v) for v in rng.integers(1, 3, 3))
        p = tuple(int(rng.integers(0, kk // 2 + 1)) for kk in k)
        size = (int(rng.integers(1, 3)), int(rng.integers(1, 4))) + tuple(
            int(v) for v in rng.integers(3, 9, 3))
        x = mod.tensor(rng.standard_normal(size) * 3, dtype=getattr(mod, dtype))
        if i % 3 == 0:
            x = x.contiguous(memory_format=mod.channels_last_3d)
        dov = None if i % 4 else int(rng.integers(1, 9))
        x.requires_grad_()
        r = mod.nn.functional.avg_pool3d(x, k, s, p, bool(i % 2), bool(i % 5 % 2), dov)
        g = mod.tensor(rng.standard_normal(tuple(r.shape)), dtype=x.dtype)
        gx, = mod.autograd.grad(r, x, g)
        out += [r.detach().numpy(), gx.numpy(), gx.stride()]
    return out


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", [0, 1])
def test_avg_pool3d_bit_for_bit(dtype, seed):
    for a, b in zip(_avg_pool3d_values(autotensor, dtype, seed),
                    _avg_pool3d_values(torch, dtype, seed)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


_POOLS = {
    "max_pool3d": lambda m, x: m.nn.functional.max_pool3d(x, 2, 1, 1),
    "avg_pool3d": lambda m, x: m.nn.functional.avg_pool3d(x, 3, 2, 1, True, False),
    "adaptive_avg_pool3d": lambda m, x: m.nn.functional.adaptive_avg_pool3d(x, (2, 3, 2)),
    "adaptive_max_pool3d": lambda m, x: m.nn.functional.adaptive_max_pool3d(x, 2),
    "fractional_max_pool3d": lambda m, x: m.nn.functional.fractional_max_pool3d(
        x, 2, output_size=2, _random_samples=m.full((2, 2, 3), 0.5, dtype=m.float64)),
    "fractional_max_pool2d": lambda m, x: m.nn.functional.fractional_max_pool2d(
        x[0], 2, output_size=2, _random_samples=m.full((2, 4, 2), 0.5, dtype=m.float64)),
    "max_pool2d": lambda m, x: m.nn.functional.max_pool2d(x[0], 2),
    "adaptive_max_pool2d": lambda m, x: m.nn.functional.adaptive_max_pool2d(x[0], 2),
}


def _pool_double_backward(mod, name):
    """Note [3-d pooling backward ops]: under create_graph the gradient is the backward op's
    node (it requires grad through self), its own gradient in grad_output the pooling (or
    the gather at the indices); a max pool's backward tangent is auto_linear, the op on
    (grad_output_t, self_t): no history of self."""
    fw = mod.autograd.forward_ad
    rng = np.random.default_rng(38)
    f = _POOLS[name]
    x = mod.tensor(rng.standard_normal((2, 2, 4, 5, 4)), requires_grad=True)
    r = f(mod, x)
    go = mod.tensor(rng.standard_normal(tuple(r.shape)), requires_grad=True)
    g, = mod.autograd.grad(r, x, go, create_graph=True)
    w = mod.tensor(rng.standard_normal(tuple(g.shape)))
    ggo, = mod.autograd.grad((g * w).sum(), go)
    with fw.dual_level():
        god = fw.make_dual(go.detach(), mod.tensor(rng.standard_normal(tuple(r.shape))))
        xd = x.detach().requires_grad_()
        t = fw.unpack_dual(mod.autograd.grad(f(mod, xd), xd, god, create_graph=True)[0])[1]
    return ([g.detach().numpy(), ggo.numpy(), t.detach().numpy()],
            (g.requires_grad, g.grad_fn.name(), t.requires_grad))


@pytest.mark.parametrize("name", [n for n in sorted(_POOLS) if n != "fractional_max_pool2d"])
def test_pool_backward_ops_under_create_graph(name):
    got = _pool_double_backward(autotensor, name)
    want = _pool_double_backward(torch, name)
    assert got[1] == want[1]
    for a, b in zip(got[0], want[0]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def _pool_saves_self(mod, name):
    x = mod.ones(1, 1, 4, 4, 4, dtype=mod.float64, requires_grad=True)
    y = x * 1
    f = mod.nn.functional
    r = _POOLS[name](mod, y) if "fractional" not in name else \
        f.fractional_max_pool3d(y, 2, output_size=2, _random_samples=mod.full(
            (1, 1, 3), 0.5, dtype=mod.float64)) if name.endswith("3d") else \
        f.fractional_max_pool2d(y[0], 2, output_size=2, _random_samples=mod.full(
            (1, 4, 2), 0.5, dtype=mod.float64))
    y.add_(1)
    try:
        r.sum().backward()
    except RuntimeError as e:
        return str(e).split(":")[0]
    return None


@pytest.mark.parametrize("name", [n for n in sorted(_POOLS) if n.endswith("3d") or
                                  n == "fractional_max_pool2d"])
def test_3d_pools_save_self(name):
    """The forward nodes save self: an in-place change of it makes backward raise."""
    assert _pool_saves_self(autotensor, name) == _pool_saves_self(torch, name)


def _embedding_bag_saves(mod, mode, per_sample_weights):
    """EmbeddingBagBackward0 saves weight only where per_sample_weights requires grad (its
    formula's alone): an in-place change of weight before backward raises only then."""
    x = mod.randn(3, 4, dtype=mod.float64, requires_grad=True)
    y = x * 1
    psw = None if per_sample_weights is None else mod.ones(
        1, 2, dtype=mod.float64, requires_grad=per_sample_weights)
    r = mod.nn.functional.embedding_bag(mod.tensor([[0, 1]]), y, mode=mode,
                                        per_sample_weights=psw)
    y.add_(1)
    try:
        r.sum().backward()
    except RuntimeError as e:
        return str(e).split(":")[0]
    return tuple(x.grad.shape)


@pytest.mark.parametrize("mode,per_sample_weights", [("sum", None), ("mean", None),
                                                     ("max", None), ("sum", False)])
def test_embedding_bag_saves_weight_only_for_per_sample_weights(mode, per_sample_weights):
    assert _embedding_bag_saves(autotensor, mode, per_sample_weights) == \
        _embedding_bag_saves(torch, mode, per_sample_weights)
