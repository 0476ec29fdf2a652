"""torch.memory_format: contiguous_format / channels_last / channels_last_3d / preserve_format
in is_contiguous, contiguous, clone, to, the casts, empty and the *_like factories, and
nn.Module.to; compared with PyTorch (strides, aliasing, graph nodes, errors)."""
import pickle

import numpy as np
import pytest

import autotensor

FORMATS = ["channels_last", "contiguous_format", "preserve_format", "channels_last_3d"]
CASES = [
    "x.is_contiguous(memory_format=F)", "x.contiguous(memory_format=F).stride()",
    "p.contiguous(memory_format=F).stride()",
    "torch.zeros(2, 3).contiguous(memory_format=F).stride()",
    "torch.zeros(2, 3).is_contiguous(memory_format=F)",
    "torch.empty(2, 3, 4, 5, memory_format=F).stride()",
    "torch.empty(2, 3, memory_format=F).stride()",
    "x.clone(memory_format=F).stride()", "p.clone(memory_format=F).stride()",
    "torch.zeros(3, 2).t().clone(memory_format=F).stride()",
    "(x.to(memory_format=F).stride(), x.to(memory_format=F) is x)",
    "(p.to(memory_format=F).stride(), p.to(memory_format=F) is p)",
    "(c.to(memory_format=F).stride(), c.to(memory_format=F) is c)",
    "torch.zeros_like(p, memory_format=F).stride()",
    "torch.ones_like(x, memory_format=F).stride()",
    "torch.empty_like(x, memory_format=F).stride()",
    "torch.full_like(x, 2, memory_format=F).stride()",
    "torch.rand_like(x, memory_format=F).stride()",
    "torch.randn_like(p, memory_format=F).stride()",
    "torch.randint_like(x, 5, memory_format=F).stride()",
    "x.double(memory_format=F).stride()", "x.float(memory_format=F).stride()",
    "x.to(torch.int32, memory_format=F).stride()",
    "torch.empty(2, 3, 4, 5, 6, memory_format=F).stride()",
    "torch.randn(2, 3, 4, 5, 6).to(memory_format=F).stride()",
    "torch.randn(2, 1, 4, 1).to(memory_format=F).stride()",
    "torch.empty(2, 3, 1, 1, memory_format=F).stride()",
    "torch.randn(2, 3, 4, 5, 6).contiguous(memory_format=F).is_contiguous(memory_format=F)",
]
OTHER = [
    "type(r.contiguous(memory_format=torch.channels_last).grad_fn).__name__",
    "type(r.to(memory_format=torch.channels_last).grad_fn).__name__",
    "type(r.clone(memory_format=torch.channels_last).grad_fn).__name__",
    "type(r.clone(memory_format=torch.contiguous_format).grad_fn).__name__",
    "type(r.to(torch.float32, memory_format=torch.channels_last).grad_fn).__name__",
    "r.to(torch.int64, memory_format=torch.channels_last).requires_grad",
    "repr(torch.channels_last)", "str(torch.preserve_format)",
    "type(torch.channels_last).__name__", "torch.memory_format()",
    "x.contiguous(memory_format=1)", "x.clone(memory_format='channels_last')",
    "torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last).contiguous().stride()",
    "torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last).clone().stride()",
    "(torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last) + 1).stride()",
    "torch.nn.functional.relu(x.to(memory_format=torch.channels_last)).stride()",
]


def _scenario(torch, code):
    x = torch.randn(2, 3, 4, 5)
    p = torch.randn(2, 3, 4, 5).permute(0, 2, 3, 1)
    c = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last)[:, :, :2]
    r = torch.randn(2, 3, 4, 5, dtype=torch.float64, requires_grad=True)
    try:
        return eval(code, None, locals())
    except Exception as e:  # (the error is part of the behaviour compared)
        return type(e).__name__, str(e)


@pytest.mark.parametrize("code", [c.replace("F", "torch." + f) for c in CASES
                                  for f in FORMATS] + OTHER)
def test_memory_format_matches_torch(code):
    torch = pytest.importorskip("torch")
    assert _scenario(autotensor, code) == _scenario(torch, code)


def test_memory_format_objects():
    torch = autotensor
    assert pickle.loads(pickle.dumps(torch.channels_last)) is torch.channels_last
    assert isinstance(torch.preserve_format, torch.memory_format)
    with pytest.raises(TypeError, match="cannot create 'torch.memory_format' instances"):
        torch.memory_format()


