"""Issue 12 layers beyond the module table of test_nn.py: Transformer stacks, attention
with add_bias_kv / add_zero_attn, lazy modules, instance-norm running statistics, PyTorch's
error messages for padding and interpolation, and the char-LM example."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(12)


def _np(t):
    return t.detach().numpy()


def _close(a, b, tol=1e-4):
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol / 10)


def test_instance_norm_running_stats_match_torch():
    img = RNG.standard_normal((2, 3, 5, 4)).astype(np.float32)
    res = []
    for m in (autotensor, torch):
        n = m.nn.InstanceNorm2d(3, momentum=0.3, track_running_stats=True, affine=True)
        n(m.tensor(img))
        n(m.tensor(img * 2 + 1))
        n.eval()
        y = n(m.tensor(img))
        res.append([v.numpy() for v in n.state_dict().values()] + [y.detach().numpy()])
    for a, b in zip(*res):
        _close(a, b, 1e-5)


@pytest.mark.parametrize("kw", [{}, {"norm_first": True, "activation": "gelu"},
                                {"batch_first": True}])
def test_transformer_matches_torch(kw):
    src = RNG.standard_normal((5, 2, 8)).astype(np.float32)
    tgt = RNG.standard_normal((4, 2, 8)).astype(np.float32)
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        t = m.nn.Transformer(8, 2, 2, 2, 16, dropout=0.0, **kw)
        s, tg = m.tensor(src, requires_grad=True), m.tensor(tgt)
        if kw.get("batch_first"):
            s2, tg2 = s.transpose(0, 1), tg.transpose(0, 1)
        else:
            s2, tg2 = s, tg
        mask = m.nn.Transformer.generate_square_subsequent_mask(4)
        kpm = m.tensor([[False] * 4 + [True], [False] * 5])
        y = t(s2, tg2, tgt_mask=mask, src_key_padding_mask=kpm, memory_key_padding_mask=kpm)
        y.sum().backward()
        res.append((repr(t), list(t.state_dict()), [p.detach().numpy().copy()
                                                    for p in t.parameters()],
                    y.detach().numpy(), s.grad.numpy(), [p.grad.numpy() for p in t.parameters()],
                    mask.numpy()))
    assert res[0][:2] == res[1][:2]
    for a, b in zip(res[0][2], res[1][2]):
        np.testing.assert_array_equal(a, b)          # same draws, same order, deep copies
    _close(res[0][3], res[1][3])
    _close(res[0][4], res[1][4])
    for a, b in zip(res[0][5], res[1][5]):
        _close(a, b)
    np.testing.assert_array_equal(res[0][6], res[1][6])


def test_transformer_encoder_layer_dropout_draws_as_torch():
    src = RNG.standard_normal((6, 3, 8)).astype(np.float32)
    res = []
    for m in (autotensor, torch):
        m.manual_seed(1)
        layer = m.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.2)
        enc = m.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        y = enc(m.tensor(src))
        res.append((repr(enc), y.detach().numpy(), m.get_rng_state().numpy().tobytes()))
    assert res[0][0] == res[1][0]
    _close(res[0][1], res[1][1])
    assert res[0][2] == res[1][2]


@pytest.mark.parametrize("kw", [{"add_bias_kv": True}, {"add_zero_attn": True},
                                {"add_bias_kv": True, "add_zero_attn": True}])
@pytest.mark.parametrize("masks", [False, True])
def test_attention_bias_kv_zero_attn(kw, masks):
    q = RNG.standard_normal((3, 2, 8)).astype(np.float32)
    kv = RNG.standard_normal((5, 2, 8)).astype(np.float32)
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        a = m.nn.MultiheadAttention(8, 2, **kw)
        x, k = m.tensor(q, requires_grad=True), m.tensor(kv)
        extra = {}
        if masks:
            extra = dict(key_padding_mask=m.tensor([[False] * 4 + [True], [False] * 5]),
                         attn_mask=m.tensor(np.triu(np.ones((3, 5), bool), 3)))
        y, w = a(x, k, k, **extra)
        (y.sum() + w.sum()).backward()
        res.append((list(a.state_dict()), [p.detach().numpy() for p in a.parameters()],
                    y.detach().numpy(), w.detach().numpy(), x.grad.numpy(),
                    [p.grad.numpy() for p in a.parameters()]))
    assert res[0][0] == res[1][0]
    for a, b in zip(res[0][1], res[1][1]):
        np.testing.assert_array_equal(a, b)
    for i in (2, 3, 4):
        _close(res[0][i], res[1][i])
    for a, b in zip(res[0][5], res[1][5]):
        _close(a, b)


def test_lazy_linear_becomes_linear_with_torch_weights():
    x = RNG.standard_normal((2, 5)).astype(np.float32)
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        lin = m.nn.LazyLinear(3)
        before = (repr(lin), type(lin.weight).__name__, repr(lin.weight))
        y = lin(m.tensor(x))
        res.append((before, repr(lin), type(lin).__name__, type(lin.weight).__name__,
                    list(lin.state_dict()), lin.weight.detach().numpy(), y.detach().numpy()))
    assert res[0][:5] == res[1][:5]
    np.testing.assert_array_equal(res[0][5], res[1][5])
    _close(res[0][6], res[1][6], 1e-6)


@pytest.mark.parametrize("call", [
    lambda m, x: m.nn.functional.pad(x, (3, 0), mode="reflect"),
    lambda m, x: m.nn.functional.pad(x, (1,)),
    lambda m, x: m.nn.functional.pad(x, (1, 1, 1, 1, 1, 1, 1, 1)),
    lambda m, x: m.nn.functional.pad(x, (4, 0), mode="circular"),
    lambda m, x: m.nn.functional.pad(x[0, 0], (1, 1), mode="reflect"),
    lambda m, x: m.nn.functional.interpolate(x, scale_factor=2, align_corners=True),
    lambda m, x: m.nn.functional.interpolate(x),
    lambda m, x: m.nn.functional.interpolate(x, size=4, scale_factor=2),
    lambda m, x: m.nn.functional.interpolate(x, size=4, mode="bilinear"),
    lambda m, x: m.nn.functional.interpolate(x, size=4, mode="bogus"),
    lambda m, x: m.nn.functional.pixel_shuffle(x, 2),
    lambda m, x: m.nn.functional.multi_margin_loss(x[0], m.tensor([0]), p=3),
    lambda m, x: m.nn.functional.gaussian_nll_loss(x, x, -x.abs()),
    lambda m, x: m.nn.functional.gaussian_nll_loss(x, x, x[..., :2]),
])
def test_errors_match_torch(call):
    errs = []
    for m in (autotensor, torch):
        with pytest.raises(Exception) as info:
            call(m, m.ones(1, 1, 3))
        errs.append((type(info.value), str(info.value)))
    assert errs[0] == errs[1]


def test_charlm_example_quick_run_learns():
    from autotensor.examples import charlm
    for kind in ("lstm", "transformer"):
        losses = charlm.main(["--quick", "--model", kind])
        assert np.isfinite(losses).all()
        assert np.mean(losses[-3:]) < losses[0] - 0.3, (kind, losses)


def test_charlm_follows_torch():
    from autotensor.examples import charlm
    ours = charlm.train(autotensor, steps=3, verbose=False)[0]
    theirs = charlm.train(torch, steps=3, verbose=False)[0]
    np.testing.assert_allclose(ours, theirs, rtol=1e-4)


@pytest.mark.parametrize("kw", [{}, {"is_causal": True}, {"scale": 0.3}, {"mask": "bool"},
                                {"mask": "float"}])
def test_scaled_dot_product_attention_matches_torch(kw):
    q, k, v = (RNG.standard_normal((2, 3, 4, 5)) for _ in range(3))
    masks = {"bool": np.tril(np.ones((4, 4), bool), 1), "float": RNG.standard_normal((4, 4))}
    res = []
    for m in (autotensor, torch):
        ts = [m.tensor(a, requires_grad=True) for a in (q, k, v)]
        kk = dict(kw)
        if "mask" in kk:
            kk["attn_mask"] = m.tensor(masks[kk.pop("mask")])
        y = m.nn.functional.scaled_dot_product_attention(*ts, **kk)
        y.sum().backward()
        res.append([y.detach().numpy()] + [t.grad.numpy() for t in ts])
    for a, b in zip(*res):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


_THETA2 = np.array([[[0.9, 0.2, 0.1], [-0.1, 1.1, 0.05]], [[1.3, -0.4, 0.3], [0.5, 0.8, -0.2]]])
_THETA3 = RNG.standard_normal((2, 3, 4))


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("theta,size", [(_THETA2, (2, 3, 4, 7)), (_THETA3, (2, 1, 3, 4, 5)),
                                        (_THETA3, (2, 2, 1, 2, 3))])
def test_affine_grid_matches_torch(align_corners, theta, size):
    res = []
    for m in (autotensor, torch):
        t = m.tensor(theta, requires_grad=True)
        g = m.nn.functional.affine_grid(t, size, align_corners=align_corners)
        (g * g.sin()).sum().backward()
        res.append((g.detach().numpy(), t.grad.numpy()))
    for a, b in zip(*res):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("mode,nd", [("bilinear", 2), ("nearest", 2), ("bicubic", 2),
                                     ("bilinear", 3), ("nearest", 3)])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_matches_torch(mode, nd, padding_mode, align_corners):
    img = RNG.standard_normal((2, 3, 5, 6) if nd == 2 else (2, 3, 4, 5, 3))
    grid = RNG.uniform(-1.3, 1.3, (2, 4, 7, 2) if nd == 2 else (2, 3, 2, 4, 3))  # outside too
    res = []
    for m in (autotensor, torch):
        x, g = m.tensor(img, requires_grad=True), m.tensor(grid, requires_grad=True)
        y = m.nn.functional.grid_sample(x, g, mode=mode, padding_mode=padding_mode,
                                        align_corners=align_corners)
        (y * m.tensor(np.cos(np.arange(y.numel()))).reshape(y.shape)).sum().backward()
        res.append((y.detach().numpy(), x.grad.numpy(),
                    np.zeros(grid.shape) if g.grad is None else g.grad.numpy()))
    for a, b in zip(*res):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("call", [
    lambda m: m.nn.functional.grid_sample(m.ones(1, 1, 2, 2, 2), m.zeros(1, 1, 1, 1, 3),
                                          mode="bicubic", align_corners=False),
    lambda m: m.nn.functional.grid_sample(m.ones(1, 1, 2, 2), m.zeros(1, 1, 1, 3),
                                          align_corners=False),
    lambda m: m.nn.functional.grid_sample(m.ones(1, 1, 2, 2), m.zeros(1, 1, 1, 2),
                                          mode="area", align_corners=False),
    lambda m: m.nn.functional.affine_grid(m.ones(1, 2, 3), (1, 1, 2, 2, 2),
                                          align_corners=False),
    lambda m: m.nn.functional.affine_grid(m.ones(1, 3, 4), (1, 1, 2, 2), align_corners=False),
    lambda m: m.nn.functional.affine_grid(m.ones(1, 3, 4), [1, 1, 2, 2, 2, 2],
                                          align_corners=False),
    lambda m: m.nn.functional.interpolate(m.ones(1, 1, 3, 3, 3), scale_factor=2,
                                          mode="trilinear", antialias=True),
    lambda m: m.nn.functional.interpolate(m.ones(1, 1, 3, 3), scale_factor=2, mode="lanczos"),
    lambda m: m.nn.functional.interpolate(m.ones(1, 1, 3, 3), size=2, mode="lanczos",
                                          antialias=True, align_corners=True),
    lambda m: m.nn.functional.interpolate(m.ones(1, 1, 3, 3), scale_factor=2, mode="trilinear"),
])
def test_sampling_errors_match_torch(call):
    res = []
    for m in (autotensor, torch):
        with pytest.raises(Exception) as info:
            call(m)
        res.append((type(info.value).__name__, str(info.value)))
    assert res[0] == res[1]


def test_grid_sample_default_align_corners_warns_as_torch():
    for m in (autotensor, torch):
        with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
            m.nn.functional.grid_sample(m.ones(1, 1, 2, 2), m.zeros(1, 1, 1, 2))
        with pytest.warns(UserWarning, match="unit-size grids"):
            m.nn.functional.affine_grid(m.ones(1, 2, 3), (1, 1, 1, 2), align_corners=True)


@pytest.mark.parametrize("ctor,shape", [
    (lambda m: m.nn.LazyConv2d(4, 3, groups=2, bias=False), (2, 6, 5, 5)),
    (lambda m: m.nn.LazyConv1d(3, 2, padding=1, padding_mode="reflect"), (4, 6)),
    (lambda m: m.nn.LazyConvTranspose1d(4, 3), (6, 5)),
    (lambda m: m.nn.LazyConvTranspose2d(2, 3, stride=2), (1, 3, 4, 4)),
    (lambda m: m.nn.LazyConv3d(2, 2), (1, 2, 3, 3, 3)),
    (lambda m: m.nn.LazyConvTranspose3d(2, 2, stride=2, output_padding=1), (1, 3, 2, 2, 2)),
])
def test_lazy_conv_becomes_conv_with_torch_weights(ctor, shape):
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        mod = ctor(m)
        before = (repr(mod), type(mod.weight).__name__)
        y = mod(m.tensor(np.ones(shape, np.float32)))
        res.append((before, repr(mod), type(mod).__name__, list(mod.state_dict()),
                    mod.weight.detach().numpy(), y.detach().numpy(),
                    m.get_rng_state().numpy().tobytes()))
    assert res[0][:4] == res[1][:4]
    np.testing.assert_array_equal(res[0][4], res[1][4])
    _close(res[0][5], res[1][5], 1e-5)
    assert res[0][6] == res[1][6]


@pytest.mark.filterwarnings("ignore:enable_nested_tensor")
@pytest.mark.parametrize("kw,nhead,with_norm,grad,aligned", [
    ({"batch_first": True}, 2, False, False, True),     # torch's nested fast path: zeros
    ({"batch_first": True}, 2, True, False, True),      # ... then the final norm
    ({"batch_first": True}, 1, False, False, True),     # odd heads: no nested tensors
    ({}, 2, False, False, True),                        # not batch_first: no nested tensors
    ({"batch_first": True}, 2, False, True, True),      # grad enabled: the normal path
    ({"batch_first": True}, 2, False, False, False),    # mask not left-aligned
])
def test_encoder_inference_padding_as_torch(kw, nhead, with_norm, grad, aligned):
    x = RNG.standard_normal((2, 5, 8)).astype(np.float32)
    pad = [[False] * 3 + [True] * 2, [False] * 5] if aligned else \
        [[False, True, False, False, True], [False] * 5]
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        layer = m.nn.TransformerEncoderLayer(8, nhead, 16, dropout=0.0, **kw)
        enc = m.nn.TransformerEncoder(layer, 2, norm=m.nn.LayerNorm(8) if with_norm else None)
        enc.eval()
        src = m.tensor(x if kw.get("batch_first") else x.transpose(1, 0, 2).copy())
        kpm = m.tensor(pad)
        if grad:
            y = enc(src, src_key_padding_mask=kpm)
        else:
            with m.no_grad():
                y = enc(src, src_key_padding_mask=kpm)
        res.append((y.detach().numpy(), enc.use_nested_tensor))
    assert res[0][1] == res[1][1]
    _close(res[0][0], res[1][0])


def test_encoder_nested_tensor_warning_as_torch():
    msgs = []
    for m in (autotensor, torch):
        layer = m.nn.TransformerEncoderLayer(8, 2, 16)
        with pytest.warns(UserWarning) as rec:
            m.nn.TransformerEncoder(layer, 2)
        msgs.append([str(w.message) for w in rec if "nested" in str(w.message)])
    assert msgs[0] == msgs[1] and msgs[0]


@pytest.mark.filterwarnings("ignore:input's size")   # both warn: num_features stays 0
@pytest.mark.parametrize("name,kw,shape", [
    ("LazyBatchNorm1d", {}, (4, 3)), ("LazyBatchNorm1d", {"affine": False}, (4, 3, 5)),
    ("LazyBatchNorm2d", {"track_running_stats": False}, (2, 3, 4, 4)),
    ("LazyBatchNorm3d", {"bias": False, "momentum": None}, (2, 3, 2, 2, 2)),
    ("LazyInstanceNorm1d", {}, (2, 3, 5)),      # torch's lazy defaults: affine, tracking
    ("LazyInstanceNorm2d", {"affine": False, "track_running_stats": False}, (2, 3, 4, 4)),
    ("LazyInstanceNorm3d", {"eps": 1e-3}, (2, 3, 2, 2, 3)),
])
def test_lazy_norm_becomes_norm_as_torch(name, kw, shape):
    """Uninitialized parameters and buffers until the first input, then the plain class
    with num_features from dim 1: reprs, state dicts, outputs and running stats."""
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        mod = getattr(m.nn, name)(**kw)
        before = (repr(mod), [(k, repr(v)) for k, v in mod.named_parameters()],
                  [(k, repr(v)) for k, v in mod.named_buffers()])
        x = m.linspace(-2, 3, int(np.prod(shape))).reshape(shape).requires_grad_()
        y = mod(x)
        (y * m.arange(y.numel()).reshape(y.shape).sin()).sum().backward()
        y2 = mod(x * 2)
        res.append((before, repr(mod), type(mod).__name__, list(mod.state_dict()),
                    type(mod.running_mean).__name__, _np(y), _np(y2), _np(x.grad),
                    [_np(v) for v in mod.state_dict().values()]))
    assert res[0][:5] == res[1][:5]
    for i in (5, 6, 7):
        _close(res[0][i], res[1][i], 1e-5)
    for a, b in zip(res[0][8], res[1][8]):
        _close(a, b, 1e-5)


_BAG_W = RNG.standard_normal((10, 3))
_BAG_IDX, _BAG_OFF = np.array([1, 2, 4, 5, 4, 3, 2, 9, 4]), np.array([0, 2, 2, 5])


@pytest.mark.parametrize("mode", ["sum", "mean"])
@pytest.mark.parametrize("padding_idx", [None, 4, -1])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("two_d", [False, True])
def test_embedding_bag_scale_grad_by_freq(mode, padding_idx, weighted, two_d):
    """Each entry's gradient divided by its index's count (Note [Bag frequency]): checked
    against torch's F.embedding(scale_grad_by_freq=True) reduced per bag, whose counting is
    right (torch 2.13's CPU bag backward is not for mixed counts, pytorch#190063)."""
    if weighted and mode != "sum":
        return
    idx = _BAG_IDX[:8].reshape(2, 4) if two_d else _BAG_IDX
    bags = np.repeat(np.arange(2), 4) if two_d else np.repeat(np.arange(4), np.diff(
        np.append(_BAG_OFF, _BAG_IDX.size)))
    psw = np.linspace(0.5, 2, idx.size).reshape(idx.shape)
    g = np.cos(np.arange((2 if two_d else 4) * 3)).reshape(-1, 3)
    w = autotensor.tensor(_BAG_W, requires_grad=True)
    p = autotensor.tensor(psw, requires_grad=True) if weighted else None
    y = autotensor.nn.functional.embedding_bag(
        autotensor.tensor(idx), w, None if two_d else autotensor.tensor(_BAG_OFF), mode=mode,
        padding_idx=padding_idx, per_sample_weights=p, scale_grad_by_freq=True)
    y.backward(autotensor.tensor(g))
    tw = torch.tensor(_BAG_W, requires_grad=True)
    flat = torch.tensor(idx.reshape(-1))
    rows = torch.nn.functional.embedding(flat, tw, padding_idx=padding_idx,
                                         scale_grad_by_freq=True)
    pad = 9 if padding_idx == -1 else padding_idx
    keep = torch.tensor((idx.reshape(-1) != pad).astype(np.float64))[:, None]
    rows = rows * keep
    if weighted:
        rows = rows * torch.tensor(psw.reshape(-1))[:, None]
    ref = torch.zeros(len(g), 3, dtype=torch.float64).index_add(0, torch.tensor(bags), rows)
    if mode == "mean":
        counts = torch.zeros(len(g), dtype=torch.float64).index_add(0, torch.tensor(bags),
                                                                     keep[:, 0])
        ref = ref / counts.clamp_min(1)[:, None]
    ref.backward(torch.tensor(g))
    np.testing.assert_allclose(y.detach().numpy(), ref.detach().numpy(), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-12, atol=1e-12)


def test_embedding_bag_scale_grad_by_freq_equal_counts_match_torch_bag():
    idx, off = np.array([3, 1, 1, 3, 7, 7]), np.array([0, 3])
    res = []
    for m in (autotensor, torch):
        w = m.tensor(_BAG_W, requires_grad=True)
        y = m.nn.EmbeddingBag.from_pretrained(w, freeze=False, mode="sum",
                                              scale_grad_by_freq=True)
        out = y(m.tensor(idx), m.tensor(off))
        out.backward(m.ones(2, 3))
        res.append((repr(y), out.detach().numpy(), y.weight.grad.numpy()))
    assert res[0][0] == res[1][0]
    np.testing.assert_allclose(res[0][1], res[1][1], rtol=1e-12)
    np.testing.assert_allclose(res[0][2], res[1][2], rtol=1e-12)


@pytest.mark.parametrize("call", [
    lambda m: m.nn.functional.embedding_bag(m.tensor([1, 2]), m.ones(3, 2), m.tensor([0]),
                                            mode="max", scale_grad_by_freq=True),
    lambda m: m.nn.functional.embedding_bag(m.tensor([1, 2]), m.ones(3, 2), m.tensor([0]),
                                            mode="max", sparse=True),
    lambda m: m.nn.functional.embedding_bag(m.tensor([1, 2]), m.ones(3, 2), m.tensor([0]),
                                            per_sample_weights=m.ones(3)),
    lambda m: m.nn.functional.embedding_bag(m.tensor([1, 2]), m.ones(3, 2, 1), m.tensor([0])),
    lambda m: m.nn.functional.embedding_bag(m.tensor([[1, 2]]), m.ones(3, 2), m.tensor([0])),
    lambda m: m.nn.functional.embedding_bag(m.tensor([1, 2]), m.ones(3, 2), m.tensor([[0]])),
    lambda m: m.nn.functional.embedding_bag(m.tensor([1, 2]), m.ones(3, 2), m.tensor([0]),
                                            mode="prod"),
    lambda m: m.nn.functional.embedding_bag(m.tensor([1, 2]), m.ones(3, 2), m.tensor([0]),
                                            mode="mean", per_sample_weights=m.ones(2)),
])
def test_embedding_bag_errors_match_torch(call):
    res = []
    for m in (autotensor, torch):
        with pytest.raises(Exception) as info:
            call(m)
        res.append((type(info.value).__name__, str(info.value)))
    assert res[0] == res[1]


def _chain(t, depth=4):
    """Node class names level by level from t.grad_fn."""
    out, fns = [], [t.grad_fn]
    for _ in range(depth):
        out.append([type(f).__name__ for f in fns if f is not None])
        fns = [n for f in fns if f is not None for n, _ in f.next_functions]
    return out


_CTC_LP = np.log(RNG.dirichlet(np.ones(5), size=(9, 3)))
_CTC_CASES = [
    (np.array([[1, 2, 2], [3, 1, 0], [4, 4, 4]]), [9, 6, 5], [3, 2, 3]),
    (np.array([1, 2, 2, 3, 1, 4, 4]), [9, 6, 4], [3, 2, 2]),
    (np.array([[1, 1, 1, 1], [2, 2, 2, 2], [1, 0, 0, 0]]), [4, 9, 9], [4, 4, 0]),  # impossible
]


@pytest.mark.parametrize("case", range(3))
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("zero_infinity", [False, True])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_ctc_loss_graph_values_gradients_match_torch(case, reduction, zero_infinity, dtype):
    """One CtcLossBackward0 node under aten's where/div/mean/sum (torch's graph), values and
    gradients (inf / NaN where torch has them for an impossible alignment)."""
    tg, il, tl = _CTC_CASES[case]
    res = []
    for m in (autotensor, torch):
        x = m.tensor(_CTC_LP.astype(dtype), requires_grad=True)
        loss = m.nn.functional.ctc_loss(x, m.tensor(tg), m.tensor(il), m.tensor(tl),
                                        reduction=reduction, zero_infinity=zero_infinity)
        g = np.linspace(0.5, 1.5, loss.numel()).reshape(tuple(loss.shape)).astype(dtype)
        loss.backward(m.tensor(g))
        res.append((_chain(loss), _np(loss), x.grad.numpy()))
    assert res[0][0] == res[1][0]
    tol = 1e-12 if dtype == "float64" else 2e-5
    for a, b in zip(res[0][1:], res[1][1:]):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)     # NaN / inf positions equal


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_ctc_loss_unbatched_and_double_backward_as_torch(reduction):
    res = []
    for m in (autotensor, torch):
        x = m.tensor(_CTC_LP[:, 0], requires_grad=True)
        loss = m.nn.functional.ctc_loss(x, m.tensor([1, 2, 2]), m.tensor([9]), m.tensor([3]),
                                        reduction=reduction)
        g, = m.autograd.grad(loss, x, create_graph=True)
        with pytest.raises(RuntimeError) as info:
            g.sum().backward()
        res.append((_chain(loss), tuple(loss.shape), _np(loss), _np(g),
                    type(g.grad_fn).__name__, str(info.value)))
    assert res[0][:2] == res[1][:2] and res[0][4:] == res[1][4:]
    np.testing.assert_allclose(res[0][2], res[1][2], rtol=1e-12)
    np.testing.assert_allclose(res[0][3], res[1][3], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("call", [
    lambda m, x: m.nn.functional.ctc_loss(x, m.tensor([[1, 2]]), m.tensor([9]),
                                          m.tensor([2]), reduction="avg"),
    lambda m, x: m.nn.functional.ctc_loss(x, m.tensor([[1, 2]]), m.tensor([10]),
                                          m.tensor([2])),
    lambda m, x: m.nn.functional.ctc_loss(x, m.tensor([[1, 2]]), m.tensor([9]),
                                          m.tensor([3])),
    lambda m, x: m.nn.functional.ctc_loss(x, m.tensor([[1, 2]]), m.tensor([9, 9]),
                                          m.tensor([2])),
])
def test_ctc_loss_errors_match_torch(call):
    res = []
    for m in (autotensor, torch):
        with pytest.raises(Exception) as info:
            call(m, m.tensor(_CTC_LP[:, :1]))
        res.append((type(info.value).__name__, str(info.value)))
    assert res[0] == res[1]


@pytest.mark.parametrize("kw", [{}, {"affine": True}, {"track_running_stats": True},
                                {"affine": True, "track_running_stats": True}])
@pytest.mark.parametrize("train", [True, False])
def test_instance_norm_graph_matches_torch(kw, train):
    """aten's instance_norm: weight/bias/stats repeated per sample (RepeatBackward0) into one
    NativeBatchNormBackward0 over a (1, N*C, ...) view."""
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    res = []
    for m in (autotensor, torch):
        mod = m.nn.InstanceNorm1d(3, **kw).train(train)
        res.append(_chain(mod(m.tensor(x, requires_grad=True)), 6))
    assert res[0] == res[1]


@pytest.mark.parametrize("p", [0, 1, 2, 0.5, 1.5, 3, float("inf")])
def test_pdist_matches_torch(p):
    """PdistBackward0 with aten's per-norm derivative rules (zero-distance pairs, zero
    differences for p < 1, ties for inf); the double backward raises as torch's."""
    x = RNG.standard_normal((5, 3))
    x[3] = x[1]
    x[4, 0] = x[2, 0]
    res = []
    for m in (autotensor, torch):
        t = m.tensor(x, requires_grad=True)
        d = m.nn.functional.pdist(t, p)
        g, = m.autograd.grad((d * m.tensor(np.cos(np.arange(d.numel())))).sum(), t,
                             create_graph=True)
        with pytest.raises(NotImplementedError) as info:
            g.sum().backward()
        res.append((_np(d), _np(g), type(d.grad_fn).__name__, type(g.grad_fn).__name__,
                    str(info.value)))
    np.testing.assert_allclose(res[0][0], res[1][0], rtol=1e-12)
    np.testing.assert_allclose(res[0][1], res[1][1], rtol=1e-12, atol=1e-14)
    assert res[0][2:] == res[1][2:]


@pytest.mark.parametrize("hard", [False, True])
def test_gumbel_softmax_draws_and_gradient_as_torch(hard):
    x = RNG.standard_normal((4, 5)).astype(np.float32)
    res = []
    for m in (autotensor, torch):
        m.manual_seed(7)
        t = m.tensor(x, requires_grad=True)
        y = m.nn.functional.gumbel_softmax(t, tau=0.7, hard=hard, dim=1)
        (y * m.tensor(np.cos(np.arange(20.)).reshape(4, 5).astype(np.float32))).sum().backward()
        with pytest.warns(UserWarning, match="deprecated"):
            m.nn.functional.gumbel_softmax(t, eps=1e-3)
        res.append((_np(y), t.grad.numpy(), type(y.grad_fn).__name__,
                    m.get_rng_state().numpy().tobytes()))
    _close(res[0][0], res[1][0], 1e-5)
    _close(res[0][1], res[1][1], 1e-5)
    assert res[0][2:] == res[1][2:]


def test_relu_inplace_functional():
    res = []
    for m in (autotensor, torch):
        t = m.tensor([-1.0, 2.0, -0.5])
        out = m.nn.functional.relu_(t)
        res.append((out is t, t.tolist()))
    assert res[0] == res[1]


@pytest.mark.filterwarnings("ignore:Initializing zero-element")
@pytest.mark.parametrize("kw", [dict(cutoffs=[4, 10]),
                                dict(cutoffs=[2, 6, 12], div_value=2.0, head_bias=True)])
def test_adaptive_log_softmax_matches_torch(kw):
    """Same submodules and draws (weights bit-equal), outputs, loss, gradients, log_prob,
    predict and the unbatched form."""
    x = RNG.standard_normal((6, 32)).astype(np.float32)
    target = np.array([0, 3, 9, 14, 5, 19])
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        asm = m.nn.AdaptiveLogSoftmaxWithLoss(32, 20, **kw)
        t = m.tensor(x, requires_grad=True)
        out, loss = asm(t, m.tensor(target))
        loss.backward()
        one, _ = asm(t[0], m.tensor(target[0]))
        with pytest.raises(RuntimeError) as info:
            asm(t, m.tensor(target + 5))
        res.append((repr(asm), [_np(p) for p in asm.parameters()], _np(out), loss.item(),
                    t.grad.numpy(), [p.grad.numpy() for p in asm.parameters()],
                    _np(asm.log_prob(t)), asm.predict(t).numpy(), _np(one),
                    type(out.grad_fn).__name__, str(info.value)))
    a, b = res
    assert a[0] == b[0] and a[9:] == b[9:]
    for u, v in zip(a[1], b[1]):
        np.testing.assert_array_equal(u, v)
    for i in (2, 4, 6, 8):
        _close(a[i], b[i], 1e-5)
    for u, v in zip(a[5], b[5]):
        _close(u, v, 1e-5)
    np.testing.assert_array_equal(a[7], b[7])
    assert abs(a[3] - b[3]) < 1e-5


@pytest.mark.parametrize("nd,shape,kw", [
    (2, (2, 3, 9, 11), dict(kernel_size=(2, 3), output_size=(4, 5))),
    (2, (3, 10, 7), dict(kernel_size=3, output_ratio=0.6)),
    (3, (2, 2, 6, 7, 8), dict(kernel_size=2, output_size=(3, 4, 5))),
    (3, (2, 5, 6, 7), dict(kernel_size=(1, 2, 3), output_ratio=(0.5, 0.7, 0.4)))])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fractional_max_pool_matches_torch(nd, shape, kw, dtype):
    """torch.rand samples drawn as torch, aten's interval generation in the input's
    precision: the same windows, values, indices and gradients."""
    x = RNG.standard_normal(shape).astype(dtype)
    res = []
    for m in (autotensor, torch):
        m.manual_seed(3)
        cls = m.nn.FractionalMaxPool2d if nd == 2 else m.nn.FractionalMaxPool3d
        mod = cls(return_indices=True, **kw)
        t = m.tensor(x, requires_grad=True)
        y, idx = mod(t)
        (y * y).sum().backward()
        res.append((repr(mod), _np(y), idx.numpy(), t.grad.numpy(), type(y.grad_fn).__name__,
                    m.get_rng_state().numpy().tobytes()))
    assert res[0][0] == res[1][0] and res[0][4:] == res[1][4:]
    for a, b in zip(res[0][1:4], res[1][1:4]):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("call", [
    lambda m: m.nn.functional.fractional_max_pool2d(m.ones(1, 1, 4, 4), 3, output_size=3),
    lambda m: m.nn.functional.fractional_max_pool2d(m.ones(1, 1, 4, 4), 2),
    lambda m: m.nn.FractionalMaxPool2d(2, output_ratio=1.5),
    lambda m: m.nn.FractionalMaxPool2d(2),
    lambda m: m.nn.FractionalMaxPool3d(2, output_size=2, output_ratio=0.5),
    lambda m: m.nn.functional.fractional_max_pool3d(m.ones(1, 1, 4, 4, 4), 3, output_size=3),
])
def test_fractional_max_pool_errors_match_torch(call):
    res = []
    for m in (autotensor, torch):
        with pytest.raises(Exception) as info:
            call(m)
        res.append((type(info.value).__name__, str(info.value)))
    assert res[0] == res[1]


@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4), (2, 3, 2, 2), (2, 3, 2, 2, 2), (3,)])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("cross_entropy", [False, True])
def test_nll_loss_nd_graph_as_torch(shape, reduction, cross_entropy):
    """aten's nll_loss_nd: NllLossBackward0 for (C,) and (N, C) (no unsqueeze for one
    sample), NllLoss2DBackward0 for 4-d input, other ranks viewed as (N, C, 1, -1) into it."""
    x = RNG.standard_normal(shape)
    t = RNG.integers(0, 3, (shape[0],) + shape[2:] if len(shape) > 1 else ())
    res = []
    for m in (autotensor, torch):
        xt = m.tensor(x, requires_grad=True)
        f = m.nn.functional.cross_entropy if cross_entropy else m.nn.functional.nll_loss
        loss = f(xt, m.tensor(t), weight=m.tensor([0.3, 1.0, 2.0], dtype=m.float64),
                 ignore_index=1, reduction=reduction)
        loss.backward(m.ones(loss.shape, dtype=m.float64))
        res.append((_chain(loss, 3), _np(loss), xt.grad.numpy()))
    assert res[0][0] == res[1][0]
    np.testing.assert_allclose(res[0][1], res[1][1], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(res[0][2], res[1][2], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("separate", [False, True])
@pytest.mark.parametrize("kw", [{}, {"add_zero_attn": True}, {"add_bias_kv": True},
                                {"mask": True}])
def test_multi_head_attention_forward_matches_torch(separate, kw):
    res = []
    e = 6 if separate else 8
    for m in (autotensor, torch):
        m.manual_seed(0)
        mha = m.nn.MultiheadAttention(8, 2, kdim=e if separate else None,
                                      vdim=e if separate else None,
                                      add_bias_kv=kw.get("add_bias_kv", False),
                                      add_zero_attn=kw.get("add_zero_attn", False))
        q = m.tensor(np.linspace(-1, 1, 48, dtype=np.float32).reshape(3, 2, 8),
                     requires_grad=True)
        k = m.tensor(np.cos(np.arange(8 * e)).reshape(4, 2, e).astype(np.float32))
        v = m.tensor(np.sin(np.arange(8 * e)).reshape(4, 2, e).astype(np.float32))
        mask = m.tensor([[False, True, False, False]] * 3) if kw.get("mask") else None
        out, w = m.nn.functional.multi_head_attention_forward(
            q, k, v, 8, 2, mha.in_proj_weight, mha.in_proj_bias, mha.bias_k, mha.bias_v,
            mha.add_zero_attn, 0.0, mha.out_proj.weight, mha.out_proj.bias, attn_mask=mask,
            use_separate_proj_weight=separate, q_proj_weight=getattr(mha, "q_proj_weight", None),
            k_proj_weight=getattr(mha, "k_proj_weight", None),
            v_proj_weight=getattr(mha, "v_proj_weight", None))
        out.sum().backward()
        res.append((_np(out), _np(w), q.grad.numpy()))
    for a, b in zip(*res):
        _close(a, b, 1e-5)


@pytest.mark.parametrize("kw,tshape", [
    ({}, (6,)), (dict(out_features=(2,), bias=True, reduction="sum", label_smoothing=0.1),
                 (6, 2)),
    (dict(ignore_index=2, reduction="none"), (6,)), (dict(options="chunked"), (6,))])
def test_linear_cross_entropy_matches_torch(kw, tshape):
    """LinearCrossEntropyLoss / F.linear_cross_entropy (PyTorch 2.13): weights, repr,
    values and gradients; with options torch's chunked path gives the same values."""
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        k = dict(kw)
        if k.get("options"):
            k["options"] = m.nn.LinearCrossEntropyOptions(batch_chunk_size=2)
        mod = m.nn.LinearCrossEntropyLoss(4, 5, **k)
        x = m.tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(6, 4), requires_grad=True)
        loss = mod(x, m.tensor(np.arange(int(np.prod(tshape))).reshape(tshape) % 5))
        loss.sum().backward()
        with pytest.raises(ValueError) as info:
            m.nn.LinearCrossEntropyOptions(acc_policy="fast")
        res.append((repr(mod), str(info.value), _np(mod.linear.weight), _np(loss),
                    x.grad.numpy(), mod.linear.weight.grad.numpy()))
    assert res[0][:2] == res[1][:2]
    np.testing.assert_array_equal(res[0][2], res[1][2])
    for a, b in zip(res[0][3:], res[1][3:]):
        _close(a, b, 1e-5)


def test_lazy_state_dict_and_loading_as_torch():
    """Uninitialized tensors in the state dict; loading a state dict materializes them to
    the loaded shapes (then the first call converts the class; LazyLinear takes in_features
    from the input)."""
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        before = {k: type(v).__name__ for k, v in m.nn.LazyLinear(3).state_dict().items()}
        src = m.nn.Linear(4, 3)
        lazy = m.nn.LazyLinear(3)
        msg = str(lazy.load_state_dict(src.state_dict()))
        loaded = (type(lazy).__name__, tuple(lazy.weight.shape), type(lazy.weight).__name__)
        y = lazy(m.ones(2, 4))
        bn = m.nn.LazyBatchNorm1d()
        bn.load_state_dict(m.nn.BatchNorm1d(5).state_dict())
        res.append((before, msg, loaded, repr(lazy), _np(y), tuple(bn.running_mean.shape),
                    type(bn(m.ones(2, 5))).__name__, type(bn).__name__))
    assert res[0][:4] == res[1][:4] and res[0][5:] == res[1][5:]
    np.testing.assert_array_equal(res[0][4], res[1][4])
