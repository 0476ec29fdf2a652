"""RNN/LSTM/GRU and cells against torch: bit-equal weights after the same seed, repr,
outputs, final states and gradients (all options: layers, bidirectional, batch_first,
proj_size, initial states, unbatched input, dropout between layers)."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")
RNG = np.random.default_rng(3)

CASES = [
    ("RNN", lambda m: m.nn.RNN(4, 5), (6, 3, 4), False),
    ("RNN-relu-2l", lambda m: m.nn.RNN(4, 5, 2, nonlinearity="relu"), (6, 3, 4), True),
    ("RNN-bi-bf", lambda m: m.nn.RNN(4, 5, batch_first=True, bidirectional=True),
     (3, 6, 4), False),
    ("LSTM", lambda m: m.nn.LSTM(4, 5), (6, 3, 4), True),
    ("LSTM-2l-bi", lambda m: m.nn.LSTM(4, 5, num_layers=2, bidirectional=True), (5, 2, 4),
     True),
    ("LSTM-proj", lambda m: m.nn.LSTM(4, 6, proj_size=3, num_layers=2), (5, 2, 4), True),
    ("LSTM-nobias-unbatched", lambda m: m.nn.LSTM(4, 5, bias=False), (6, 4), False),
    ("LSTM-dropout", lambda m: m.nn.LSTM(4, 5, num_layers=3, dropout=0.4), (5, 2, 4), False),
    ("GRU", lambda m: m.nn.GRU(4, 5, 2, batch_first=True), (3, 6, 4), True),
    ("GRU-bi", lambda m: m.nn.GRU(4, 5, bidirectional=True), (6, 2, 4), False),
]


def _flat(out):
    if isinstance(out, tuple):
        return [t for o in out for t in _flat(o)]
    return [out]


def _run(m, ctor, shape, with_state):
    m.manual_seed(0)
    mod = ctor(m)
    rng = np.random.default_rng(11)            # the same arrays for both libraries
    x = m.tensor(rng.standard_normal(shape).astype(np.float32)).requires_grad_(True)
    args = [x]
    if with_state:
        batch = () if len(shape) == 2 else (shape[0] if mod.batch_first else shape[1],)
        lead = (mod.num_layers * (2 if mod.bidirectional else 1),) + batch
        h = m.tensor(rng.standard_normal(lead + (mod.proj_size or mod.hidden_size,))
                     .astype(np.float32)).requires_grad_(True)
        if type(mod).__name__ == "LSTM":
            c = m.tensor(rng.standard_normal(lead + (mod.hidden_size,)).astype(np.float32))
            args.append((h, c.requires_grad_(True)))
        else:
            args.append(h)
    m.manual_seed(1)
    outs = _flat(mod(*args))
    total = sum((o * m.tensor(G[i][:o.numel()].reshape(tuple(o.shape)))).sum()
                for i, o in enumerate(outs))
    total.backward()
    return mod, outs, x.grad


G = [RNG.standard_normal(400).astype(np.float32) for _ in range(3)]


@pytest.mark.parametrize("name,ctor,shape,with_state", CASES, ids=[c[0] for c in CASES])
def test_rnn_matches_torch(name, ctor, shape, with_state):
    ma, outs_a, gx_a = _run(autotensor, ctor, shape, with_state)
    mt, outs_t, gx_t = _run(torch, ctor, shape, with_state)
    assert repr(ma) == repr(mt)
    assert [n for n, _ in ma.named_parameters()] == [n for n, _ in mt.named_parameters()]
    for (k, p), (_, q) in zip(ma.named_parameters(), mt.named_parameters()):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-4, atol=1e-5,
                                   err_msg=k)
    for a, b in zip(outs_a, outs_t):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5,
                                   atol=1e-6)
    np.testing.assert_allclose(gx_a.numpy(), gx_t.numpy(), rtol=1e-4, atol=1e-5)


def test_rnn_weights_bit_equal():
    for ctor in (lambda m: m.nn.LSTM(3, 7, 2, bidirectional=True, proj_size=2),
                 lambda m: m.nn.GRU(3, 4), lambda m: m.nn.RNNCell(3, 4, nonlinearity="relu"),
                 lambda m: m.nn.LSTMCell(3, 4, bias=False), lambda m: m.nn.GRUCell(3, 4)):
        sds = []
        for m in (autotensor, torch):
            m.manual_seed(0)
            mod = ctor(m)
            sds.append((repr(mod), {k: v.numpy() for k, v in mod.state_dict().items()}))
        assert sds[0][0] == sds[1][0]
        assert list(sds[0][1]) == list(sds[1][1])
        for k in sds[1][1]:
            np.testing.assert_array_equal(sds[0][1][k], sds[1][1][k])


@pytest.mark.parametrize("cell", ["RNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("batched", [True, False])
def test_cells_match_torch(cell, batched):
    x = RNG.standard_normal((3, 4) if batched else (4,)).astype(np.float32)
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        mod = getattr(m.nn, cell)(4, 5)
        xt = m.tensor(x, requires_grad=True)
        out = mod(xt)
        outs = list(out) if isinstance(out, tuple) else [out]
        sum(o.sum() * (i + 1) for i, o in enumerate(outs)).backward()
        res.append(([o.detach().numpy() for o in outs], xt.grad.numpy(),
                    [p.grad.numpy() for p in mod.parameters()]))
    for a, b in zip(res[0][0] + [res[0][1]] + res[0][2], res[1][0] + [res[1][1]] + res[1][2]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("cls,kw", [("LSTM", dict(num_layers=2, bidirectional=True)),
                                    ("GRU", dict(batch_first=True)), ("RNN", {}),
                                    ("LSTM", dict(proj_size=2))])
@pytest.mark.parametrize("with_h", [False, True])
def test_packed_sequence_through_rnn_matches_torch(cls, kw, with_h):
    """pack_padded_sequence (unsorted lengths) -> RNN -> pad_packed_sequence: the packed
    data, batch sizes, permutations, outputs, final states and every gradient as torch."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    x = rng.standard_normal((5, 4, 3)).astype(np.float32)
    lens = [3, 5, 2, 4]
    bf = kw.get("batch_first", False)
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        rnn = getattr(m.nn, cls)(3, 4, **kw)
        xx = m.tensor(x, requires_grad=True)
        p = m.nn.utils.rnn.pack_padded_sequence(xx.transpose(0, 1) if bf else xx,
                                                m.tensor(lens), batch_first=bf,
                                                enforce_sorted=False)
        h = None
        if with_h:
            n = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
            hs = m.tensor(np.arange(n * 4 * (kw.get("proj_size") or 4)).reshape(
                n, 4, -1).astype(np.float32) / 50)
            h = (hs, m.full((n, 4, 4), 0.1)) if cls == "LSTM" else hs
        out, hn = rnn(p, h)
        pad, lengths = m.nn.utils.rnn.pad_packed_sequence(out, batch_first=bf)
        h0 = hn[0] if cls == "LSTM" else hn
        (pad.sum() + (h0 * h0).sum()).backward()
        res.append([p.data.detach().numpy(), p.batch_sizes.numpy(), p.sorted_indices.numpy(),
                    p.unsorted_indices.numpy(), out.data.detach().numpy(),
                    pad.detach().numpy(), lengths.numpy(), h0.detach().numpy(),
                    xx.grad.numpy()] + [q.grad.numpy() for q in rnn.parameters()])
    for a, b in zip(*res):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_pack_sequence_helpers_match_torch():
    torch = pytest.importorskip("torch")
    seqs = [np.arange(n * 2, dtype=np.float32).reshape(n, 2) + n for n in (4, 2, 3)]
    res = []
    for m in (autotensor, torch):
        ts = [m.tensor(s) for s in seqs]
        packed = m.nn.utils.rnn.pack_sequence(ts, enforce_sorted=False)
        back = m.nn.utils.rnn.unpack_sequence(packed)
        padded, lengths = m.nn.utils.rnn.pad_packed_sequence(packed, total_length=6,
                                                             padding_value=-1.0)
        res.append([packed.data.numpy(), packed.batch_sizes.numpy(), padded.numpy(),
                    lengths.numpy()] + [b.numpy() for b in back])
        with pytest.raises(RuntimeError) as info:
            m.nn.utils.rnn.pack_sequence(ts)
        res[-1].append(str(info.value))
    for a, b in zip(res[0][:-1], res[1][:-1]):
        np.testing.assert_array_equal(a, b)
    assert res[0][-1] == res[1][-1]


