"""Stop 27, helper nn27: nn.functional's argument validation against PyTorch 2.13.

PyTorch's nn.functional is Python code calling C++ ops whose argument parser and checks
raise in a defined order; autotensor/nn/functional.py follows the same path. A sweep of
every loss and the functionals (non-tensor arguments in each position, 0-d / 1-d /
mismatched shapes, wrong dtypes, out-of-range values, each reduction) compares the error
(type and message) or the value, dtype, warnings and gradients with torch's."""

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402


def cases():
    """(name, fname, builder(torch)->(args, kwargs)) list."""
    out = []

    def T(torch, a, dt="float64", rg=False):
        t = torch.tensor(np.asarray(a).tolist(), dtype=getattr(torch, dt))
        if rg:
            t.requires_grad_(True)
        return t

    # each loss's positional tensors by kind: f float input (requires grad), t float target,
    # c class target, p probability, s +-1 target, v variance, w prelu weight
    base = {
        "mse_loss": "ft",
        "l1_loss": "ft",
        "smooth_l1_loss": "ft",
        "huber_loss": "ft",
        "soft_margin_loss": "fs",
        "kl_div": "ft",
        "poisson_nll_loss": "ft",
        "binary_cross_entropy": "pp",
        "binary_cross_entropy_with_logits": "fp",
        "hinge_embedding_loss": "fs",
        "multilabel_soft_margin_loss": "fp",
        "gaussian_nll_loss": "ftv",
        "margin_ranking_loss": "ffs",
        "cosine_embedding_loss": "ffs",
        "triplet_margin_loss": "fff",
        "cross_entropy": "fc",
        "nll_loss": "fc",
        "multi_margin_loss": "fc",
        "multilabel_margin_loss": "fc",
        "cosine_similarity": "ff",
        "pairwise_distance": "ff",
        "prelu": "fw",
    }

    def mk(torch, kind, shape, dt="float64"):
        n = int(np.prod(shape))
        if kind == "c":
            a = (np.arange(n) % 3).reshape(shape)
            return T(torch, a, "int64")
        if kind == "s":
            a = np.where(np.arange(n) % 2, 1.0, -1.0).reshape(shape)
            return T(torch, a, dt)
        if kind == "p":
            a = (np.arange(n) % 7 + 1).reshape(shape) / 9.0
            return T(torch, a, dt, rg=True)
        if kind == "w":
            return T(torch, np.full(shape, 0.25), dt, rg=True)
        if kind == "v":
            return T(torch, np.full(shape, 0.5) + np.arange(n).reshape(shape) / 10, dt, rg=True)
        a = (np.sin(np.arange(n) * 1.3 + (kind == "t")) * 1.7).reshape(shape)
        return T(torch, a, dt, rg=(kind == "f"))

    def shape_for(f, kind, i, full):
        # class targets drop the class dim
        if kind == "c":
            if f == "multilabel_margin_loss":
                return full
            return full[:1] + full[2:] if len(full) >= 2 else ()
        if kind == "w":
            return (full[1],) if len(full) >= 2 else (1,)
        return full

    for f, kinds in base.items():

        def builder(full, f=f, kinds=kinds, sub=None, kw=None, dts=None):
            def b(torch):
                args = []
                for i, k in enumerate(kinds):
                    if sub and i in sub:
                        s = sub[i]
                        args.append(s(torch) if callable(s) else s)
                    else:
                        dt = (dts or {}).get(i, "float64")
                        kk = k
                        if dt.startswith("int") and k != "c":
                            args.append(T(torch, np.ones(shape_for(f, k, i, full)), dt))
                            continue
                        if dt == "float64" and k == "c" and dts and i in dts:
                            args.append(T(torch, np.zeros(shape_for(f, k, i, full)), "float64"))
                            continue
                        if dt == "float32" and k != "c":
                            args.append(mk(torch, kk, shape_for(f, k, i, full), "float32"))
                            continue
                        args.append(mk(torch, kk, shape_for(f, k, i, full)))
                return args, dict(kw or {})

            return b

        out.append((f"{f} base", f, builder((3, 4))))
        out.append((f"{f} 1d", f, builder((4,))))
        out.append((f"{f} 0d", f, builder(())))
        out.append((f"{f} 3d", f, builder((2, 3, 2))))
        out.append((f"{f} f32", f, builder((3, 4), dts={i: "float32" for i in range(len(kinds))})))
        for i in range(len(kinds)):
            for v in (1, 2.5, None):
                out.append((f"{f} arg{i}={v!r}", f, builder((3, 4), sub={i: v})))
            for shp in ((), (4,), (2,), (1, 4), (3, 1), (2, 3, 4)):

                def sh(torch, i=i, shp=shp, f=f, kinds=kinds):
                    return mk(
                        torch,
                        kinds[i],
                        shape_for(f, kinds[i], i, shp)
                        if kinds[i] in "cw" and len(shp) >= 2
                        else shp,
                    )

                out.append((f"{f} arg{i} shape{shp}", f, builder((3, 4), sub={i: sh})))
            for dt in ("int64", "float32", "float64", "bool"):
                if dt == "float64" and kinds[i] != "c":
                    continue

                def sd(torch, i=i, dt=dt, f=f, kinds=kinds):
                    shp = shape_for(f, kinds[i], i, (3, 4))
                    a = mk(torch, kinds[i], shp).detach()
                    return a.to(getattr(torch, dt))

                out.append((f"{f} arg{i} {dt}", f, builder((3, 4), sub={i: sd})))
        for red in ("none", "sum", "mean", "bogus", "batchmean"):
            if f in ("cosine_similarity", "pairwise_distance", "prelu"):
                break
            out.append((f"{f} red={red}", f, builder((3, 4), kw={"reduction": red})))
        out.append((f"{f} legacy", f, builder((3, 4), kw={"size_average": False}))) if f not in (
            "cosine_similarity",
            "pairwise_distance",
            "prelu",
            "huber_loss",
            "gaussian_nll_loss",
        ) else None
    # out-of-range values
    out.append(
        (
            "bce >1",
            "binary_cross_entropy",
            lambda t: (
                [
                    t.tensor([0.5, 1.5], dtype=t.float64, requires_grad=True),
                    t.tensor([0.5, 0.5], dtype=t.float64),
                ],
                {},
            ),
        )
    )
    out.append(
        ("bce 0d >1", "binary_cross_entropy", lambda t: ([t.tensor(1.5), t.tensor(1.5)], {}))
    )
    out.append(
        (
            "bce <0",
            "binary_cross_entropy",
            lambda t: (
                [t.tensor([-0.5, 0.5], dtype=t.float64), t.tensor([0.5, 0.5], dtype=t.float64)],
                {},
            ),
        )
    )
    out.append(
        (
            "bce target>1",
            "binary_cross_entropy",
            lambda t: (
                [
                    t.tensor([0.5, 0.5], dtype=t.float64, requires_grad=True),
                    t.tensor([2.0, 0.5], dtype=t.float64),
                ],
                {},
            ),
        )
    )
    out.append(
        (
            "bce 0/1",
            "binary_cross_entropy",
            lambda t: (
                [
                    t.tensor([0.0, 1.0], dtype=t.float64, requires_grad=True),
                    t.tensor([1.0, 0.0], dtype=t.float64),
                ],
                {},
            ),
        )
    )
    for f in ("cross_entropy", "nll_loss", "multi_margin_loss"):
        out.append(
            (
                f"{f} tgt oob",
                f,
                lambda t: (
                    [t.zeros(2, 3, dtype=t.float64, requires_grad=True), t.tensor([0, 3])],
                    {},
                ),
            )
        )
        out.append(
            (
                f"{f} tgt neg",
                f,
                lambda t: (
                    [t.zeros(2, 3, dtype=t.float64, requires_grad=True), t.tensor([0, -2])],
                    {},
                ),
            )
        )
        out.append(
            (
                f"{f} tgt ignore",
                f,
                lambda t: (
                    [t.zeros(2, 3, dtype=t.float64, requires_grad=True), t.tensor([0, -100])],
                    {},
                ),
            )
        )
        out.append(
            (
                f"{f} 1d tgt 0d",
                f,
                lambda t: ([t.arange(3.0, dtype=t.float64, requires_grad=True), t.tensor(1)], {}),
            )
        )
        out.append(
            (
                f"{f} 1d tgt 1d",
                f,
                lambda t: ([t.arange(3.0, dtype=t.float64, requires_grad=True), t.tensor([1])], {}),
            )
        )
        out.append(
            (
                f"{f} uint8 tgt",
                f,
                lambda t: (
                    [
                        t.zeros(2, 3, dtype=t.float64, requires_grad=True),
                        t.tensor([0, 1], dtype=t.uint8),
                    ],
                    {},
                ),
            )
        )
        out.append(
            (
                f"{f} int32 tgt",
                f,
                lambda t: (
                    [
                        t.zeros(2, 3, dtype=t.float64, requires_grad=True),
                        t.tensor([0, 1], dtype=t.int32),
                    ],
                    {},
                ),
            )
        )
        out.append(
            (
                f"{f} weight bad",
                f,
                lambda t: (
                    [t.zeros(2, 3, dtype=t.float64, requires_grad=True), t.tensor([0, 1])],
                    {"weight": t.ones(2, dtype=t.float64)},
                ),
            )
        )
        out.append(
            (
                f"{f} weight num",
                f,
                lambda t: (
                    [t.zeros(2, 3, dtype=t.float64, requires_grad=True), t.tensor([0, 1])],
                    {"weight": 2.0},
                ),
            )
        )
        out.append(
            (f"{f} input int", f, lambda t: ([t.zeros(2, 3, dtype=t.int64), t.tensor([0, 1])], {}))
        )
    out.append(
        (
            "ce probs",
            "cross_entropy",
            lambda t: (
                [
                    t.zeros(2, 3, dtype=t.float64, requires_grad=True),
                    t.full((2, 3), 1 / 3, dtype=t.float64),
                ],
                {},
            ),
        )
    )
    out.append(
        (
            "ce probs f32",
            "cross_entropy",
            lambda t: (
                [t.zeros(2, 3, dtype=t.float64, requires_grad=True), t.full((2, 3), 1 / 3)],
                {},
            ),
        )
    )
    out.append(
        (
            "ce ls bad",
            "cross_entropy",
            lambda t: (
                [t.zeros(2, 3, dtype=t.float64), t.tensor([0, 1])],
                {"label_smoothing": 1.5},
            ),
        )
    )
    out.append(
        (
            "kl log_target",
            "kl_div",
            lambda t: (
                [
                    t.zeros(2, 3, dtype=t.float64, requires_grad=True),
                    t.zeros(2, 3, dtype=t.float64),
                ],
                {"log_target": True, "reduction": "batchmean"},
            ),
        )
    )
    out.append(
        (
            "gnll var float",
            "gaussian_nll_loss",
            lambda t: (
                [
                    t.zeros(2, 3, dtype=t.float64, requires_grad=True),
                    t.ones(2, 3, dtype=t.float64),
                    0.5,
                ],
                {},
            ),
        )
    )
    out.append(
        (
            "gnll var int",
            "gaussian_nll_loss",
            lambda t: (
                [
                    t.zeros(2, 3, dtype=t.float64, requires_grad=True),
                    t.ones(2, 3, dtype=t.float64),
                    1,
                ],
                {},
            ),
        )
    )
    out.append(
        (
            "gnll var neg",
            "gaussian_nll_loss",
            lambda t: (
                [
                    t.zeros(2, 3, dtype=t.float64, requires_grad=True),
                    t.ones(2, 3, dtype=t.float64),
                    -0.5,
                ],
                {},
            ),
        )
    )
    out.append(
        (
            "gnll var short",
            "gaussian_nll_loss",
            lambda t: (
                [
                    t.zeros(2, 3, dtype=t.float64, requires_grad=True),
                    t.ones(2, 3, dtype=t.float64),
                    t.ones(2, dtype=t.float64),
                ],
                {},
            ),
        )
    )
    out.append(
        (
            "gnll var bad",
            "gaussian_nll_loss",
            lambda t: (
                [
                    t.zeros(2, 3, dtype=t.float64, requires_grad=True),
                    t.ones(2, 3, dtype=t.float64),
                    t.ones(3, dtype=t.float64),
                ],
                {},
            ),
        )
    )
    # norms
    x = lambda t, s=(2, 3): (
        t.arange(float(np.prod(s)), dtype=t.float64).reshape(s).requires_grad_(True)
    )
    for nm, fl in [
        ("ln 0d", lambda t, F: F.layer_norm(t.tensor(1.5), ())),
        ("ln 0d [1]", lambda t, F: F.layer_norm(t.tensor(1.5), (1,))),
        ("ln ns=[]", lambda t, F: F.layer_norm(x(t), [], t.ones(2))),
        ("ln ns wrong", lambda t, F: F.layer_norm(x(t), [4])),
        ("ln w wrong", lambda t, F: F.layer_norm(x(t), [3], t.ones(2, dtype=t.float64))),
        ("ln w wrong ns wrong", lambda t, F: F.layer_norm(x(t), [4], t.ones(2, dtype=t.float64))),
        ("ln b wrong", lambda t, F: F.layer_norm(x(t), [3], None, t.ones(2, dtype=t.float64))),
        ("ln w num", lambda t, F: F.layer_norm(x(t), [3], 1.0)),
        ("ln x num", lambda t, F: F.layer_norm(1.0, [3])),
        ("ln ns int", lambda t, F: F.layer_norm(x(t), 3)),
        (
            "ln ok",
            lambda t, F: F.layer_norm(
                x(t),
                [3],
                t.ones(3, dtype=t.float64, requires_grad=True),
                t.zeros(3, dtype=t.float64, requires_grad=True),
            ),
        ),
        ("ln int", lambda t, F: F.layer_norm(t.ones(2, 3, dtype=t.int64), [3])),
        ("rms 0d", lambda t, F: F.rms_norm(t.tensor(1.5), ())),
        ("rms 0d [1]", lambda t, F: F.rms_norm(t.tensor(1.5), (1,))),
        ("rms ns=[]", lambda t, F: F.rms_norm(x(t), [], t.ones(2))),
        ("rms ns wrong", lambda t, F: F.rms_norm(x(t), [4])),
        ("rms w wrong", lambda t, F: F.rms_norm(x(t), [3], t.ones(2, dtype=t.float64))),
        ("rms w wrong ns wrong", lambda t, F: F.rms_norm(x(t), [4], t.ones(2, dtype=t.float64))),
        ("rms w num", lambda t, F: F.rms_norm(x(t), [3], 1.0)),
        ("rms x num", lambda t, F: F.rms_norm(1.0, [3])),
        ("rms ns int", lambda t, F: F.rms_norm(x(t), 3)),
        (
            "rms ok",
            lambda t, F: F.rms_norm(
                x(t), [3], t.full((3,), 2.0, dtype=t.float64, requires_grad=True)
            ),
        ),
        ("rms ok eps", lambda t, F: F.rms_norm(x(t), [2, 3], eps=0.1)),
        ("rms int", lambda t, F: F.rms_norm(t.ones(2, 3, dtype=t.int64), [3])),
        ("rms w f32", lambda t, F: F.rms_norm(x(t), [3], t.ones(3))),
        ("gn 1d", lambda t, F: F.group_norm(x(t, (4,)), 2)),
        ("gn bad groups", lambda t, F: F.group_norm(x(t, (2, 3)), 2)),
        ("gn ok", lambda t, F: F.group_norm(x(t, (2, 4, 2)), 2)),
        ("gn x num", lambda t, F: F.group_norm(1.0, 2)),
        ("gn w wrong", lambda t, F: F.group_norm(x(t, (2, 4)), 2, t.ones(3, dtype=t.float64))),
        ("in 1d", lambda t, F: F.instance_norm(x(t, (4,)))),
        ("in ok", lambda t, F: F.instance_norm(x(t, (2, 3, 4)))),
        ("in 2d", lambda t, F: F.instance_norm(x(t, (2, 3)))),
        ("bn ok", lambda t, F: F.batch_norm(x(t, (2, 3)), None, None, training=True)),
        ("bn 1 per ch", lambda t, F: F.batch_norm(x(t, (1, 3)), None, None, training=True)),
        ("bn 1d", lambda t, F: F.batch_norm(x(t, (3,)), None, None, training=True)),
        (
            "bn rm wrong",
            lambda t, F: F.batch_norm(
                x(t, (2, 3)), t.zeros(2, dtype=t.float64), t.ones(2, dtype=t.float64)
            ),
        ),
        ("normalize 0d", lambda t, F: F.normalize(t.tensor(1.5))),
        ("normalize 1d", lambda t, F: F.normalize(x(t, (3,)), dim=0)),
        ("normalize num", lambda t, F: F.normalize(1.5)),
        ("normalize ok", lambda t, F: F.normalize(x(t))),
        ("normalize p1", lambda t, F: F.normalize(x(t), p=1, dim=0)),
        ("cossim 0d", lambda t, F: F.cosine_similarity(t.tensor(1.5), t.tensor(2.0), dim=0)),
        ("cossim 1d dim0", lambda t, F: F.cosine_similarity(x(t, (3,)), x(t, (3,)), dim=0)),
        ("cossim bcast", lambda t, F: F.cosine_similarity(x(t, (2, 3)), x(t, (1, 3)), dim=1)),
        (
            "cossim int",
            lambda t, F: F.cosine_similarity(
                t.ones(2, 3, dtype=t.int64), t.ones(2, 3, dtype=t.int64)
            ),
        ),
        ("cossim mismatch", lambda t, F: F.cosine_similarity(x(t, (2, 3)), x(t, (2, 4)))),
        ("pdist 0d", lambda t, F: F.pairwise_distance(t.tensor(1.5), t.tensor(2.0))),
        ("pdist 1d", lambda t, F: F.pairwise_distance(x(t, (3,)), x(t, (3,)))),
        ("pdist mix", lambda t, F: F.pairwise_distance(x(t, (2, 3)), x(t, (3,)))),
        (
            "pdist int",
            lambda t, F: F.pairwise_distance(
                t.ones(2, 3, dtype=t.int64), t.ones(2, 3, dtype=t.int64)
            ),
        ),
        (
            "pdist keepdim",
            lambda t, F: F.pairwise_distance(x(t, (2, 3)), x(t, (2, 3)), keepdim=True),
        ),
        ("pdist p0", lambda t, F: F.pairwise_distance(x(t, (2, 3)), x(t, (2, 3)) * 2, p=0)),
        (
            "prelu 0d",
            lambda t, F: F.prelu(
                t.tensor(-1.5, dtype=t.float64), t.tensor([0.25], dtype=t.float64)
            ),
        ),
        ("prelu w wrong", lambda t, F: F.prelu(x(t, (2, 3)), t.ones(2, dtype=t.float64))),
        ("prelu w 2d", lambda t, F: F.prelu(x(t, (2, 3)), t.ones(1, 1, dtype=t.float64))),
        ("prelu int", lambda t, F: F.prelu(t.ones(2, 3, dtype=t.int64), t.ones(1, dtype=t.int64))),
        ("prelu w dtype", lambda t, F: F.prelu(x(t, (2, 3)), t.ones(1))),
        ("softmax num", lambda t, F: F.softmax(1.0, 0)),
        ("softmax int", lambda t, F: F.softmax(t.ones(3, dtype=t.int64), 0)),
        ("log_softmax int", lambda t, F: F.log_softmax(t.ones(3, dtype=t.int64), 0)),
        ("softmin num", lambda t, F: F.softmin(1.0, 0)),
        ("softmin int", lambda t, F: F.softmin(t.ones(3, dtype=t.int64), 0)),
        ("one_hot float", lambda t, F: F.one_hot(t.ones(3), 3)),
        ("one_hot neg", lambda t, F: F.one_hot(t.tensor([-1, 0]), 3)),
        ("one_hot big", lambda t, F: F.one_hot(t.tensor([5, 0]), 3)),
        ("one_hot empty", lambda t, F: F.one_hot(t.tensor([], dtype=t.int64))),
        ("one_hot ok", lambda t, F: F.one_hot(t.tensor([2, 0]))),
        ("dropout p bad", lambda t, F: F.dropout(x(t), 1.5)),
        ("dropout num", lambda t, F: F.dropout(1.5, 0.5)),
        ("dropout eval", lambda t, F: F.dropout(x(t), 0.5, training=False)),
        ("dropout2d 1d", lambda t, F: F.dropout2d(x(t, (3,)), 0.0)),
        ("glu odd", lambda t, F: F.glu(x(t, (2, 3)))),
        ("glu 0d", lambda t, F: F.glu(t.tensor(1.5))),
        ("glu ok", lambda t, F: F.glu(x(t, (3, 2)))),
        ("embedding float", lambda t, F: F.embedding(t.ones(2), t.ones(3, 2))),
        ("embedding 1d w", lambda t, F: F.embedding(t.tensor([0]), t.ones(3))),
        ("embedding oob", lambda t, F: F.embedding(t.tensor([5]), t.ones(3, 2))),
        ("linear num", lambda t, F: F.linear(1.0, t.ones(2, 2))),
        ("linear mismatch", lambda t, F: F.linear(t.ones(2, 3), t.ones(2, 2))),
        ("bilinear mismatch", lambda t, F: F.bilinear(t.ones(2, 3), t.ones(2, 2), t.ones(4, 3, 3))),
        (
            "bilinear ok",
            lambda t, F: F.bilinear(x(t, (2, 3)), x(t, (2, 2)), t.ones(4, 3, 2, dtype=t.float64)),
        ),
        ("gumbel num", lambda t, F: F.gumbel_softmax(1.0)),
        ("pdist_fn 1d", lambda t, F: F.pdist(x(t, (3,)))),
        ("pdist_fn ok", lambda t, F: F.pdist(x(t, (3, 2)))),
        ("local_response_norm 2d", lambda t, F: F.local_response_norm(x(t, (2, 3)), 2)),
        ("local_response_norm 1d", lambda t, F: F.local_response_norm(x(t, (3,)), 2)),
        ("local_response_norm ok", lambda t, F: F.local_response_norm(x(t, (2, 3, 2)), 2)),
        (
            "triplet_wd bad",
            lambda t, F: F.triplet_margin_with_distance_loss(
                x(t, (2, 3)), x(t, (2, 3)), x(t, (3,))
            ),
        ),
        (
            "triplet_wd ok",
            lambda t, F: F.triplet_margin_with_distance_loss(
                x(t, (2, 3)), x(t, (2, 3)) * 2, x(t, (2, 3)) * 0.5
            ),
        ),
        (
            "triplet_wd red",
            lambda t, F: F.triplet_margin_with_distance_loss(
                x(t, (2, 3)), x(t, (2, 3)), x(t, (2, 3)), reduction="bogus"
            ),
        ),
        (
            "triplet_wd margin",
            lambda t, F: F.triplet_margin_with_distance_loss(
                x(t, (2, 3)), x(t, (2, 3)), x(t, (2, 3)), margin=-1.0
            ),
        ),
        (
            "triplet margin neg",
            lambda t, F: F.triplet_margin_loss(
                x(t, (2, 3)), x(t, (2, 3)), x(t, (2, 3)), margin=-1.0
            ),
        ),
        (
            "triplet swap",
            lambda t, F: F.triplet_margin_loss(
                x(t, (2, 3)), x(t, (2, 3)) * 2, x(t, (2, 3)) * 0.5, swap=True
            ),
        ),
        (
            "mlsm weight",
            lambda t, F: F.multilabel_soft_margin_loss(
                x(t, (2, 3)), t.ones(2, 3, dtype=t.float64), weight=t.ones(3, dtype=t.float64)
            ),
        ),
        ("mm p3", lambda t, F: F.multi_margin_loss(x(t, (2, 3)), t.tensor([0, 1]), p=3)),
        (
            "mm weight",
            lambda t, F: F.multi_margin_loss(
                x(t, (2, 3)), t.tensor([0, 1]), weight=t.ones(3, dtype=t.float64)
            ),
        ),
        (
            "mm weight bad",
            lambda t, F: F.multi_margin_loss(
                x(t, (2, 3)), t.tensor([0, 1]), weight=t.ones(2, dtype=t.float64)
            ),
        ),
        (
            "mlm neg",
            lambda t, F: F.multilabel_margin_loss(x(t, (2, 3)), t.tensor([[0, -1, 2], [1, 2, -1]])),
        ),
        (
            "mlm oob",
            lambda t, F: F.multilabel_margin_loss(x(t, (2, 3)), t.tensor([[0, 5, 2], [1, 2, -1]])),
        ),
        (
            "cel margin",
            lambda t, F: F.cosine_embedding_loss(
                x(t, (2, 3)), x(t, (2, 3)) + 1, t.tensor([1.0, -1.0], dtype=t.float64), margin=0.5
            ),
        ),
        (
            "cel tgt int",
            lambda t, F: F.cosine_embedding_loss(x(t, (2, 3)), x(t, (2, 3)) + 1, t.tensor([1, -1])),
        ),
        (
            "hinge margin",
            lambda t, F: F.hinge_embedding_loss(
                x(t, (2, 3)), t.tensor([[1.0, -1.0, 0.5]] * 2, dtype=t.float64), margin=2.0
            ),
        ),
        (
            "hinge int tgt",
            lambda t, F: F.hinge_embedding_loss(x(t, (2, 3)), t.tensor([[1, -1, 1]] * 2)),
        ),
        (
            "mrl int tgt",
            lambda t, F: F.margin_ranking_loss(x(t, (3,)), x(t, (3,)) * 2, t.tensor([1, -1, 1])),
        ),
        (
            "poisson full",
            lambda t, F: F.poisson_nll_loss(
                x(t, (2, 3)), t.arange(6.0, dtype=t.float64).reshape(2, 3), full=True
            ),
        ),
        (
            "poisson nolog",
            lambda t, F: F.poisson_nll_loss(
                x(t, (2, 3)) + 1, t.arange(6.0, dtype=t.float64).reshape(2, 3), log_input=False
            ),
        ),
        (
            "poisson int tgt",
            lambda t, F: F.poisson_nll_loss(x(t, (2, 3)), t.ones(2, 3, dtype=t.int64)),
        ),
        (
            "poisson bcast",
            lambda t, F: F.poisson_nll_loss(x(t, (2, 3)), t.ones(3, dtype=t.float64)),
        ),
        (
            "kl bcast",
            lambda t, F: F.kl_div(x(t, (2, 3)), t.ones(3, dtype=t.float64), reduction="sum"),
        ),
        (
            "kl int",
            lambda t, F: F.kl_div(
                t.ones(2, 3, dtype=t.int64), t.ones(2, 3, dtype=t.int64), reduction="sum"
            ),
        ),
        (
            "l1 weight",
            lambda t, F: F.l1_loss(
                x(t), t.ones(2, 3, dtype=t.float64), weight=t.full((2, 3), 2.0, dtype=t.float64)
            ),
        ),
        (
            "l1 weight bad",
            lambda t, F: F.l1_loss(
                x(t), t.ones(2, 3, dtype=t.float64), weight=t.ones(3, dtype=t.float64)
            ),
        ),
        (
            "mse weight",
            lambda t, F: F.mse_loss(
                x(t), t.ones(2, 3, dtype=t.float64), weight=t.full((2, 3), 2.0, dtype=t.float64)
            ),
        ),
        (
            "mse weight bad red",
            lambda t, F: F.mse_loss(
                x(t),
                t.ones(2, 3, dtype=t.float64),
                weight=t.ones(2, 3, dtype=t.float64),
                reduction="bogus",
            ),
        ),
        (
            "huber weight",
            lambda t, F: F.huber_loss(
                x(t), t.ones(2, 3, dtype=t.float64), weight=t.full((2, 3), 2.0, dtype=t.float64)
            ),
        ),
        (
            "huber weight bad",
            lambda t, F: F.huber_loss(
                x(t), t.ones(2, 3, dtype=t.float64), weight=t.ones(3, dtype=t.float64)
            ),
        ),
        (
            "smooth beta0",
            lambda t, F: F.smooth_l1_loss(x(t), t.ones(2, 3, dtype=t.float64), beta=0.0),
        ),
        (
            "smooth beta neg",
            lambda t, F: F.smooth_l1_loss(x(t), t.ones(2, 3, dtype=t.float64), beta=-1.0),
        ),
        (
            "huber delta neg",
            lambda t, F: F.huber_loss(x(t), t.ones(2, 3, dtype=t.float64), delta=-1.0),
        ),
        (
            "huber delta 0",
            lambda t, F: F.huber_loss(x(t), t.ones(2, 3, dtype=t.float64), delta=0.0),
        ),
        (
            "bce weight bcast",
            lambda t, F: F.binary_cross_entropy(
                x(t).detach().mul(0.1).requires_grad_(),
                t.full((2, 3), 0.5, dtype=t.float64),
                weight=t.ones(3, dtype=t.float64),
            ),
        ),
        (
            "bce weight bad",
            lambda t, F: F.binary_cross_entropy(
                x(t).detach().mul(0.1),
                t.full((2, 3), 0.5, dtype=t.float64),
                weight=t.ones(2, dtype=t.float64),
            ),
        ),
        (
            "bcel posw",
            lambda t, F: F.binary_cross_entropy_with_logits(
                x(t), t.full((2, 3), 0.5, dtype=t.float64), pos_weight=t.ones(3, dtype=t.float64)
            ),
        ),
        (
            "bcel posw bad",
            lambda t, F: F.binary_cross_entropy_with_logits(
                x(t), t.full((2, 3), 0.5, dtype=t.float64), pos_weight=t.ones(2, dtype=t.float64)
            ),
        ),
    ]:
        out.append((nm, None, fl))
    return out


