"""Stop 34 (helper gver34): the _version of the gradients the engine returns (autograd.grad's
results, a leaf's .grad), swept per op and use against PyTorch 2.13 (Note [Gradient
versions] in autograd/engine.py; tests/fuzz/OPEN_FINDINGS.md, Stop 34 gradient versions).
Each scenario runs on autotensor and on PyTorch; versions and values must agree."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_VALS = [0.31, -1.27, 0.73, 1.91, -0.44, 0.052, 1.3, -0.61, 0.88, -2.1, 0.17, 0.5]


def _data(shape, off=0):
    n = int(np.prod(shape)) if shape else 1
    return np.array([_VALS[(i * 5 + off) % len(_VALS)] for i in range(n)]).reshape(shape)


def _leaf(m, shape, off=0):
    return m.tensor(_data(shape, off), requires_grad=True)


def _rec(gs):
    return [None if g is None else (g._version, g.detach().tolist()) for g in gs]


def _both(scenario):
    """Runs the scenario on both libraries: the versions must be equal, the gradients' values
    equal to float64 precision (a few formulas differ in the last bit: README "Numerics")."""
    ours, theirs = scenario(autotensor), scenario(torch)
    assert [v and v[0] for v in ours] == [v and v[0] for v in theirs]
    for a, b in zip(ours, theirs):
        if a is not None and a[1] is not None:
            np.testing.assert_allclose(a[1], b[1], rtol=1e-12, atol=1e-12)
    return [v and v[0] for v in ours], [v and v[0] for v in theirs]


def _run(expr, m, **kw):
    return eval(expr, dict(torch=m, **kw))  # noqa: S307 -- the test's own expressions


def _backward_versions(expr, shape, with_grad):
    """x.grad after one backward, then after a second (accumulated in place)."""
    def scenario(m):
        x = _leaf(m, shape)
        y = _run(expr, m, X=x)
        go = m.ones(y.shape, dtype=y.dtype) * 0.5 if with_grad else None
        (y if with_grad else y.sum()).backward(go, retain_graph=True)
        first = _rec([x.grad])
        (y if with_grad else y.sum()).backward(go)
        return first + _rec([x.grad])
    return _both(scenario)


@pytest.mark.parametrize("expr", ["X.sort(-1)[0]", "X.topk(1)[0]", "X.max(0)[0]",
                                  "X.min(-1)[0]", "X.median(0)[0]", "X.nanmedian(-1)[0]",
                                  "X.kthvalue(1, 0)[0]", "X.mode(0)[0]", "X.cummax(0)[0]",
                                  "X.cummin(-1)[0]", "X.msort()", "X.trace()"])
@pytest.mark.parametrize("with_grad", [False, True])
def test_made_gradient_is_stolen_into_grad_at_its_version(expr, with_grad):
    """A formula that writes into its fresh result twice (zeros, then scatter_ / index_fill_:
    version 2) gives the leaf a gradient no one else holds: PyTorch steals it into .grad,
    version 2. The engine's record of that version held the array, so it was copied
    (version 1)."""
    shape = (2, 3) if expr == "X.trace()" else (3,)
    ours, theirs = _backward_versions(expr, shape, with_grad)
    assert ours == theirs


@pytest.mark.parametrize("expr,shape", [
    ("X.t()", ()), ("X.t()", (3,)), ("X.T", (3,)), ("X.swapaxes(0, -1)", ()),
    ("X.transpose(0, -1)", (3,)), ("X.reshape(-1)", (2, 3)), ("X.view(-1)", (3,)),
    ("X.view_as(X)", (2, 3)), ("X.unsqueeze(0)", (3,)), ("X.unsqueeze(-1)", ()),
    ("X[None]", (2, 3)), ("X.flatten()", ()), ("X.flatten(0, -1)", (2, 3)),
    ("X.ravel()", (2, 3)), ("X.movedim(-1, 0)", (3,)), ("X.permute(*range(X.dim()))", (3,)),
    ("X.unflatten(-1, (1, -1))", (3,)), ("torch.stack([X])", (3,)), ("torch.cat([X])", (3,)),
    ("torch.atleast_3d(X)", (3,)), ("torch.hstack([X])", (2, 3)),
    ("torch.einsum('...->...', X)", (2, 3)),
    ("torch.cat([X, torch.zeros(0, dtype=X.dtype)])", (3,))])
def test_view_of_callers_gradient_is_stolen(expr, shape):
    """A view op's backward makes a new view of the incoming gradient: that tensor is held
    by no one else even when its base is the caller's gradient, so PyTorch steals it into
    .grad (version 0; the second backward adds into it in place: 1). t() / transpose of a
    tensor under 2-d is a view too, not the gradient itself; a squeeze that squeezed
    nothing gives the gradient itself back (copied: version 1)."""
    ours, theirs = _backward_versions(expr, shape, True)
    assert ours == theirs
    for squeeze in ("X.squeeze()", "X.squeeze(0)"):
        ours, theirs = _backward_versions(squeeze, shape or (3,), True)
        assert ours == theirs


@pytest.mark.parametrize("expr,shape", [
    ("torch.nn.functional.gelu(X)", ()), ("torch.nn.functional.gelu(X)", (2, 3)),
    ("torch.nn.functional.layer_norm(X, X.shape[-1:])", (2, 3)),
    ("torch.nn.functional.batch_norm(X, None, None, training=True)", (2, 3)),
    ("X.take(torch.tensor([0, 1, 0]))", (2, 3)), ("X.rot90()", (2, 3)),
    ("X.put(torch.tensor([0]), torch.tensor([5.0], dtype=X.dtype))", (3,)),
    ("torch.nn.functional.pad(X, (1, 1))", (3,)), ("X.cross(X.flip(0), dim=-1)", (2, 3)),
    ("torch.nn.functional.pad(X, (1, 1), mode='reflect')", (2, 3)),
    ("torch.nn.functional.pad(X, (1, 1), mode='replicate')", (2, 3)),
    ("torch.nn.functional.multilabel_margin_loss(X, torch.zeros_like(X, dtype=torch.int64))",
     (3,)),
    ("torch.nn.functional.multi_margin_loss(X, torch.zeros(2, dtype=torch.int64))", (2, 3))])
def test_fresh_formula_result_is_summed_into_in_place(expr, shape):
    """Two uses of one op on x: x's buffer holds the first gradient, PyTorch's fresh tensor,
    and adds the second into it in place (version + 1). Ours is a NumPy view of the
    formula's own temporary, which the engine took for a view of someone else's gradient
    and summed out of place (Note [Gradient versions], _GRAD_STORAGE)."""
    def scenario(m):
        x = _leaf(m, shape)
        z = _run(expr, m, X=x).sum() + _run(expr, m, X=x).sum()
        return _rec(m.autograd.grad(z, [x]))
    ours, theirs = _both(scenario)
    assert ours == theirs


@pytest.mark.parametrize("expr,shape", [
    ("(lambda h: h.lerp_(h.flip(0), 0.3))(X.clone())", (3,)),
    ("(lambda h: h * 2 + h.sin())(X.clone())", (2, 3)),
    ("(lambda h: h * h)(X.clone())", (3,)),
    ("torch.nn.functional.local_response_norm(X.unsqueeze(0), 2)", (2, 3))])
def test_buffer_summed_in_place_then_passed_on_keeps_its_version(expr, shape):
    """A non-leaf's buffer summed into in place (clone's: two uses of its result) that its
    node passes on unchanged (CloneBackward0, an unsqueeze's view) is the tensor the leaf's
    .grad steals: its version shows the sum. Only the leaves' buffers were counted."""
    ours, theirs = _backward_versions(expr, shape, False)
    assert ours == theirs


@pytest.mark.parametrize("weight", [False, True])
@pytest.mark.parametrize("pos_weight", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_bce_with_logits_gradient_versions_under_create_graph(weight, pos_weight, reduction):
    """With create_graph (grad mode on) PyTorch's binary_cross_entropy_with_logits_backward
    computes the input's gradient out of place (then only a mean's div_: version 1 or 0);
    the in-place steps (sigmoid().sub_().mul_(), mul_(weight)...) are grad mode off's. The
    target's gradient is the same either way."""
    def scenario(m):
        x = m.tensor([0.3, -1.2, 0.7], dtype=m.float64, requires_grad=True)
        t = m.tensor([0.2, 0.9, 0.4], dtype=m.float64, requires_grad=True)
        kw = {}
        if weight:
            kw["weight"] = m.tensor([0.5, 2.0, 1.5], dtype=m.float64)
        if pos_weight:
            kw["pos_weight"] = m.tensor([1.5, 0.5, 2.0], dtype=m.float64)
        y = m.nn.functional.binary_cross_entropy_with_logits(x, t, reduction=reduction, **kw)
        return _rec(m.autograd.grad(y.sum(), [x, t], create_graph=True))
    ours, theirs = _both(scenario)
    assert ours == theirs


@pytest.mark.parametrize("expr,shape", [
    ("torch.complex(X.detach(), X).abs()", (3,)), ("torch.polar(X.abs() + 1, X).real", (3,)),
    ("torch.fft.rfft(X, dim=0).abs()", (3,)), ("torch.fft.fft(X, dim=0).abs()", (3,)),
    ("torch.fft.ihfft(X, dim=0).real", (3,)), ("torch.view_as_real(X * 1j)", ())])
def test_real_and_imag_parts_of_complex_gradient_are_views(expr, shape):
    """A real input's gradient from a complex one is PyTorch's at::real / at::imag, a view
    with strides 2: the leaf's .grad copies it (version 1), a buffer never adds into it, and
    autograd.grad returns it at version 0 with its strides. Ours was a contiguous copy
    (stolen: version 0; ComplexBackward0's imag ``* 1``), or a NumPy scalar's real part
    (summed into in place)."""
    def scenario(m):
        x = _leaf(m, shape)
        y = _run(expr, m, X=x)
        g, = m.autograd.grad(y.sum() + _run(expr, m, X=x).sum(), [x], retain_graph=True)
        y.sum().backward()
        return _rec([g, x.grad]) + [(g.stride(), None)]
    ours, theirs = _both(scenario)
    assert ours == theirs


@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_as_strided_gradient_is_a_view_of_its_buffer(shape):
    """as_strided_backward returns ``grad_input.as_strided(...)`` of the zeros it copied
    the gradient into (version 1): two of them are summed out of place (a view: version 0),
    and the in-place as_strided_ (AsStridedBackward1) makes its gradient the same way."""
    def scenario(m):
        x = _leaf(m, shape)
        f = lambda t: t.as_strided(t.shape, t.stride())  # noqa: E731
        g, = m.autograd.grad(f(x).sum() + f(x).sum(), [x])
        c = x.clone()
        c.as_strided_(c.shape, c.stride())
        h, = m.autograd.grad(c.sum(), [x])
        return _rec([g, h])
    ours, theirs = _both(scenario)
    assert ours == theirs


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (3, 3)])
def test_pinv_gradient_is_laid_out_as_its_first_term(shape):
    """pinv_backward's sum is laid out as its first term, a transposed product
    (TensorIterator): autograd.grad's gradient has those strides and a leaf's .grad copies
    it (version 1). NumPy's sum was C order, stolen (version 0)."""
    def scenario(m):
        x = m.tensor(np.arange(np.prod(shape)).reshape(shape) * 0.37 % 1.3 - 0.2,
                     requires_grad=True)
        g, = m.autograd.grad(x.pinverse().sum(), [x])
        x.pinverse().sum().backward()
        return _rec([g, x.grad]) + [(g.stride(), None)]
    ours, theirs = _both(scenario)
    assert ours == theirs


def test_irfft_doubles_in_place_only_when_there_is_something_to_double():
    """fft_c2r_backward doubles the onesided gradient's entries past the first in place
    (mul_: version 1) only when there are some: a signal of length n > 2."""
    def scenario(m):
        x = m.tensor(_data((2, 3)) + 0j, requires_grad=True)
        return _rec([m.autograd.grad(m.fft.irfft(x, n=n, dim=0).sum(), [x])[0]
                     for n in (1, 2, 3, 4)])
    ours, theirs = _both(scenario)
    assert ours == theirs
