"""nn.utils against torch: clip_grad_norm_ (norm types, error_if_nonfinite),
clip_grad_value_, parameters_to_vector/vector_to_parameters, rnn.pad_sequence."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")


def _model_with_grads(m):
    m.manual_seed(0)
    net = m.nn.Sequential(m.nn.Linear(4, 6), m.nn.Tanh(), m.nn.Linear(6, 2))
    net(m.ones(3, 4) * 2).pow(2).sum().backward()
    return net


@pytest.mark.parametrize("norm_type", [2.0, 1, float("inf"), 3.5])
@pytest.mark.parametrize("max_norm", [0.1, 100.0])
def test_clip_grad_norm(norm_type, max_norm):
    res = []
    for m in (autotensor, torch):
        net = _model_with_grads(m)
        total = m.nn.utils.clip_grad_norm_(net.parameters(), max_norm, norm_type)
        res.append((total.item(), [p.grad.numpy().copy() for p in net.parameters()]))
    assert res[0][0] == pytest.approx(res[1][0], rel=1e-5)
    for a, b in zip(res[0][1], res[1][1]):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=1e-6)


def test_clip_grad_norm_nonfinite_and_empty():
    for m in (autotensor, torch):
        p = m.nn.Parameter(m.ones(2))
        p.grad = m.tensor([float("inf"), 1.0])
        with pytest.raises(RuntimeError, match="is non-finite, so it cannot be clipped"):
            m.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
        assert m.nn.utils.clip_grad_norm_([m.nn.Parameter(m.ones(1))], 1.0).item() == 0.0


def test_clip_grad_value_and_vectors():
    res = []
    for m in (autotensor, torch):
        net = _model_with_grads(m)
        m.nn.utils.clip_grad_value_(net.parameters(), 0.5)
        vec = m.nn.utils.parameters_to_vector(net.parameters())
        m.nn.utils.vector_to_parameters(vec * 2, net.parameters())
        res.append(([p.grad.numpy().copy() for p in net.parameters()], vec.detach().numpy(),
                    [p.detach().numpy().copy() for p in net.parameters()]))
    for a, b in zip(res[0][0] + [res[0][1]] + res[0][2], res[1][0] + [res[1][1]] + res[1][2]):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("side", ["right", "left"])
def test_pad_sequence(batch_first, side):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((n, 3)).astype(np.float32) for n in (4, 2, 5)]
    res = []
    for m in (autotensor, torch):
        seqs = [m.tensor(a, requires_grad=True) for a in arrays]
        out = m.nn.utils.rnn.pad_sequence(seqs, batch_first, -1.0, side)
        (out * out).sum().backward()
        res.append((out.detach().numpy(), [s.grad.numpy() for s in seqs]))
    np.testing.assert_array_equal(res[0][0], res[1][0])
    for a, b in zip(res[0][1], res[1][1]):
        np.testing.assert_array_equal(a, b)


def test_get_total_norm_and_clip_grads_with_norm_match_torch():
    torch = pytest.importorskip("torch")
    res = []
    for m in (autotensor, torch):
        ps = [m.tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3) + i, requires_grad=True)
              for i in range(3)]
        for i, p in enumerate(ps):
            p.grad = m.tensor(np.full((2, 3), i + 1.0, np.float32))
        total = m.nn.utils.get_total_norm([p.grad for p in ps], 3.0)
        m.nn.utils.clip_grads_with_norm_(ps, 2.0, total)
        again = m.nn.utils.clip_grad_norm_(ps, 1.0)
        res.append([total.numpy(), again.numpy()] + [p.grad.numpy() for p in ps])
    for a, b in zip(*res):
        np.testing.assert_array_equal(a, b)


def _prune_run(m, steps):
    import importlib
    P = importlib.import_module(m.__name__ + ".nn.utils.prune")
    m.manual_seed(0)
    net = m.nn.Sequential(m.nn.Linear(6, 5), m.nn.ReLU(), m.nn.Conv1d(2, 4, 3))
    lin, conv = net[0], net[2]
    calls = {
        "l1": lambda: P.l1_unstructured(lin, "weight", amount=0.3),
        "rand": lambda: P.random_unstructured(lin, "bias", amount=2),
        "ln": lambda: P.ln_structured(conv, "weight", amount=0.5, n=2, dim=0),
        "rs": lambda: P.random_structured(conv, "weight", amount=1, dim=1),
        "l1again": lambda: P.l1_unstructured(lin, "weight", amount=0.2),
        "global": lambda: P.global_unstructured([(lin, "weight"), (conv, "weight")],
                                                pruning_method=P.L1Unstructured, amount=10),
        "custom": lambda: P.custom_from_mask(lin, "bias", mask=m.tensor([1., 0., 1., 1., 0.])),
        "identity": lambda: P.identity(conv, "bias"),
        "remove": lambda: P.remove(lin, "weight"),
    }
    for s in steps:
        calls[s]()
    y = lin(m.linspace(-1, 1, 12).reshape(2, 6))
    y.sum().backward()
    hooks = [type(h).__name__ for h in lin._forward_pre_hooks.values()]
    return ([(k, v.numpy().copy()) for k, v in lin.state_dict().items()],
            [(k, v.numpy().copy()) for k, v in conv.state_dict().items()], y.detach().numpy(),
            [(n, None if p.grad is None else p.grad.numpy().copy())
             for n, p in lin.named_parameters()],
            P.is_pruned(net), hooks, m.get_rng_state().numpy().tobytes())


@pytest.mark.parametrize("steps", [["l1"], ["l1", "rand"], ["ln"], ["rs"], ["l1", "l1again"],
                                   ["global"], ["custom", "l1"], ["identity", "ln", "rs"],
                                   ["l1", "remove"], ["l1", "rand", "remove"]])
def test_prune_matches_torch(steps):
    """Masks (the same random draws), state-dict keys (weight_orig, weight_mask), the pruned
    forward and gradients, hooks and containers, removal."""
    import importlib
    importlib.import_module("torch.nn.utils.prune")   # torch does not import it with nn.utils
    a, b = _prune_run(autotensor, steps), _prune_run(torch, steps)
    for part in (0, 1):
        assert [k for k, _ in a[part]] == [k for k, _ in b[part]]
        for (_, u), (_, v) in zip(a[part], b[part]):
            np.testing.assert_array_equal(u, v)
    np.testing.assert_allclose(a[2], b[2], rtol=1e-6, atol=1e-6)
    for (n, u), (k, v) in zip(a[3], b[3]):
        assert n == k and (u is None) == (v is None)
        if u is not None:
            np.testing.assert_allclose(u, v, rtol=1e-6, atol=1e-6)
    assert a[4:] == b[4:]


@pytest.mark.parametrize("call", [
    lambda P, m: P.l1_unstructured(m.nn.Linear(2, 2), "weight", amount=1.5),
    lambda P, m: P.l1_unstructured(m.nn.Linear(2, 2), "weight", amount=-1),
    lambda P, m: P.l1_unstructured(m.nn.Linear(2, 2), "weight", amount=5),
    lambda P, m: P.ln_structured(m.nn.Linear(2, 2), "bias", amount=1, n=2, dim=0),
    lambda P, m: P.remove(m.nn.Linear(2, 2), "weight"),
    lambda P, m: P.l1_unstructured(m.nn.Linear(2, 2), "weight", amount="a"),
])
def test_prune_errors_match_torch(call):
    import importlib
    res = []
    for m in (autotensor, torch):
        P = importlib.import_module(m.__name__ + ".nn.utils.prune")
        with pytest.raises(Exception) as info:
            call(P, m)
        res.append((type(info.value).__name__, str(info.value).split(" of module")[0]))
    assert res[0] == res[1]


@pytest.mark.parametrize("kind", ["conv", "convT", "linear", "conv-nobias"])
def test_fuse_bn_matches_torch(kind):
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        if kind == "linear":
            layer, bn, x = m.nn.Linear(4, 3), m.nn.BatchNorm1d(3), m.randn(5, 4)
        elif kind == "convT":
            layer, bn, x = m.nn.ConvTranspose2d(2, 3, 2), m.nn.BatchNorm2d(3), m.randn(1, 2, 3, 3)
        else:
            layer = m.nn.Conv2d(2, 3, 2, bias=kind == "conv")
            bn, x = m.nn.BatchNorm2d(3), m.randn(1, 2, 4, 4)
        bn.train()
        bn(layer(m.randn(*x.shape)))                 # running statistics away from (0, 1)
        layer.eval()
        bn.eval()
        fused = m.nn.utils.fuse_linear_bn_eval(layer, bn) if kind == "linear" else \
            m.nn.utils.fuse_conv_bn_eval(layer, bn, transpose=kind == "convT")
        res.append((fused(x).detach().numpy(), bn(layer(x)).detach().numpy(), repr(fused),
                    type(fused.weight).__name__))
    np.testing.assert_allclose(res[0][0], res[1][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(res[0][0], res[0][1], rtol=1e-5, atol=1e-5)
    assert res[0][2:] == res[1][2:]


def test_skip_init_draws_nothing():
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        lin = m.nn.utils.skip_init(m.nn.Linear, 4, 3)
        with pytest.raises(RuntimeError) as info:
            m.nn.utils.skip_init(m.nn.Identity)
        res.append((repr(lin), tuple(lin.weight.shape), m.get_rng_state().numpy().tobytes(),
                    str(info.value)))
    assert res[0] == res[1]
