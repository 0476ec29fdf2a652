"""The ATen-level bindings of nn.functional (``torch.conv2d``, ``torch.batch_norm``,
``torch.kl_div``...: autotensor/nn/_aten.py) against torch: the same call evaluated in
both, comparing every output's dtype, shape, version, node name and values, then the
gradients of a weighted sum of the outputs, or the error's type and first line."""
import warnings

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_R = np.random.RandomState(11)
ARRAYS = {
    "x1": _R.randn(2, 4, 7), "w1": _R.randn(3, 2, 3), "wt1": _R.randn(4, 3, 3),
    "x2": _R.randn(2, 4, 5, 5), "w2": _R.randn(6, 2, 3, 3), "wt2": _R.randn(4, 3, 2, 2),
    "x3": _R.randn(1, 2, 4, 4, 4), "w3": _R.randn(3, 2, 2, 2, 2), "wt3": _R.randn(2, 2, 2, 2, 2),
    "b3": _R.randn(3), "b6": _R.randn(6), "c4": _R.randn(4), "c4b": _R.randn(4),
    "a": _R.randn(3, 5), "p": _R.randn(3, 5), "n": _R.randn(3, 5), "u": _R.rand(3, 5),
    "v": _R.randn(3), "emb": _R.randn(6, 3), "wb": _R.randn(5, 3, 4),
    "lp": _R.randn(6, 2, 4), "xt": _R.randn(5, 2, 3), "wtb": _R.randn(3, 3, 4), "btb": _R.randn(4),
    "img": _R.randn(2, 3, 4, 5), "grd": _R.uniform(-1.3, 1.3, (2, 3, 4, 2)),
    "img3": _R.randn(1, 2, 3, 4, 3), "grd3": _R.uniform(-1.3, 1.3, (1, 2, 2, 3, 3)),
}
CONSTS = {"y": np.array([1.0, -1.0, 1.0]), "ix": np.array([1, 2, 4, 0, 5, 5]),
          "off": np.array([0, 2, 2, 5]), "tg": np.array([[1, 2], [3, 3]]),
          "rm": np.array([0.5, -0.5, 0.0, 1.0]), "rv": np.array([1.0, 2.0, 0.5, 1.5]),
          "cw": _R.rand(3, 5), "cp": _R.rand(5) + 0.5}


def _values(a, decimals):
    return [v if v == v else "nan" for v in np.round(a, decimals).ravel().tolist()]