def outcome(torch, c):
    name, f, b = c
    F = torch.nn.functional
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            if f is None:
                r = b(torch, F)
                ins = []
            else:
                args, kw = b(torch)
                ins = [a for a in args if isinstance(a, torch.Tensor) and a.requires_grad]
                r = getattr(F, f)(*args, **kw)
        ws = sorted({str(x.message)[:80] for x in w})
    except Exception as e:
        return ("err", type(e).__name__, str(e).split("\n")[0][:300])
    if not isinstance(r, torch.Tensor):
        return ("nontensor", type(r).__name__)
    res = [
        "ok",
        tuple(r.shape),
        str(r.dtype).replace("autotensor", "torch"),
        np.asarray(r.detach().tolist(), dtype=float).round(10).tolist(),
        ws,
    ]
    if f is None:
        ins = []
        # find leaves: none
    if r.requires_grad and ins:
        try:
            gs = torch.autograd.grad(r.sum(), ins, allow_unused=True)
            res.append(
                [
                    None if g is None else np.asarray(g.tolist(), dtype=float).round(9).tolist()
                    for g in gs
                ]
            )
        except Exception as e:
            res.append(("graderr", type(e).__name__, str(e)[:200]))
    return res


_CASES = cases()
# Cases that still differ (recorded in tests/fuzz/OPEN_FINDINGS.md, Stop 27 helper nn27).
KNOWN_OPEN = {
    # (huber_loss / soft_margin_loss of another target dtype, multi_margin_loss /
    # multilabel_margin_loss of a 0-d input, gaussian_nll_loss of an int var: fixed at stop
    # 28, nn28; hinge/cosine_embedding_loss's three-operand where message: fixed on main)
    "multilabel_soft_margin_loss arg1=None",
    "gaussian_nll_loss arg1=None",
    "linear num",
}