@pytest.mark.parametrize("fmt", ["channels_last", "contiguous_format"])
def test_gradient_through_format_copy(fmt):
    """The copy's backward hands the gradient back in the input's shape and values (float64
    exact); the forward-mode tangent follows the copy."""
    torch = autotensor
    rng = np.random.default_rng(0)
    data = rng.standard_normal((2, 3, 4, 5))
    w = rng.standard_normal((2, 3, 4, 5))
    x = torch.tensor(data, requires_grad=True)
    y = x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)  # (channels-last strides)
    for out in (y.to(memory_format=getattr(torch, fmt)), y.clone(memory_format=getattr(torch, fmt)),
                y.contiguous(memory_format=getattr(torch, fmt))):
        assert out.is_contiguous(memory_format=getattr(torch, fmt))
        np.testing.assert_array_equal(out.detach().numpy(), data)
        x.grad = None
        (out * torch.tensor(w)).sum().backward()
        np.testing.assert_array_equal(x.grad.numpy(), w)
    import autotensor.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor(data), torch.tensor(w))
        t = fwAD.unpack_dual(d.to(memory_format=getattr(torch, fmt)) * 2).tangent
        np.testing.assert_array_equal(t.numpy(), 2 * w)


def test_module_to_channels_last():
    def run(torch):
        torch.manual_seed(0)
        m = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4))
        m.to(memory_format=torch.channels_last)
        x = torch.randn(2, 3, 6, 6).to(memory_format=torch.channels_last)
        y = m(x)
        return ([q.stride() for q in m.parameters()], tuple(y.shape), y.stride(),
                m[0].weight.is_contiguous(memory_format=torch.channels_last),
                y.detach().numpy())
    torch = pytest.importorskip("torch")
    ours, theirs = run(autotensor), run(torch)
    assert ours[:4] == theirs[:4]
    np.testing.assert_allclose(ours[4], theirs[4], rtol=1e-5, atol=1e-6)  # (float32 conv)


NN_CASES = [
    "F.conv2d(xc, w)", "F.conv2d(x, wc)", "F.conv2d(xc, w1)", "F.conv2d(x, w1)",
    "F.conv2d(xc, dw, groups=4)", "F.conv2d(x, dw.to(memory_format=cl), groups=4)",
    "F.conv3d(x5c, w5)", "F.conv3d(x5, w5.to(memory_format=torch.channels_last_3d))",
    "F.conv_transpose2d(xc, w)", "F.conv_transpose2d(x, wc)", "F.conv_transpose3d(x5c, w5)",
    "F.max_pool2d(xc, 2)", "F.max_pool2d(xc, 2, return_indices=True)[1]",
    "F.avg_pool2d(xc, 3, 2, 1)", "F.adaptive_avg_pool2d(xc, 2)",
    "F.adaptive_max_pool2d(xc, 2)[0]", "F.adaptive_avg_pool2d(xc, 1)",
    "F.adaptive_avg_pool2d(x, 1)", "F.max_pool3d(x5c, 2)", "F.avg_pool3d(x5c, 2)",
    "F.adaptive_avg_pool3d(x5c, 2)", "F.lp_pool2d(xc, 2, 2)", "F.conv2d(xc[:, :, 1:], w)",
    "F.conv2d(xc[:1], w)", "F.max_pool2d(xc.permute(0, 1, 3, 2), 2)",
    "F.conv2d(xc, w, padding='same')", "F.conv2d(xc, w, dilation=2)",
    "F.conv2d(xc, wc, padding=1, stride=2, bias=torch.randn(4, dtype=dt))",
    "F.pixel_shuffle(xc, 2)", "F.interpolate(xc, scale_factor=2)",
    "F.batch_norm(xc, None, None, training=True)",
    "F.conv1d(x1, torch.randn(3, 4, 2, dtype=dt))",
]


def _nn_scenario(torch, code, dt):
    """The result layout (strides) an NN op gives channels-last operands, and its values."""
    F = torch.nn.functional
    cl = torch.channels_last
    dt = getattr(torch, dt)
    torch.manual_seed(0)
    x = torch.tensor(np.random.default_rng(0).standard_normal((2, 4, 6, 6)), dtype=dt)
    xc = x.to(memory_format=cl)
    w = torch.tensor(np.random.default_rng(1).standard_normal((4, 4, 3, 3)), dtype=dt)
    wc = w.to(memory_format=cl)
    w1 = torch.tensor(np.random.default_rng(2).standard_normal((4, 4, 1, 1)), dtype=dt)
    dw = torch.tensor(np.random.default_rng(3).standard_normal((4, 1, 3, 3)), dtype=dt)
    x5 = torch.tensor(np.random.default_rng(4).standard_normal((2, 4, 3, 4, 5)), dtype=dt)
    x5c = x5.to(memory_format=torch.channels_last_3d)
    w5 = torch.tensor(np.random.default_rng(5).standard_normal((4, 4, 2, 2, 2)), dtype=dt)
    x1 = torch.tensor(np.random.default_rng(6).standard_normal((2, 4, 6)), dtype=dt)
    r = eval(code, None, locals())
    return r.stride(), r.numpy()


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("code", NN_CASES)
def test_nn_result_layout_matches_torch(code, dt):
    torch = pytest.importorskip("torch")
    ours, theirs = _nn_scenario(autotensor, code, dt), _nn_scenario(torch, code, dt)
    assert ours[0] == theirs[0]
    if "randn" not in code:
        tol = 1e-12 if dt == "float64" else 1e-5
        np.testing.assert_allclose(ours[1], theirs[1], rtol=tol, atol=tol)