@pytest.mark.parametrize("kw", [{}, dict(num_layers=2), dict(bidirectional=True),
                                dict(batch_first=True), dict(bias=False)])
def test_lstm_float32_graph_as_torch(kw):
    """float32 LSTM without projections: one MkldnnRnnLayerBackward0 node per layer and
    direction, with torch's inputs (Note [LSTM layer entry])."""
    def names(fn_):
        return (fn_.name(), [n.name() if n else None for n, _ in fn_.next_functions])
    res = []
    for m in (autotensor, torch):
        lstm = m.nn.LSTM(3, 4, **kw)
        x = m.tensor(np.ones((5, 2, 3), np.float32), requires_grad=True)
        y, (h, c) = lstm(x)
        res.append((names(y.grad_fn), h.grad_fn.name(), c.grad_fn.name(),
                    names(h.grad_fn.next_functions[0][0])))
    assert res[0] == res[1]


@pytest.mark.parametrize("reverse", [False, True])
def test_lstm_layer_entry_gradcheck(reverse):
    """The fused layer's backward (BPTT in differentiable ops) to second order, float64."""
    from autotensor._ops.nn_ops import lstm_layer
    rng = np.random.default_rng(0)
    args = [autotensor.tensor(rng.standard_normal(s), requires_grad=True)
            for s in [(4, 2, 3), (12, 3), (12, 3), (12,), (12,), (2, 3), (2, 3)]]
    f = lambda *a: lstm_layer(*a, reverse)   # noqa: E731
    assert autotensor.autograd.gradcheck(f, args)
    assert autotensor.autograd.gradgradcheck(f, args)