def _close(x, y):
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        return len(x) == len(y) and all(_close(p, q) for p, q in zip(x, y))
    if isinstance(x, float) and isinstance(y, float):
        return x == y or (x != x and y != y) or abs(x - y) <= 1e-6 * max(1, abs(x))
    return x == y


def _norm(o):
    import json

    return json.loads(json.dumps(o, default=str))


@pytest.mark.parametrize("case", _CASES, ids=[c[0] for c in _CASES])
def test_functional_arguments_match_torch(case):
    t, a = _norm(outcome(torch, case)), _norm(outcome(autotensor, case))
    if case[0] in KNOWN_OPEN:
        return
    assert _close(t, a), (t, a)


def test_known_open_still_listed_cases_exist():
    names = {c[0] for c in _CASES}
    assert KNOWN_OPEN <= names


_X = [1.5, 2.0]
_LOSSES = [
    "mse_loss",
    "l1_loss",
    "smooth_l1_loss",
    "huber_loss",
    "binary_cross_entropy_with_logits",
    "kl_div",
    "soft_margin_loss",
    "cosine_similarity",
    "pairwise_distance",
    "prelu",
    "binary_cross_entropy",
    "poisson_nll_loss",
    "gaussian_nll_loss",
    "margin_ranking_loss",
    "hinge_embedding_loss",
    "multilabel_soft_margin_loss",
    "triplet_margin_loss",
    "cross_entropy",
    "nll_loss",
]


