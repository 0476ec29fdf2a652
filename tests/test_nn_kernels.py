"""Convolution, pooling and normalisation kernels (``_ops/nn_ops.py``): values, gradients
and node names against torch in float64, finite differences (gradcheck) and double
backward (gradgradcheck), and the layers built on them (weights bit-equal to torch's after
the same seed)."""
import numpy as np
import pytest

import autotensor
from autotensor.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")
F, G = autotensor.nn.functional, torch.nn.functional
RNG = np.random.default_rng(5)


def r(*shape):
    return RNG.standard_normal(shape)


def _lift(m, a, grad=True):
    if a is None:
        return None
    t = m.tensor(a)
    return t.requires_grad_(True) if grad and a.dtype.kind == "f" else t


def compare(fa, ft, arrays, tol=1e-10):
    xa, xt = [_lift(autotensor, a) for a in arrays], [_lift(torch, a) for a in arrays]
    ya, yt = fa(*xa), ft(*xt)
    assert tuple(ya.shape) == tuple(yt.shape)
    assert ya.grad_fn.name() == yt.grad_fn.name()
    np.testing.assert_allclose(ya.detach().numpy(), yt.detach().numpy(), rtol=tol, atol=tol)
    g = r(*yt.shape)
    ya.backward(autotensor.tensor(g))
    yt.backward(torch.tensor(g))
    for a, b in zip(xa, xt):
        if b is not None and b.grad is not None:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=tol, atol=tol)
    return xa


CONV2D = [(1, 0, 1, 1), (2, 1, 1, 1), (1, 2, 2, 1), (2, 1, 1, 2), (3, 0, 1, 3),
          (1, (1, 2), (2, 1), 1), (2, 0, 1, 6), (1, "same", 2, 1), (1, "valid", 1, 2)]


@pytest.mark.parametrize("stride,padding,dilation,groups", CONV2D)
def test_conv2d(stride, padding, dilation, groups):
    w = r(6, 6 // groups, 3, 2)
    compare(lambda x, w, b: F.conv2d(x, w, b, stride, padding, dilation, groups),
            lambda x, w, b: G.conv2d(x, w, b, stride, padding, dilation, groups),
            [r(2, 6, 9, 8), w, r(6)])


@pytest.mark.parametrize("case", [
    ("conv1d", dict(stride=2, padding=1), (3, 4, 11), (5, 4, 3)),
    ("conv1d", dict(padding="same"), (3, 4, 11), (5, 4, 4)),
    ("conv1d", dict(groups=2, dilation=3), (2, 4, 13), (6, 2, 3)),
    ("conv2d", dict(), (3, 7, 7), (4, 3, 3, 3)),              # unbatched
    ("conv3d", dict(stride=2, padding=1), (2, 2, 5, 6, 5), (3, 2, 3, 3, 2)),
])
def test_conv_nd(case):
    name, kw, xs, ws = case
    compare(lambda x, w: getattr(F, name)(x, w, **kw),
            lambda x, w: getattr(G, name)(x, w, **kw), [r(*xs), r(*ws)])


@pytest.mark.parametrize("stride,padding,output_padding,groups,dilation",
                         [(1, 0, 0, 1, 1), (2, 1, 1, 1, 1), (3, 1, 2, 2, 1), (2, 0, 1, 1, 2)])
def test_conv_transpose2d(stride, padding, output_padding, groups, dilation):
    compare(lambda x, w, b: F.conv_transpose2d(x, w, b, stride, padding, output_padding,
                                               groups, dilation),
            lambda x, w, b: G.conv_transpose2d(x, w, b, stride, padding, output_padding,
                                               groups, dilation),
            [r(2, 4, 5, 6), r(4, 3, 3, 3), r(3 * groups)])


@pytest.mark.parametrize("args", [(2,), (3, 2, 1), (3, 1, 1, 2), (2, 2, 0, 1, True),
                                  (3, 2, 1, 1, True), ((3, 2), (2, 1), (1, 0))])
def test_max_pool2d(args):
    compare(lambda x: F.max_pool2d(x, *args), lambda x: G.max_pool2d(x, *args), [r(2, 3, 9, 8)])
    x = r(2, 3, 9, 8)
    _, ia = F.max_pool2d(autotensor.tensor(x), *args, return_indices=True)
    _, it = G.max_pool2d(torch.tensor(x), *args, return_indices=True)
    np.testing.assert_array_equal(ia.numpy(), it.numpy())
    assert ia.dtype == autotensor.int64


def test_max_pool_ties_nan_and_1d():
    x = np.zeros((1, 1, 4, 4))
    x[0, 0, 1, 1] = np.nan
    for m in (autotensor, torch):
        out, idx = m.nn.functional.max_pool2d(m.tensor(x), 2, return_indices=True)
        assert idx.numpy().ravel().tolist() == [5, 2, 8, 10]
        assert np.isnan(out.numpy()[0, 0, 0, 0])
    compare(lambda x: F.max_pool1d(x, 3, 2, 1), lambda x: G.max_pool1d(x, 3, 2, 1),
            [r(2, 3, 10)])


@pytest.mark.parametrize("args", [(2,), (3, 2, 1), (3, 2, 1, True), (3, 2, 1, True, False),
                                  (3, 2, 1, False, False), (2, 2, 0, False, True, 3),
                                  ((3, 2), (2, 1), (1, 0))])
def test_avg_pool2d(args):
    compare(lambda x: F.avg_pool2d(x, *args), lambda x: G.avg_pool2d(x, *args), [r(2, 3, 9, 8)])


@pytest.mark.parametrize("size", [1, 3, (2, 5), (4, None), (9, 8)])
def test_adaptive_avg_pool2d(size):
    compare(lambda x: F.adaptive_avg_pool2d(x, size), lambda x: G.adaptive_avg_pool2d(x, size),
            [r(2, 3, 9, 8)])


@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5), (2, 3, 4, 5)])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm(shape, training):
    stats = {m: (m.tensor(r(3)), m.tensor(np.abs(r(3)) + 0.5)) for m in (autotensor, torch)}
    stats[torch] = (torch.tensor(stats[autotensor][0].numpy().copy()),
                    torch.tensor(stats[autotensor][1].numpy().copy()))
    compare(lambda x, w, b: F.batch_norm(x, *stats[autotensor], w, b, training, 0.3),
            lambda x, w, b: G.batch_norm(x, *stats[torch], w, b, training, 0.3),
            [r(*shape), r(3), r(3)])
    for a, b in zip(stats[autotensor], stats[torch]):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)
    compare(lambda x: F.batch_norm(x, None, None, training=True),
            lambda x: G.batch_norm(x, None, None, training=True), [r(*shape)])