def _outcome(m, expr):
    leaves = {k: m.tensor(v, requires_grad=True) for k, v in ARRAYS.items()}
    env = dict(leaves, **{k: m.tensor(v) for k, v in CONSTS.items()}, m=m, np=np)
    m.manual_seed(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = eval(expr, env)
    except Exception as e:  # noqa: BLE001  (the error is what is compared)
        return ("error", type(e).__name__, str(e).split("\n")[0])
    outs = out if isinstance(out, (tuple, list)) else (out,)
    rows, loss = [], None
    for i, o in enumerate(outs):
        rows.append((str(o.dtype).rsplit(".", 1)[-1], tuple(o.shape), o._version,
                     None if o.grad_fn is None else type(o.grad_fn).__name__,
                     _values(o.detach().numpy(), 10)))
        if o.requires_grad:
            w = m.tensor(np.cos(np.arange(o.numel()) + i).reshape(tuple(o.shape)))
            term = (o * w).sum()
            loss = term if loss is None else loss + term
    grads = {}
    if loss is not None:
        loss.backward()
        grads = {k: _values(t.grad.numpy(), 9) for k, t in leaves.items()
                 if t.grad is not None}
    return ("ok", rows, grads, m.rand(1).item())


CASES = [
    # convolutions: F's signatures
    "m.conv1d(x1, w1, b3, 1, 1, 1, 2)", "m.conv1d(x1, w1, None, padding='same', groups=2)",
    "m.conv2d(x2, w2, b6, 2, 1, 1, 2)", "m.conv2d(x2, w2, groups=2, dilation=2)",
    "m.conv2d(x2, w2, b6, padding='valid', groups=2)", "m.conv2d(x2, w2)",
    "m.conv3d(x3, w3, b3, stride=(1, 2, 1), padding=1)", "m.conv3d(x3[0], w3)",
    "m.conv_transpose1d(x1, wt1, None, 2, 1, 1)", "m.conv_transpose1d(x1, wt1, b3[:3], 1)",
    "m.conv_transpose2d(x2, wt2, None, 2, 0, 1, 1, 1)",
    "m.conv_transpose2d(x2, wt2[:, :2], None, 1, 1, 0, 2, 2)",
    "m.conv_transpose3d(x3, wt3, b3[:2], stride=2)",
    # pooling: ATen's defaults (stride=[] means the kernel), one tensor out
    "m.max_pool1d(x1, 2)", "m.max_pool1d(x1, 3, 2, 1, 1, True)", "m.max_pool1d(x1, [2], [])",
    "m.max_pool2d(x2, 2)", "m.max_pool2d(x2, (3, 2), (1, 2), 1, 1, True)",
    "m.max_pool2d(x2, kernel_size=2, stride=(), padding=1, dilation=1)",
    "m.max_pool3d(x3, 2)", "m.max_pool3d(x3, 3, 1, 1, 1, False)",
    "m.avg_pool1d(x1, 2)", "m.avg_pool1d(x1, 3, 2, 1, True, False)",
    "m.adaptive_avg_pool1d(x1, 3)", "m.adaptive_avg_pool1d(x1, [4])",
    "m.adaptive_max_pool1d(x1, 3)", "m.adaptive_max_pool1d(x1, [1])",
    "m.pixel_shuffle(x2, 2)", "m.pixel_unshuffle(x2[:, :, :4, :4], 2)",
    # normalisation: ATen's positional order
    "m.batch_norm(x2, c4, c4b, None, None, True, 0.1, 1e-5, False)",
    "m.batch_norm(x1, None, None, rm, rv, False, 0.1, 1e-3, True)",
    "(lambda r: (m.batch_norm(x1, c4, None, r, rv.clone(), True, 0.3, 1e-5, True), r * 1))"
    "(rm.clone())",  # (the running stats' version: see F.batch_norm)
    "m.layer_norm(x2, [5, 5])", "m.layer_norm(x1, (7,), x1[0, 0], None, 1e-3, False)",
    "m.layer_norm(x1, 7)",
    "m.group_norm(x2, 2)", "m.group_norm(x2, 4, c4, c4b, 1e-3, False)",
    "m.group_norm(x1, 1, c4, None)", "m.group_norm(x1, 3)", "m.group_norm(x1[0, 0], 1)",
    "m.group_norm(x1, 2, c4[:3])", "m.nn.functional.group_norm(x2[:1], 2, c4, c4b)",
    "m.instance_norm(x1, c4, c4b, None, None, True, 0.1, 1e-5, False)",
    "(lambda r: (m.instance_norm(x1, None, None, r, rv.clone(), True, 0.2, 1e-5, True), r))"
    "(rm.clone())",
    "m.instance_norm(x1, None, None, rm, rv, False, 0.1, 1e-5, False)",
    "m.rms_norm(x1, [7])", "m.rms_norm(x1, (4, 7), x1[0], 1e-3)",
    # dropout: (input, p, train) and in place
    "m.dropout(a, 0.4, True)", "m.dropout(a, 0.4, False)", "m.dropout(a, 1.0, True)",
    "m.dropout(a, 1.5, True)", "m.dropout(a, 0.0, True)", "m.dropout_(a * 1, 0.3, True)",
    "m.dropout_(a * 1, 0.3, False)",
    "m.alpha_dropout(a, 0.4, True)", "m.alpha_dropout(a, 0.4, False)",
    "m.alpha_dropout(a, 1.0, True)", "m.alpha_dropout(a, -0.1, True)",
    "m.alpha_dropout_(a * 1, 0.4, True)",
    "m.feature_alpha_dropout(x2, 0.5, True)", "m.feature_alpha_dropout(x2, 0.5, False)",
    "m.feature_alpha_dropout_(x2 * 1, 0.5, True)", "m.feature_alpha_dropout(v, 0.5, True)",
    "m.feature_alpha_dropout(x2, 1.0, True)",
    # embeddings: weight first, padding_idx -1 = none
    "m.embedding(emb, ix)", "m.embedding(emb, ix.view(2, 3), 2)",
    "m.embedding(emb, ix, -1, True)", "m.embedding(v, ix)", "m.embedding(emb, ix.double())",
    "m.embedding_bag(emb, ix, off)", "m.embedding_bag(emb, ix, off, False, 1)",
    "m.embedding_bag(emb, ix, off, False, 2)", "m.embedding_bag(emb, ix, off, False, 1, "
    "False, None, False, 5)", "m.embedding_bag(emb, ix, off, False, 2, False, None, True, 5)",
    "m.embedding_bag(emb, ix, off, False, 0, False, u.view(-1)[:6], False, None)",
    "m.embedding_bag(emb, ix, off, False, 1, False, None, True, -1)",
    "m.embedding_bag(emb.float(), ix, off, False, 0)",
    "m.embedding_bag(emb.float(), ix, off, False, 0, False, None, False, 0)",
    "m.embedding_bag(emb, ix.int(), off.int(), False, 1)",
    "m.embedding_bag(emb, ix, None)",
    # distances
    "m.cosine_similarity(a, p)", "m.cosine_similarity(a, p, 0, 1e-3)",
    "m.pairwise_distance(a, p)", "m.pairwise_distance(a, p, 1.5, 1e-3, True)",
    "m.pairwise_distance(a, v[:1])", "m.bilinear(a, p, wb, c4)", "m.bilinear(a, p, wb)",
    # losses: reduction as an int (the Python default is 0: Note [Loss reduction enum])
    "m.binary_cross_entropy_with_logits(a, u)",
    "m.binary_cross_entropy_with_logits(a, u, cw, None, 1)",
    "m.binary_cross_entropy_with_logits(a, u, None, cp, 2)",
    "m.binary_cross_entropy_with_logits(a, u, cw, cp)",
    "m.binary_cross_entropy_with_logits(a, u, p, None, 1)",
    "m.binary_cross_entropy_with_logits(a, u, None, u[0] + 1, 2)",
    "m.nn.functional.binary_cross_entropy_with_logits(a, u, cw, reduction='sum', pos_weight=cp)",
    "m.nn.functional.binary_cross_entropy_with_logits(a, u[0])",
    "m.binary_cross_entropy_with_logits(a, u, None, None, 'mean')",
    "m.kl_div(a, u)", "m.kl_div(a, u, 1)", "m.kl_div(a, u, 2)", "m.kl_div(a, u, 5)",
    "m.kl_div(a, p, 1, log_target=True)", "m.kl_div(a, u, reduction=2, log_target=False)",
    "m.kl_div(a, u, 'mean')", "m.kl_div(a, u, 1, True)", "m.kl_div(a, u.abs() * 0)",
    "m.poisson_nll_loss(a, u, True, False, 1e-8, 0)",
    "m.poisson_nll_loss(u, u * 3, False, True, 1e-3, 1)",
    "m.poisson_nll_loss(a, u * 3, True, True, 1e-8, 2)",
    "m.margin_ranking_loss(a[:, 0], p[:, 0], y)",
    "m.margin_ranking_loss(a[:, 0], p[:, 0], y, 0.5, 1)",
    "m.margin_ranking_loss(a[:, 0], p[:, 0], y, reduction=2)",
    "m.hinge_embedding_loss(a[:, 0], y)", "m.hinge_embedding_loss(a[:, 0], y, 0.3, 1)",
    "m.hinge_embedding_loss(a, y[:, None].expand(3, 5), 2.0, 2)",
    "m.cosine_embedding_loss(a, p, y)", "m.cosine_embedding_loss(a, p, y, 0.2, 1)",
    "m.cosine_embedding_loss(a, p, y, reduction=2)",
    "m.triplet_margin_loss(a, p, n)", "m.triplet_margin_loss(a, p, n, 0.5, 1.0, 1e-6, True, 1)",
    "m.triplet_margin_loss(a, p, n, swap=True, reduction=2)",
    "m.ctc_loss(lp.log_softmax(2), tg, [6, 5], [2, 1])",
    "m.ctc_loss(lp.log_softmax(2), tg, [6, 5], [2, 1], 0, 1)",
    "m.ctc_loss(lp.log_softmax(2), tg, m.tensor([6, 6]), m.tensor([2, 2]), 0, 2, True)",
    # conv_tbc: (time, batch, channel) input, weight (kw, Cin, Cout); Note [conv_tbc]
    "m.conv_tbc(xt, wtb, btb, 1)", "m.conv_tbc(xt, wtb, btb)", "m.conv_tbc(xt, wtb[:1], btb, 2)",
    "m.conv_tbc(xt, wtb[:2], btb, -1)", "m.conv_tbc(xt[:2], wtb, btb)",
    "m.conv_tbc(input=xt, weight=wtb[:2], bias=btb, pad=-2)",
    "m.nn.functional.conv_tbc(xt[:, :1], wtb, btb, 0)", "m.conv_tbc(xt[:1], wtb, btb, -1)",
    "m.conv_tbc(xt[0], wtb, btb)", "m.conv_tbc(xt, wtb[0], btb)", "m.conv_tbc(xt, wtb, btb[:2])",
    "m.conv_tbc(xt, wtb, btb[None])", "m.conv_tbc(xt, wtb[:, :2], btb)",
    "m.conv_tbc(xt.float(), wtb, btb)", "m.conv_tbc(xt, wtb, None)",
    # grid_sampler: aten's enums (mode 0 bilinear 1 nearest 2 bicubic; zeros, border, reflection)
    "m.grid_sampler(img, grd, 0, 0, False)", "m.grid_sampler(img, grd, 2, 2, True)",
    "m.grid_sampler(img, grd, 1, 1, False)", "m.grid_sampler_2d(img, grd, 2, 1, False)",
    "m.grid_sampler(img3, grd3, 0, 2, False)", "m.grid_sampler_3d(img3, grd3, 1, 0, True)",
    "m.grid_sampler_3d(img, grd, 0, 0, False)", "m.grid_sampler_2d(img3, grd3, 0, 0, False)",
    "m.grid_sampler(img3, grd3, 2, 0, False)", "m.grid_sampler(img, grd3, 0, 0, False)",
    "m.grid_sampler(img, grd.float(), 0, 0, False)", "m.grid_sampler(img[0], grd[0], 0, 0, True)",
    "m.nn.functional.grid_sample(img, grd, 'bicubic', 'border', True)",
    "m.nn.functional.grid_sample(img3, grd3, 'bilinear', 'reflection', True)",
]


@pytest.mark.parametrize("expr", CASES)
def test_aten_binding_like_torch(expr):
    assert _outcome(autotensor, expr) == _outcome(torch, expr)


def test_loss_reduction_default_is_the_python_bindings():
    """torch's Python binding parses the schema's ``reduction=Mean`` default as 0 (none)."""
    a = torch.randn(3, 4)
    assert torch.kl_div(a, a.exp()).shape == (3, 4)
    x = autotensor.tensor(a.numpy())
    assert autotensor.kl_div(x, x.exp()).shape == (3, 4)


def test_aten_names_are_torchs_functions():
    from autotensor.nn import _aten
    for name in _aten.__all__:
        assert hasattr(torch, name), name
        assert getattr(autotensor, name) is getattr(_aten, name), name


@pytest.mark.parametrize("mode,padding,nd", [("bilinear", "zeros", 2), ("bicubic", "reflection", 2),
                                             ("bicubic", "border", 2), ("nearest", "zeros", 2),
                                             ("bilinear", "border", 3)])
def test_grid_sample_double_backward_like_torch(mode, padding, nd):
    """One entry, its backward written in differentiable ops (Note [grid_sampler entries]):
    the second derivatives in the input and the grid are PyTorch's."""
    res = []
    for m in (autotensor, torch):
        x = m.tensor(ARRAYS["img" if nd == 2 else "img3"], requires_grad=True)
        g = m.tensor(ARRAYS["grd" if nd == 2 else "grd3"], requires_grad=True)
        y = m.nn.functional.grid_sample(x, g, mode, padding, align_corners=False)
        gx, gg = m.autograd.grad((y * y).sum(), (x, g), create_graph=True)
        w = m.tensor(np.sin(np.arange(gx.numel())).reshape(tuple(gx.shape)))
        dd = m.autograd.grad((gx * w).sum() + (gg * gg).sum(), (x, g), allow_unused=True)
        res.append([None if t is None else t.detach().numpy() for t in dd])
    for a, b in zip(*res):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10)