def _lossarg(mod, name, pattern):
    F = mod.nn.functional
    x, x0 = mod.tensor(_X), mod.tensor(1.5)
    args = {
        "x,1": (x, 1),
        "1,x": (1, x),
        "x,2.5": (x, 2.5),
        "x0,x0": (x0, x0),
        "x,x0": (x, x0),
        "x0,x": (x0, x),
    }[pattern]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f = getattr(F, name)
            if name == "gaussian_nll_loss":
                r = f(*args, mod.ones(2))
            elif name in ("margin_ranking_loss", "triplet_margin_loss"):
                r = f(*args, x)
            else:
                r = f(*args)
        return (
            "ok",
            tuple(r.shape),
            str(r.dtype).split(".")[-1],
            np.asarray(r.tolist(), dtype=float).round(6).tolist(),
        )
    except Exception as e:
        return (type(e).__name__, str(e))


@pytest.mark.parametrize("pattern", ["x,1", "1,x", "x,2.5", "x0,x0", "x,x0", "x0,x"])
@pytest.mark.parametrize("name", _LOSSES)
def test_loss_argument_patterns(name, pattern):
    assert _lossarg(autotensor, name, pattern) == _lossarg(torch, name, pattern)


@pytest.mark.parametrize(
    "fname,shape",
    [
        ("dropout1d", (3, 4)),
        ("dropout1d", (2, 3, 4)),
        ("dropout2d", (2, 3, 4)),
        ("dropout2d", (2, 3, 2, 2)),
        ("dropout2d", (3, 4)),
        ("dropout2d", (5,)),
        ("dropout3d", (2, 3, 2, 2)),
        ("dropout3d", (2, 2, 3, 2, 2)),
        ("dropout3d", (3, 4)),
    ],
)
@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
@pytest.mark.parametrize("inplace", [False, True])
def test_feature_dropout_masks_and_errors_match_torch(fname, shape, p, inplace):
    """F.dropout1d/2d/3d as PyTorch's Python code: dimension check or warnings, unbatched
    inputs unsqueezed, one bernoulli_ per (sample, channel) of the 2-d+ input (a 3-d input
    to dropout2d is (N, C, L)), no draw for p == 1; the same mask for the same seed."""
    res = []
    for m in (torch, autotensor):
        m.manual_seed(5)
        x = m.arange(float(np.prod(shape)), dtype=m.float64).reshape(shape) + 1
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                y = getattr(m.nn.functional, fname)(x, p, True, inplace)
                res.append(("ok", y.tolist(), x.tolist()))
            except Exception as e:
                res.append((type(e).__name__, str(e)))
        res.append(sorted(str(x.message) for x in w))
    assert res[:2] == res[2:]