def test_layer_norm():
    compare(lambda x, w, b: F.layer_norm(x, (4, 5), w, b),
            lambda x, w, b: G.layer_norm(x, (4, 5), w, b), [r(3, 4, 5), r(4, 5), r(4, 5)])
    compare(lambda x: F.layer_norm(x, (5,)), lambda x: G.layer_norm(x, (5,)), [r(3, 4, 5)])


def _t(a):
    return autotensor.tensor(a, requires_grad=True)


@pytest.mark.parametrize("fn,arrays", [
    (lambda x, w, b: F.conv2d(x, w, b, 2, 1, 1, 2), [r(2, 4, 5, 5), r(4, 2, 3, 3), r(4)]),
    (lambda x, w: F.conv1d(x, w, None, 1, 1, 2), [r(2, 3, 6), r(2, 3, 2)]),
    (lambda x, w: F.conv_transpose2d(x, w, None, 2, 1, 1), [r(1, 2, 3, 3), r(2, 3, 3, 3)]),
    (lambda x: F.max_pool2d(x, 2, 1), [r(2, 2, 4, 4)]),
    (lambda x: F.avg_pool2d(x, 3, 2, 1, True, False), [r(2, 2, 5, 5)]),
    (lambda x: F.adaptive_avg_pool2d(x, (2, 3)), [r(1, 2, 5, 4)]),
    (lambda x, w, b: F.batch_norm(x, None, None, w, b, True), [r(4, 3, 2), r(3), r(3)]),
    (lambda x, w, b: F.batch_norm(x, autotensor.zeros(3, dtype=autotensor.float64),
                                  autotensor.ones(3, dtype=autotensor.float64), w, b),
     [r(4, 3), r(3), r(3)]),
    (lambda x, w, b: F.layer_norm(x, (3,), w, b), [r(2, 3), r(3), r(3)]),
    (lambda w: F.embedding(autotensor.tensor([[0, 2], [2, 3]]), w), [r(4, 3)]),
], ids=["conv2d", "conv1d", "conv_transpose2d", "max_pool2d", "avg_pool2d", "adaptive",
        "batch_norm", "batch_norm_eval", "layer_norm", "embedding"])