def _lstm_workspace_run(m, x, h0, c0, g):
    m.manual_seed(0)
    lstm = m.nn.LSTM(6, 8, num_layers=2, bidirectional=True)
    xs = [m.tensor(a, requires_grad=True) for a in (x, h0, c0)]
    y, (h, c) = lstm(xs[0], (xs[1], xs[2]))
    loss = (y * m.tensor(g)).sum() + (h * h).sum() + c.sum()
    loss.backward(retain_graph=True)
    loss.backward()                     # the saved workspace is read, never consumed
    with m.no_grad():
        y2, _ = lstm(xs[0], (xs[1], xs[2]))
    return ([t.grad.numpy() for t in xs] + [p.grad.numpy() for p in lstm.parameters()],
            y.detach().numpy(), y2.numpy())


def test_lstm_workspace_backward_as_torch():
    """The layer entry's backward runs from the forward's saved workspace (Note [LSTM
    workspace]): gradients of the input, both initial states and every weight as torch's,
    with the loss on output, h_n and c_n, twice over a retained graph; the no-grad forward
    (no workspace) gives the same output."""
    rng = np.random.default_rng(5)
    x, h0, c0 = (rng.standard_normal(s).astype(np.float32)
                 for s in [(7, 3, 6), (4, 3, 8), (4, 3, 8)])
    g = rng.standard_normal((7, 3, 16)).astype(np.float32)
    ga, ya, ya2 = _lstm_workspace_run(autotensor, x, h0, c0, g)
    gt, yt, _ = _lstm_workspace_run(torch, x, h0, c0, g)
    np.testing.assert_array_equal(ya, ya2)
    np.testing.assert_allclose(ya, yt, rtol=1e-5, atol=1e-6)
    for a, b in zip(ga, gt):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_lstm_output_modified_in_place_raises_as_torch():
    """The node saves its output (PyTorch's result0): changing it in place before the
    backward is an error, in torch's words."""
    msgs = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        y, _ = m.nn.LSTM(4, 5)(m.ones(3, 2, 4, requires_grad=True))
        y.mul_(2)
        with pytest.raises(RuntimeError) as e:
            y.sum().backward()
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]
    assert "output 0 of MkldnnRnnLayer" in msgs[0]