def _bce_run(m, xv, tv, wv, red, dt, wdt, tgrad):
    """Value, dtype, node and its edges, gradients (create_graph), the double backward and
    the forward-mode tangent of F.binary_cross_entropy."""
    F = m.nn.functional
    x = m.tensor(xv, dtype=getattr(m, dt), requires_grad=True)
    t = m.tensor(tv, dtype=getattr(m, dt), requires_grad=tgrad)
    w = None if wv is None else m.tensor(wv, dtype=getattr(m, wdt))
    y = F.binary_cross_entropy(x, t, w, reduction=red)
    out = [
        y.tolist(),
        str(y.dtype).split(".")[-1],
        type(y.grad_fn).__name__,
        [None if f[0] is None else type(f[0]).__name__ for f in y.grad_fn.next_functions],
    ]
    ins = [x, t] if tgrad else [x]
    g = m.autograd.grad(y.sum(), ins, create_graph=True)
    out.append([gi.tolist() for gi in g])
    gg = m.autograd.grad(g[0].sum(), ins, allow_unused=True)
    fw = m.autograd.forward_ad
    with fw.dual_level():
        xd = fw.make_dual(x.detach(), m.ones_like(x))
        td = fw.make_dual(t.detach(), m.full_like(t, 0.5)) if tgrad else t.detach()
        out.append(
            fw.unpack_dual(F.binary_cross_entropy(xd, td, w, reduction=red)).tangent.tolist()
        )
    return out, [None if v is None else v.tolist() for v in gg]