def test_gradcheck_and_gradgradcheck(fn, arrays):
    xs = [_t(a) for a in arrays]
    assert gradcheck(fn, xs)
    assert gradgradcheck(fn, xs)


LAYERS = [
    ("Conv2d", lambda m: m.nn.Conv2d(3, 8, 3, padding=1), (2, 3, 8, 8)),
    ("Conv2d-g", lambda m: m.nn.Conv2d(4, 6, (3, 2), stride=2, groups=2, bias=False),
     (2, 4, 8, 7)),
    ("Conv2d-same", lambda m: m.nn.Conv2d(2, 3, 4, padding="same", dilation=2), (1, 2, 9, 9)),
    ("Conv1d", lambda m: m.nn.Conv1d(3, 5, 3, stride=2), (2, 3, 10)),
    ("Conv3d", lambda m: m.nn.Conv3d(2, 3, 2), (1, 2, 4, 4, 4)),
    ("ConvTranspose2d", lambda m: m.nn.ConvTranspose2d(3, 2, 3, 2, 1, 1), (2, 3, 4, 4)),
    ("ConvTranspose1d", lambda m: m.nn.ConvTranspose1d(3, 4, 3, groups=1), (2, 3, 5)),
    ("MaxPool2d", lambda m: m.nn.MaxPool2d(2), (2, 3, 8, 8)),
    ("MaxPool2d-ceil", lambda m: m.nn.MaxPool2d(3, 2, 1, ceil_mode=True), (2, 3, 8, 8)),
    ("MaxPool1d", lambda m: m.nn.MaxPool1d(2), (2, 3, 8)),
    ("AvgPool2d", lambda m: m.nn.AvgPool2d(3, 2, 1), (2, 3, 8, 8)),
    ("AvgPool1d", lambda m: m.nn.AvgPool1d(3, 1, 1), (2, 3, 8)),
    ("AdaptiveAvgPool2d", lambda m: m.nn.AdaptiveAvgPool2d((3, 2)), (2, 3, 8, 8)),
    ("AdaptiveAvgPool2d-1", lambda m: m.nn.AdaptiveAvgPool2d(1), (2, 3, 8, 8)),
    ("AdaptiveAvgPool1d", lambda m: m.nn.AdaptiveAvgPool1d(3), (2, 3, 8)),
    ("BatchNorm1d", lambda m: m.nn.BatchNorm1d(3), (4, 3)),
    ("BatchNorm1d-3d", lambda m: m.nn.BatchNorm1d(3, momentum=None), (4, 3, 5)),
    ("BatchNorm2d", lambda m: m.nn.BatchNorm2d(3), (4, 3, 5, 5)),
    ("BatchNorm2d-eval", lambda m: m.nn.BatchNorm2d(3).eval(), (4, 3, 5, 5)),
    ("BatchNorm2d-nostats", lambda m: m.nn.BatchNorm2d(3, affine=False,
                                                       track_running_stats=False),
     (4, 3, 5, 5)),
    ("BatchNorm3d", lambda m: m.nn.BatchNorm3d(2, bias=False), (2, 2, 3, 3, 3)),
]


@pytest.mark.parametrize("name,ctor,shape", LAYERS, ids=[c[0] for c in LAYERS])
def test_layer_matches_torch(name, ctor, shape):
    mods = {}
    for m in (autotensor, torch):
        m.manual_seed(0)
        mods[m] = ctor(m)
    a, b = mods[autotensor], mods[torch]
    assert repr(a) == repr(b)
    sda, sdb = a.state_dict(), b.state_dict()
    assert list(sda) == list(sdb)
    for k in sdb:
        np.testing.assert_array_equal(sda[k].numpy(), sdb[k].numpy(), err_msg=k)
    x = RNG.standard_normal(shape).astype(np.float32)
    for _step in range(2):   # two steps: running statistics are used and updated
        xa, xb = _lift(autotensor, x), _lift(torch, x)
        ya, yb = a(xa), b(xb)
        np.testing.assert_allclose(ya.detach().numpy(), yb.detach().numpy(), rtol=2e-5,
                                   atol=2e-5)
        assert ya.grad_fn.name() == yb.grad_fn.name()
        g = RNG.standard_normal(tuple(yb.shape)).astype(np.float32)
        ya.backward(autotensor.tensor(g))
        yb.backward(torch.tensor(g))
        np.testing.assert_allclose(xa.grad.numpy(), xb.grad.numpy(), rtol=2e-4, atol=2e-5)
        for (k, p), (_, q) in zip(a.named_parameters(), b.named_parameters()):
            np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=2e-4, atol=2e-4,
                                       err_msg=k)
        for (k, p), (_, q) in zip(a.named_buffers(), b.named_buffers()):
            np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)


