"""Layer and batch norm nodes save what PyTorch's save (Note [Layer norm's saved
statistics], Note [Batch norm's saved statistics]): the forward's statistics as result1 /
result2, used as saved by the array backward, and seen as functions of the input by a
graph of the backward. Checked against torch: saved names and values, the pack order of
saved-tensor hooks, in-place errors, first and second derivatives, native_* bindings."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")


def _saved_names(node):
    return sorted(a for a in dir(node) if a.startswith("_saved_"))


def _ln_case(T, dtype, affine, shape=(3, 4, 6), normalized=(6,)):
    rng = np.random.default_rng(5)
    x = T.tensor(rng.standard_normal(shape) * 2 + 1, dtype=dtype, requires_grad=True)
    w = T.tensor(rng.standard_normal(normalized), dtype=dtype, requires_grad=True)
    b = T.tensor(rng.standard_normal(normalized), dtype=dtype, requires_grad=True)
    return x, (w, b) if affine else (None, None)


@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_layer_norm_saves_pytorchs_values(dtype, affine):
    got = []
    for T in (autotensor, torch):
        x, (w, b) = _ln_case(T, getattr(T, dtype), affine)
        y = T.nn.functional.layer_norm(x, (6,), w, b)
        fn = y.grad_fn
        got.append((type(fn).__name__, _saved_names(fn), fn._saved_normalized_shape,
                    fn._saved_result1.detach().numpy(), fn._saved_result2.detach().numpy(),
                    fn._saved_bias is None, fn._saved_weight is None))
    (n1, s1, ns1, m1, r1, bn1, wn1), (n2, s2, ns2, m2, r2, bn2, wn2) = got
    assert (n1, s1, tuple(ns1), bn1, wn1) == (n2, s2, tuple(ns2), bn2, wn2)
    tol = 1e-12 if dtype == "float64" else 1e-5
    assert m1.shape == m2.shape == (3, 4, 1) and m1.dtype == m2.dtype
    np.testing.assert_allclose(m1, m2, rtol=tol, atol=tol)
    np.testing.assert_allclose(r1, r2, rtol=tol, atol=tol)


@pytest.mark.parametrize("norm", ["layer", "layer_noaffine", "batch", "batch_noaffine",
                                  "batch_nostats", "batch_eval"])
def test_norm_saved_tensor_hooks_see_pytorchs_tensors_in_order(norm):
    """pack is called for each saved tensor in PyTorch's order (undefined ones skipped):
    layer norm packs bias, input, weight, mean, rstd; batch norm input, weight, save_mean,
    save_invstd (empty in eval). PyTorch's batch norm also packs the running statistics;
    ours keeps them as arrays (Note [Batch norm's saved statistics]): left out here."""
    got = []
    for T in (autotensor, torch):
        rng = np.random.default_rng(6)
        x = T.tensor(rng.standard_normal((4, 3, 5)), requires_grad=True)
        w3, b3 = (T.tensor(rng.standard_normal(3), requires_grad=True) for _ in "wb")
        w5, b5 = (T.tensor(rng.standard_normal(5), requires_grad=True) for _ in "wb")
        rm, rv = T.zeros(3, dtype=T.float64), T.ones(3, dtype=T.float64)
        seen = []

        def pack(t, seen=seen, running=(rm, rv)):
            if not any(t is r for r in running):
                seen.append((tuple(t.shape), str(t.dtype).split(".")[-1]))
            return t
        F = T.nn.functional
        with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            if norm.startswith("layer"):
                y = F.layer_norm(x, (5,), *((w5, b5) if norm == "layer" else ()))
            else:
                stats = (None, None) if norm == "batch_nostats" else (rm, rv)
                affine = () if norm == "batch_noaffine" else (w3, b3)
                y = F.batch_norm(x, *stats, *affine, training=norm != "batch_eval")
        y.backward(T.ones_like(y))
        got.append((seen, x.grad.numpy()))
    assert got[0][0] == got[1][0]
    np.testing.assert_allclose(got[0][1], got[1][1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("which", ["bias", "weight", "input"])
def test_layer_norm_inplace_change_of_a_saved_input_raises_as_pytorch(which):
    msgs = []
    for T in (autotensor, torch):
        x, (w, b) = _ln_case(T, T.float64, True)
        y = T.nn.functional.layer_norm(x, (6,), w, b)
        with T.no_grad():
            {"bias": b, "weight": w, "input": x}[which].add_(1)
        with pytest.raises(RuntimeError) as e:
            y.sum().backward()
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]


@pytest.mark.parametrize("k", [1, 2])
def test_native_layer_norm_statistic_modified_in_place_raises_as_pytorch(k):
    msgs = []
    for T in (autotensor, torch):
        x, (w, b) = _ln_case(T, T.float32, True)
        out = T.native_layer_norm(x, (6,), w, b, 1e-5)
        out[k].mul_(2)
        with pytest.raises(RuntimeError) as e:
            out[0].sum().backward()
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]


@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("shape,normalized", [((3, 4, 6), (6,)), ((2, 3, 4), (3, 4)),
                                              ((5,), (5,))])
def test_layer_norm_double_backward_matches_torch(shape, normalized, affine):
    """create_graph: mean and rstd as functions of the input again (valued as saved), so
    second derivatives are PyTorch's (its layer_norm_double_backward)."""
    res = []
    for T in (autotensor, torch):
        x, (w, b) = _ln_case(T, T.float64, affine, shape, normalized)
        wrt = [t for t in (x, w, b) if t is not None]
        y = T.nn.functional.layer_norm(x, normalized, w, b, 1e-3)
        g = T.tensor(np.random.default_rng(7).standard_normal(shape), dtype=T.float64,
                     requires_grad=True)
        grads = T.autograd.grad(y, wrt, g, create_graph=True)
        total = sum((gr * gr.detach().sin()).sum() for gr in grads)
        second = T.autograd.grad(total, wrt + [g], allow_unused=True)
        res.append([t.detach().numpy() for t in grads] +
                   [None if t is None else t.numpy() for t in second])
    for a, t in zip(*res):
        if t is None:
            assert a is None
        else:
            np.testing.assert_allclose(a, t, rtol=1e-10, atol=1e-12)


def test_layer_norm_forward_mode_matches_torch():
    import autotensor.autograd.forward_ad as afw
    import torch.autograd.forward_ad as tfw
    res = []
    for T, fw in ((autotensor, afw), (torch, tfw)):
        x, (w, b) = _ln_case(T, T.float64, True)
        tx = T.tensor(np.random.default_rng(8).standard_normal(x.shape), dtype=T.float64)
        with fw.dual_level():
            d = fw.make_dual(x.detach(), tx)
            y = T.nn.functional.layer_norm(d, (6,), w.detach(), b.detach())
            res.append(fw.unpack_dual(y).tangent.numpy())
    np.testing.assert_allclose(res[0], res[1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_native_layer_norm_matches_torch(dtype):
    res = []
    for T in (autotensor, torch):
        x, (w, b) = _ln_case(T, getattr(T, dtype), True)
        outs = T.native_layer_norm(x, [6], w, b, 1e-4)
        res.append([(o.detach().numpy(), o.requires_grad, o.grad_fn is None) for o in outs])
    tol = 1e-12 if dtype == "float64" else 1e-5
    for (a, ra, na), (t, rt, nt) in zip(*res):
        assert (a.shape, a.dtype, ra, na) == (t.shape, t.dtype, rt, nt)
        np.testing.assert_allclose(a, t, rtol=tol, atol=tol)


@pytest.mark.parametrize("which", ["weight", "bias"])
def test_layer_norm_affine_shape_checked_as_pytorch(which):
    msgs = []
    for T in (autotensor, torch):
        x = T.randn(2, 3)
        kw = {which: T.ones(4)}
        with pytest.raises(RuntimeError) as e:
            T.nn.functional.layer_norm(x, (3,), **kw)
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_batch_norm_saves_pytorchs_values(dtype, training):
    got = []
    for T in (autotensor, torch):
        rng = np.random.default_rng(9)
        x = T.tensor(rng.standard_normal((4, 3, 5)) + 2, dtype=getattr(T, dtype),
                     requires_grad=True)
        w = T.tensor(rng.standard_normal(3), dtype=getattr(T, dtype), requires_grad=True)
        rm, rv = T.zeros(3, dtype=getattr(T, dtype)), T.ones(3, dtype=getattr(T, dtype))
        outs = T.native_batch_norm(x, w, None, rm, rv, training, 0.1, 1e-5)
        fn = outs[0].grad_fn
        got.append((type(fn).__name__, _saved_names(fn), fn._saved_eps, fn._saved_training,
                    fn._saved_result1.numpy(), fn._saved_result2.numpy(),
                    [(o.detach().numpy(), o.requires_grad) for o in outs],
                    rm.numpy().copy(), rv.numpy().copy()))
    a, t = got
    assert a[:4] == t[:4]
    tol = 1e-12 if dtype == "float64" else 1e-5
    for u, v in zip(list(a[4:6]) + [o for o, _ in a[6]] + list(a[7:]),
                    list(t[4:6]) + [o for o, _ in t[6]] + list(t[7:])):
        assert u.shape == v.shape and u.dtype == v.dtype
        np.testing.assert_allclose(u, v, rtol=tol, atol=tol)
    assert [r for _, r in a[6]] == [r for _, r in t[6]]


@pytest.mark.parametrize("k", [1, 2])
def test_native_batch_norm_statistic_modified_in_place_raises_as_pytorch(k):
    msgs = []
    for T in (autotensor, torch):
        x = T.randn(4, 3, 5, requires_grad=True)
        outs = T.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5)
        outs[k].mul_(2)
        with pytest.raises(RuntimeError) as e:
            outs[0].sum().backward()
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]


def test_non_differentiable_saved_output_modified_message_names_no_op():
    """max_pool2d's indices have no grad_fn: PyTorch's message names no op for them."""
    msgs = []
    for T in (autotensor, torch):
        x = T.randn(1, 1, 4, 4, requires_grad=True)
        out, idx = T.nn.functional.max_pool2d(x, 2, return_indices=True)
        idx.add_(0)
        with pytest.raises(RuntimeError) as e:
            out.sum().backward()
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_double_backward_matches_torch(training):
    res = []
    for T in (autotensor, torch):
        rng = np.random.default_rng(10)
        x = T.tensor(rng.standard_normal((4, 3, 5)), requires_grad=True)
        w = T.tensor(rng.standard_normal(3), requires_grad=True)
        b = T.tensor(rng.standard_normal(3), requires_grad=True)
        rm = T.tensor(rng.standard_normal(3))
        rv = T.tensor(rng.uniform(0.5, 2, 3))
        y = T.nn.functional.batch_norm(x, rm, rv, w, b, training=training)
        g = T.tensor(rng.standard_normal((4, 3, 5)), requires_grad=True)
        grads = T.autograd.grad(y, (x, w, b), g, create_graph=True)
        total = sum((gr * gr.detach().cos()).sum() for gr in grads)
        second = T.autograd.grad(total, (x, w, g), allow_unused=True)
        res.append([t.detach().numpy() for t in grads] +
                   [None if t is None else t.numpy() for t in second])
    for a, t in zip(*res):
        if t is None:
            assert a is None
        else:
            np.testing.assert_allclose(a, t, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("shape", [(32, 8, 6, 6), (3, 4, 5), (2, 70, 40, 40)])
def test_batch_norm_backward_from_saved_statistics_matches_recomputed(shape):
    """The array backward with the saved statistics gives the bits of the statistics
    computed again from the input (the old backward), and agrees with torch."""
    from autotensor._ops import nn_ops as N
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal(shape[1]).astype(np.float32)
    _, mean, invstd = N.batch_norm_kernel(x, w, None, None, None, True, 0.1, 1e-5)
    x3 = x.reshape(shape[0], shape[1], -1)
    m2, _, inv2, _ = N._batch_norm_stats(x3, True, None, None, 1e-5)
    if x.size > N._BN_EXACT_MAX:  # (smaller: aten's own roundings, Note [Batch norm's
        # float32 statistics]; the same statistics to float32 rounding)
        assert np.array_equal(mean, m2) and np.array_equal(invstd, inv2.astype(np.float32))
    else:
        np.testing.assert_allclose(mean, m2, rtol=1e-6)
        np.testing.assert_allclose(invstd, inv2, rtol=1e-6)
    ours = N._batch_norm_backward_raw(g, x, w, None, None, True, 1e-5, mean, invstd)
    tx = torch.tensor(x, requires_grad=True)
    tw = torch.tensor(w, requires_grad=True)
    tb = torch.zeros(shape[1], requires_grad=True)
    torch.nn.functional.batch_norm(tx, None, None, tw, tb, training=True).backward(
        torch.tensor(g))
    for a, t in zip(ours, (tx.grad, tw.grad, tb.grad)):
        np.testing.assert_allclose(a, t.numpy(), rtol=2e-4, atol=2e-4)


def _gn_case(T, affine=True):
    rng = np.random.default_rng(12)
    x = T.tensor(rng.standard_normal((3, 6, 5)) * 2 + 1, requires_grad=True)
    w = T.tensor(rng.standard_normal(6), requires_grad=True) if affine else None
    b = T.tensor(rng.standard_normal(6), requires_grad=True) if affine else None
    return x, w, b


@pytest.mark.parametrize("affine", [True, False])
def test_group_norm_saves_pytorchs_values_in_pytorchs_order(affine):
    got = []
    for T in (autotensor, torch):
        x, w, b = _gn_case(T, affine)
        seen = []
        with T.autograd.graph.saved_tensors_hooks(
                lambda t, seen=seen: (seen.append(tuple(t.shape)), t)[1], lambda t: t):
            y = T.nn.functional.group_norm(x, 3, w, b)
        fn = y.grad_fn
        stats = fn._saved_result1.detach().numpy(), fn._saved_result2.detach().numpy()
        y.backward(T.ones_like(y))
        got.append((type(fn).__name__, _saved_names(fn), seen, *stats,
                    [t.grad.numpy() for t in (x, w, b) if t is not None]))
    a, t = got
    assert a[:3] == t[:3]
    for u, v in zip(list(a[3:5]) + a[5], list(t[3:5]) + t[5]):
        np.testing.assert_allclose(u, v, rtol=1e-10, atol=1e-12)


def test_group_norm_double_backward_matches_torch():
    res = []
    for T in (autotensor, torch):
        x, w, b = _gn_case(T)
        y = T.nn.functional.group_norm(x, 2, w, b)
        g = T.tensor(np.random.default_rng(13).standard_normal((3, 6, 5)), requires_grad=True)
        grads = T.autograd.grad(y, (x, w, b), g, create_graph=True)
        total = sum((gr * gr.detach().cos()).sum() for gr in grads)
        res.append([t.detach().numpy() for t in grads] +
                   [t.numpy() for t in T.autograd.grad(total, (x, w, g))])
    for a, t in zip(*res):
        np.testing.assert_allclose(a, t, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("norm", ["layer", "batch", "group"])
def test_norms_compile_fullgraph_with_their_statistics(norm):
    """A compiled step records native_*_norm with its three outputs, so the replayed
    backward has the saved statistics (fullgraph: no fallback to eager), the same bits as
    eager."""
    F = autotensor.nn.functional
    rng = np.random.default_rng(14)
    x = autotensor.tensor(rng.standard_normal((4, 6, 5)).astype(np.float32),
                          requires_grad=True)
    w = autotensor.tensor(rng.standard_normal(6 if norm != "layer" else 5).astype(np.float32),
                          requires_grad=True)

    def f(x, w):
        if norm == "layer":
            y = F.layer_norm(x, (5,), w)
        elif norm == "batch":
            y = F.batch_norm(x, None, None, w, training=True)
        else:
            y = F.group_norm(x, 3, w)
        return y.tanh().sum()
    compiled = autotensor.compile(f, fullgraph=True)
    x.grad = w.grad = None
    f(x, w).backward()
    want = [x.grad.numpy().copy(), w.grad.numpy().copy()]
    for _ in range(3):
        x.grad = w.grad = None
        compiled(x, w).backward()
        assert np.array_equal(x.grad.numpy(), want[0])
        assert np.array_equal(w.grad.numpy(), want[1])

