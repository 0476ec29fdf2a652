"""optim.swa_utils vs torch: AveragedModel (SWA, buffers, EMA by avg_fn / multi_avg_fn),
SWALR's learning rates, update_bn's recomputed statistics, the averaged model's output."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")


def _run(m, kw, strategy):
    """In float64: five SGD steps at lr 0.5 through batch norm amplify float32 rounding
    (BLAS's, which differs between CPUs) past any tolerance that would still test much."""
    prev = m.get_default_dtype()
    m.set_default_dtype(m.float64)
    try:
        return _run64(m, kw, strategy)
    finally:
        m.set_default_dtype(prev)


def _run64(m, kw, strategy):
    m.manual_seed(0)
    model = m.nn.Sequential(m.nn.Linear(3, 4), m.nn.BatchNorm1d(4), m.nn.Linear(4, 1))
    swa = m.optim.swa_utils.AveragedModel(model, **kw)
    opt = m.optim.SGD(model.parameters(), lr=0.5)
    sched = m.optim.swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=3,
                                    anneal_strategy=strategy)
    x = m.tensor(np.linspace(-1, 1, 24).reshape(8, 3))
    lrs = []
    for _ in range(5):
        loss = (model(x) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        swa.update_parameters(model)
        lrs.append(sched.get_last_lr()[0])
    loader = m.utils.data.DataLoader(m.utils.data.TensorDataset(x), batch_size=4)
    m.optim.swa_utils.update_bn(loader, swa)
    state = swa.state_dict()
    return lrs, list(state), [v.detach().numpy().copy() for v in state.values()], \
        swa(x).detach().numpy()


@pytest.mark.parametrize("kw,strategy", [({}, "cos"), ({"use_buffers": True}, "linear"),
                                         ({"multi_avg_fn": "ema"}, "cos"),
                                         ({"avg_fn": "ema"}, "linear")])
def test_swa_matches_torch(kw, strategy):
    out = []
    for m in (autotensor, torch):
        k = dict(kw)
        if k.get("multi_avg_fn"):
            k["multi_avg_fn"] = m.optim.swa_utils.get_ema_multi_avg_fn(0.9)
        if k.get("avg_fn"):
            k["avg_fn"] = m.optim.swa_utils.get_ema_avg_fn(0.9)
        out.append(_run(m, k, strategy))
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-12)
    assert out[0][1] == out[1][1]
    for a, b in zip(out[0][2], out[1][2]):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(out[0][3], out[1][3], rtol=1e-10, atol=1e-12)


def test_swalr_errors_match_torch():
    for bad in (dict(anneal_strategy="exp"), dict(anneal_epochs=-1)):
        msgs = []
        for m in (autotensor, torch):
            opt = m.optim.SGD([m.zeros(1, requires_grad=True)], lr=0.1)
            with pytest.raises(ValueError) as info:
                m.optim.swa_utils.SWALR(opt, 0.01, **bad)
            msgs.append(str(info.value))
        assert msgs[0] == msgs[1]