def _close_tol(x, y, tol):
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        return len(x) == len(y) and all(_close_tol(p, q, tol) for p, q in zip(x, y))
    if isinstance(x, float) and isinstance(y, float):
        return x == y or (x != x and y != y) or abs(x - y) <= tol * max(1, abs(x))
    return x == y


_BCE_X = [[0.2, 0.7, 0.5], [0.9, 0.1, 0.3]]
_BCE_EDGE = [[0.0, 1.0, 0.5], [1.0, 0.0, 1e-30]]
_BCE_T = [[0.0, 1.0, 0.5], [1.0, 0.3, 0.0]]


@pytest.mark.parametrize("xv", [_BCE_X, _BCE_EDGE], ids=["inside", "edges"])
@pytest.mark.parametrize("tgrad", [False, True])
@pytest.mark.parametrize(
    "wv,wdt",
    [
        (None, "float64"),
        ([1.0, 2.0, 0.5], "float32"),
        ([1.0, 2.0, 0.5], "float64"),
        ([[2.0]], "float64"),
    ],
)
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("red", ["none", "mean", "sum"])
def test_binary_cross_entropy_entry_matches_torch(red, dt, wv, wdt, tgrad, xv):
    """One BinaryCrossEntropyBackward0 entry with aten's kernels: log1p(-x), logs clamped
    at -100, the backward's max((1 - x) x, eps) with aten's float eps (finite gradients at 0
    and 1), the target's -logit(x), the forward rule's both terms (an absent tangent is
    zeros: NaN at 0 and 1, as PyTorch's). Double backward differentiates our formula: aten's
    has the eps in other places, so it agrees to 1e-9 inside (0, 1) only (OPEN_FINDINGS)."""
    tol = 1e-6 if dt == "float32" else 1e-12
    t_out, t_gg = _bce_run(torch, xv, _BCE_T, wv, red, dt, wdt, tgrad)
    a_out, a_gg = _bce_run(autotensor, xv, _BCE_T, wv, red, dt, wdt, tgrad)
    assert _close_tol(t_out, a_out, tol), (t_out, a_out)
    if xv is _BCE_X:
        assert _close_tol(t_gg, a_gg, max(tol, 1e-9)), (t_gg, a_gg)
