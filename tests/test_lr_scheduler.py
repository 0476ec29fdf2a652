"""Learning-rate schedulers vs PyTorch: lr (and momentum) sequences, get_last_lr,
state_dict round trips, warnings."""
import math
import warnings

import pytest

import autotensor as at

torch = pytest.importorskip("torch")


def _lambda(e):
    return 0.95 ** e


def _mult(e):
    return 0.9


SCHEDULERS = [
    ("LambdaLR", lambda L, o: L.LambdaLR(o, lr_lambda=_lambda)),
    ("LambdaLR-list", lambda L, o: L.LambdaLR(o, lr_lambda=[_lambda, lambda e: 1 / (e + 1)])),
    ("MultiplicativeLR", lambda L, o: L.MultiplicativeLR(o, lr_lambda=_mult)),
    ("StepLR", lambda L, o: L.StepLR(o, step_size=3, gamma=0.5)),
    ("MultiStepLR", lambda L, o: L.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3)),
    ("ConstantLR", lambda L, o: L.ConstantLR(o, factor=0.25, total_iters=4)),
    ("LinearLR", lambda L, o: L.LinearLR(o, start_factor=0.1, end_factor=0.9, total_iters=7)),
    ("ExponentialLR", lambda L, o: L.ExponentialLR(o, gamma=0.87)),
    ("PolynomialLR", lambda L, o: L.PolynomialLR(o, total_iters=8, power=2.0)),
    ("CosineAnnealingLR", lambda L, o: L.CosineAnnealingLR(o, T_max=6, eta_min=0.001)),
    ("CosineAnnealingWarmRestarts",
     lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)),
    ("CyclicLR", lambda L, o: L.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3)),
    ("CyclicLR-tri2", lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2, step_size_down=3,
                                              mode="triangular2")),
    ("CyclicLR-exp", lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="exp_range",
                                             gamma=0.9, cycle_momentum=False)),
    ("OneCycleLR", lambda L, o: L.OneCycleLR(o, max_lr=0.5, total_steps=25)),
    ("OneCycleLR-3", lambda L, o: L.OneCycleLR(o, max_lr=[0.5, 0.2], epochs=5,
                                               steps_per_epoch=5, anneal_strategy="linear",
                                               three_phase=True)),
    ("SequentialLR", lambda L, o: L.SequentialLR(
        o, [L.LinearLR(o, start_factor=0.1, total_iters=3), L.ExponentialLR(o, gamma=0.9)],
        milestones=[4])),
    ("ChainedScheduler", lambda L, o: L.ChainedScheduler(
        [L.ConstantLR(o, factor=0.1, total_iters=3), L.ExponentialLR(o, gamma=0.9)])),
]


def _opt(lib, momentum=True):
    p1 = lib.zeros(2, requires_grad=True)
    p2 = lib.zeros(3, requires_grad=True)
    return lib.optim.SGD([{"params": [p1]}, {"params": [p2], "lr": 0.05}], lr=0.1,
                         momentum=0.9 if momentum else 0)


def _sequence(lib, make, steps=25):
    opt = _opt(lib)
    sched = make(lib.optim.lr_scheduler, opt)
    out = [(sched.get_last_lr(), [g["lr"] for g in opt.param_groups],
            [g.get("momentum") for g in opt.param_groups])]
    for _ in range(steps):
        opt.step()
        sched.step()
        out.append((sched.get_last_lr(), [g["lr"] for g in opt.param_groups],
                    [g.get("momentum") for g in opt.param_groups]))
    return out, sched


@pytest.mark.parametrize("name,make", SCHEDULERS, ids=[n for n, _ in SCHEDULERS])
def test_sequence_matches_torch(name, make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, sa = _sequence(at, make)
        theirs, st = _sequence(torch, make)
    assert ours == theirs  # bit for bit: the same Python float arithmetic
    assert type(sa).__name__ == type(st).__name__


@pytest.mark.parametrize("name,make", [s for s in SCHEDULERS if "Chained" not in s[0]
                                       and "Sequential" not in s[0] and "Lambda" not in s[0]
                                       and "Multiplicative" not in s[0]])
def test_state_dict_round_trip(name, make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, sa = _sequence(at, make, steps=7)
        _, st = _sequence(torch, make, steps=7)
    sda, sdt = sa.state_dict(), st.state_dict()
    assert sorted(sda) == sorted(sdt)
    for k in sdt:
        if not callable(sdt[k]):
            assert sda[k] == sdt[k], k
    opt = _opt(at)
    fresh = make(at.optim.lr_scheduler, opt)
    fresh.load_state_dict(sda)
    assert fresh.last_epoch == sa.last_epoch and fresh.get_last_lr() == sa.get_last_lr()


def test_reduce_lr_on_plateau_matches_torch():
    metrics = [1.0, 0.9, 0.91, 0.92, 0.93, 0.89, 0.895, 0.9, 0.9, 0.9, 0.9, 0.5, 0.6, 0.7,
               0.8, 0.9, 1.0, 1.1]
    res = {}
    for lib in (at, torch):
        for kw in (dict(patience=2, factor=0.5),
                   dict(mode="max", patience=1, threshold_mode="abs", threshold=0.05,
                        cooldown=2, min_lr=[0.02, 0.001])):
            opt = _opt(lib)
            s = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **kw)
            seq = []
            for m in metrics:
                opt.step()
                s.step(m)
                seq.append((s.get_last_lr(), s.num_bad_epochs, s.best, s.cooldown_counter))
            res.setdefault(lib.__name__, []).append(seq)
    assert res["autotensor"] == res["torch"]


def test_warning_when_scheduler_steps_before_optimizer():
    opt = _opt(at)
    s = at.optim.lr_scheduler.StepLR(opt, 2)
    with pytest.warns(UserWarning, match="Detected call of `lr_scheduler.step\\(\\)` before"):
        s.step()


def test_step_with_epoch_uses_closed_form():
    res = []
    for lib in (at, torch):
        opt = _opt(lib)
        s = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            opt.step()
            s.step(7)
        res.append(s.get_last_lr())
    assert res[0] == res[1]
    assert math.isclose(res[0][0], 0.1 * (1 + math.cos(math.pi * 7 / 10)) / 2)