@pytest.mark.parametrize("call", [
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(4, 2, 3, 3)),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 2, 2), m.zeros(4, 3, 3, 3)),
    lambda m: m.nn.functional.conv2d(m.zeros(3, 5), m.zeros(4, 3, 3, 3)),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(4, 3, 3, 3), padding="x"),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(4, 3, 3, 3), stride=2,
                                     padding="same"),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(4, 3, 3, 3,
                                                                  dtype=m.float64)),
    lambda m: m.nn.functional.max_pool2d(m.zeros(1, 1, 5, 5), 2, padding=2),
    lambda m: m.nn.functional.batch_norm(m.zeros(1, 3), m.zeros(3), m.ones(3),
                                         training=True),
    lambda m: m.nn.BatchNorm2d(3)(m.zeros(2, 3)),
    lambda m: m.nn.Conv2d(3, 4, 3, groups=2),
    lambda m: m.nn.Conv2d(3, 3, 3, padding="same", stride=2),
])
def test_errors_match_torch(call):
    res = []
    for m in (autotensor, torch):
        try:
            call(m)
            res.append(None)
        except Exception as e:  # noqa: BLE001 - compared below
            res.append((type(e).__name__, str(e).split("\n")[0]))
    assert res[0] == res[1]


def test_conv_kernel_has_no_per_pixel_loop():
    """The convolution is whole-array work (one GEMM per group): the number of Python and
    NumPy calls it makes does not grow with the batch or the image (not a timing test)."""
    import sys

    def calls(n, size):
        x = autotensor.randn(n, 16, size, size, requires_grad=True)
        w = autotensor.randn(32, 16, 3, 3, requires_grad=True)
        count = [0]

        def profile(frame, event, arg):
            if event in ("call", "c_call"):
                count[0] += 1
        sys.setprofile(profile)
        try:
            F.conv2d(x, w, padding=1).sum().backward()
        finally:
            sys.setprofile(None)
        return count[0]

    calls(2, 8)                   # warm-up: first-call imports and caches
    small = calls(2, 8)
    # 64 images of 16x16: at most a few chunks more (a loop over the 64 images would add
    # hundreds of calls, one over the 16,384 output pixels tens of thousands)
    assert calls(64, 16) <= small + 60


ACTIVATIONS = [
    ("elu", (0.7,)), ("selu", ()), ("celu", (1.3,)), ("leaky_relu", (0.2,)),
    ("hardtanh", (-0.5, 0.4)), ("relu6", ()), ("threshold", (0.1, 2.0)), ("silu", ()),
    ("softplus", (2.0, 1.0)), ("mish", ()), ("logsigmoid", ()), ("hardsigmoid", ()),
    ("hardswish", ()), ("softshrink", (0.3,)), ("hardshrink", (0.3,)),
]


@pytest.mark.parametrize("name,args", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_activation_entries(name, args):
    x = r(4, 5) * 3
    x[0, :3] = [0.3001, -0.2999, 2.9]    # away from the kinks, for finite differences
    compare(lambda t: getattr(F, name)(t, *args), lambda t: getattr(G, name)(t, *args), [x])
    xt = _t(np.where(np.abs(np.abs(x) - 3) < 0.05, x + 0.2, x))
    xt = _t(np.where(np.abs(np.abs(xt.detach().numpy()) - 0.3) < 0.05, x + 0.2, x))
    assert gradcheck(lambda t: getattr(F, name)(t, *args), (xt,))
    if name == "hardsigmoid":  # PyTorch has no double backward for it: its error
        with pytest.raises(RuntimeError, match="^derivative for aten::hardsigmoid_backward "
                                               "is not implemented$"):
            gradgradcheck(lambda t: getattr(F, name)(t, *args), (xt,))
        return
    assert gradgradcheck(lambda t: getattr(F, name)(t, *args), (xt,))
