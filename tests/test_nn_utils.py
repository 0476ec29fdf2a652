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