def _chain(t, depth):
    out, fns = [], [t.grad_fn]
    for _ in range(depth):
        out.append(sorted({type(f).__name__ for f in fns if f is not None}))
        fns = [n for f in fns if f is not None for n, _ in f.next_functions]
    return out


@pytest.mark.parametrize("cls", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("kw", [dict(num_layers=3, dropout=0.4), dict(bidirectional=True),
                                dict(batch_first=True, num_layers=2, dropout=0.3,
                                     bidirectional=True), dict(proj_size=2)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_packed_rnn_graph_and_dropout_stream_as_torch(cls, kw, dtype):
    """A packed sequence runs as aten's PackedLayer (pack: PackPaddedSequenceBackward0, the
    output: cat of the steps, pad: CopySlices), and the inter-layer dropout draws its masks
    on the packed data: the same masks, outputs, states, gradients and generator state."""
    torch = pytest.importorskip("torch")
    if "proj_size" in kw and cls != "LSTM":
        return
    rng = np.random.default_rng(8)
    x = rng.standard_normal((6, 4, 3)).astype(dtype)
    bf = kw.get("batch_first", False)
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        rnn = getattr(m.nn, cls)(3, 5, **kw).to(getattr(m, dtype))
        xx = m.tensor(x, requires_grad=True)
        p = m.nn.utils.rnn.pack_padded_sequence(xx.transpose(0, 1) if bf else xx,
                                                m.tensor([6, 4, 4, 1]), batch_first=bf)
        out, hn = rnn(p)
        pad, _ = m.nn.utils.rnn.pad_packed_sequence(out, batch_first=bf, total_length=7)
        h0 = hn[0] if cls == "LSTM" else hn
        w = m.tensor(np.cos(np.arange(pad.numel())).reshape(tuple(pad.shape)).astype(dtype))
        ((pad * w).sum() + (h0 * h0).sum()).backward()
        res.append([_chain(out.data, 5), _chain(pad, 3), _chain(h0, 3), _chain(p.data, 2),
                    m.get_rng_state().numpy().tobytes(), pad.detach().numpy(),
                    h0.detach().numpy(), xx.grad.numpy()] +
                   [q.grad.numpy() for q in rnn.parameters()])
    assert res[0][:5] == res[1][:5]
    tol = 1e-12 if dtype == "float64" else 2e-5
    for a, b in zip(res[0][5:], res[1][5:]):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("side", ["right", "left"])
def test_pad_sequence_graph_as_torch(batch_first, side):
    torch = pytest.importorskip("torch")
    res = []
    for m in (autotensor, torch):
        seqs = [m.tensor(np.arange(6.).reshape(3, 2), requires_grad=True),
                m.tensor(np.ones((1, 2)), requires_grad=True),
                m.tensor(np.ones((2, 2)), requires_grad=True)]
        o = m.nn.utils.rnn.pad_sequence(seqs, batch_first=batch_first, padding_value=-1.5,
                                        padding_side=side)
        (o * m.tensor(np.cos(np.arange(o.numel())).reshape(tuple(o.shape)))).sum().backward()
        res.append([_chain(o, 3), o.detach().numpy()] + [s.grad.numpy() for s in seqs])
    assert res[0][0] == res[1][0]
    for a, b in zip(res[0][1:], res[1][1:]):
        np.testing.assert_array_equal(a, b)
