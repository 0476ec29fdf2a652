"""Fuzz stop 24 (helper fz9c): the order of PyTorch's checks of in-place writes (autograd's
leaf / view checks, then aten's overlap, index and shape checks) and the decomposition of
``x[key] = v`` (THPVariable_setitem: views, copy_to, index_put_), as the reproducer
(tests/fuzz/pending_stop24/start_repro_005) and a differential grid against PyTorch:
targets x index kinds x values for setitem, and in-place ops x values. Every test compares
with torch, so the file needs it."""
import warnings

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

LEVEL = "torch.autograd.forward_ad.enter_dual_level()"

FINDINGS = {
    # v0 is make_dual's view of a leaf: copy_'s autograd check (a view of a leaf) comes
    # before the overlap of v0 with v0.reshape(1, -1) (s24 start_repro_005)
    "x[...] = x.reshape(1, -1) for a dual of a leaf (s24 start_repro_005)":
        [LEVEL, "v0 = torch.tensor(np.array([1.764], dtype='float32'), requires_grad=True)",
         "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624]), "
         "dtype=v0.dtype))", "v3 = v0.reshape(1, -1)", "v0[...] = v3"],
}


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_fuzz_finding(name):
    from tests.fuzz.core import run_and_compare
    try:
        run_and_compare(FINDINGS[name])
    finally:
        if autotensor.autograd.forward_ad._current[0] >= 0:
            autotensor.autograd.forward_ad.exit_dual_level()


def _graph(fn, depth=0):
    """The names of the graph under fn, to three levels."""
    if fn is None:
        return None
    if depth == 3:
        return fn.name()
    return (fn.name(), tuple(_graph(n, depth + 1) for n, _ in fn.next_functions))


def _target(L, kind, shape):
    """The tensor written to: of each kind autograd's checks tell apart."""
    base = np.arange(1, 1 + int(np.prod(shape)), dtype=np.float32).reshape(shape) / 4 + 0.5
    fw = L.autograd.forward_ad
    if kind == "expanded":  # (overlaps itself)
        return L.tensor(base[:1]).expand(shape)
    if kind == "int":
        return L.tensor((base * 4).astype(np.int64))
    if kind == "plain":
        return L.tensor(base)
    if kind == "leaf":
        return L.tensor(base, requires_grad=True)
    if kind == "nonleaf":
        return L.tensor(base, requires_grad=True) * 1
    if kind == "leaf_view":
        return L.tensor(base, requires_grad=True).view(shape)
    if kind == "nograd_view":
        leaf = L.tensor(base, requires_grad=True)
        with L.no_grad():
            return leaf.view(shape)
    if kind == "dual":
        return fw.make_dual(L.tensor(base), L.tensor(base * 2))
    assert kind == "dual_leaf"
    return fw.make_dual(L.tensor(base, requires_grad=True), L.tensor(base * 2))


TARGETS = ["expanded", "int", "plain", "leaf", "nonleaf", "leaf_view", "nograd_view", "dual",
           "dual_leaf"]


def _observe(L, x):
    t = L.autograd.forward_ad.unpack_dual(x).tangent
    return {"value": np.asarray(x.detach().tolist(), dtype=float).round(6).tolist(),
            "version": x._version, "graph": _graph(x.grad_fn),
            "tangent": None if t is None else np.asarray(t.tolist(), float).round(6).tolist()}


def _run(L, kind, shape, act):
    """act(L, x) on a fresh target under a forward-AD level: the error, or the target after."""
    fw = L.autograd.forward_ad
    fw.enter_dual_level()
    try:
        x = _target(L, kind, shape)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                act(L, x)
        except Exception as e:  # noqa: BLE001
            return f"{type(e).__name__}: {e}"
        try:
            return _observe(L, x)
        except Exception as e:  # noqa: BLE001  (an integer target given history: unpack_dual)
            return f"observing: {type(e).__name__}: {e}"
    finally:
        fw.exit_dual_level()


KEYS = {
    "ellipsis": lambda L, x: ...,
    "int": lambda L, x: 0,
    "slice": lambda L, x: slice(0, 1),
    "slice_all": lambda L, x: slice(None),
    "mask": lambda L, x: x.detach() > 0.9,
    "long": lambda L, x: L.tensor([0]),
    "none": lambda L, x: None,
    "true": lambda L, x: True,
    "false": lambda L, x: False,
    "tuple_int_slice": lambda L, x: (0, slice(None)) if x.dim() == 2 else (0,),
    "int_long": lambda L, x: (0, L.tensor([0])) if x.dim() == 2 else (L.tensor([0]), None),
    "slice_mask": lambda L, x: (slice(0, 1), L.tensor([True, False])) if x.dim() == 2 else
    (slice(0, 1),),
    "none_long": lambda L, x: (None, L.tensor([0])),
    "long_none": lambda L, x: (L.tensor([0]), None),
    "tuple_true": lambda L, x: (True, 0),
    "tuple_false": lambda L, x: (0, False),
    "long_oob": lambda L, x: L.tensor([5]),
    "int_oob_long": lambda L, x: (5, L.tensor([0])),
    "mask_bad": lambda L, x: L.tensor([True, False, True]),
    "long2d": lambda L, x: L.tensor([[0], [0]]),
    "long_pair": lambda L, x: (L.tensor([0, 0]), L.tensor([0, 0])) if x.dim() == 2 else
    (L.tensor([0, 0]),),
    "long_apart": lambda L, x: (L.tensor([0, 0]), slice(None), L.tensor([0, 0]))
    if x.dim() == 2 else (L.tensor([0, 0]),),
    "long_no_broadcast": lambda L, x: (L.tensor([0, 0]), L.tensor([0, 0, 0]))
    if x.dim() == 2 else (L.tensor([0, 0]),),
}


def _region(L, x, key_name):
    return x.detach()[KEYS[key_name](L, x)].shape


def _values(key_name):
    """The values written: views of the target (overlapping it), numbers, tensors of the
    region's shape, broadcast, of another dtype, of a wrong shape, and non-numbers."""
    return {
        "self": lambda L, x: x,
        "self_detach": lambda L, x: x.detach(),
        "reshape_row": lambda L, x: x.reshape(1, -1),
        "first": lambda L, x: x[0],
        "flat0": lambda L, x: x.reshape(-1)[0],
        "t": lambda L, x: x.t() if x.dim() == 2 else x,
        "t_detach": lambda L, x: x.detach().t() if x.dim() == 2 else x.detach(),
        "scalar": lambda L, x: 2.5,
        "indep": lambda L, x: L.full(_region(L, x, key_name), 3.0),
        "indep_rg": lambda L, x: L.full(_region(L, x, key_name), 3.0, requires_grad=True),
        "zero_d": lambda L, x: L.tensor(4.0),
        "bcast_row": lambda L, x: L.tensor([7.0] * x.shape[-1]),
        "bad_shape": lambda L, x: L.ones(5),
        "lead_ones": lambda L, x: L.full((1, 1) + tuple(_region(L, x, key_name)), 3.0),
        "double": lambda L, x: L.full(_region(L, x, key_name), 3.0, dtype=L.float64),
        "double_0d": lambda L, x: L.tensor(4.0, dtype=L.float64),
        "np_float32": lambda L, x: np.float32(2),
        "string": lambda L, x: "a",
    }


# Values that alias an expanded target: aten's kernels read such a value while writing the
# memory it shares (e.g. x[mask] = x[0] on an expanded x sees its own writes); not emulated
# (Stop 24 open items). Non-numbers given to add_/mul_/... : the argument parser's words for
# every op, a class of its own.
ALIASING = {"self", "self_detach", "first", "flat0", "t", "t_detach"}


def _skip(kind, where, value):
    if kind == "expanded" and value in ALIASING and where in (
            "mask", "slice", "index_put_mask", "index_put_acc"):
        return True
    return value == "string" and where in ("copy_", "add_", "mul_", "clamp_", "fill_",
                                           "masked_fill_")


def _differences(kind, shape, cases):
    bad = []
    for name, act in cases:
        ours, theirs = _run(autotensor, kind, shape, act), _run(torch, kind, shape, act)
        if ours != theirs:
            bad.append((name, ours, theirs))
    return bad


@pytest.mark.parametrize("shape", [(2, 2), (1,)], ids=["2x2", "1"])
@pytest.mark.parametrize("kind", TARGETS)
def test_setitem_as_torch(kind, shape):
    """x[key] = value: errors (type and words) or the target's values, version, graph and
    tangent, for 23 index kinds x 18 values."""
    def case(key_name, value_name):
        def act(L, x):
            v = _values(key_name)[value_name](L, x)
            x[KEYS[key_name](L, x)] = v
        return act
    cases = [((k, v), case(k, v)) for k in KEYS for v in _values(k)
             if not _skip(kind, k, v)]
    assert _differences(kind, shape, cases) == []


def _tensor_value(L, v):
    return L.tensor(v) if isinstance(v, float) else v


INPLACE = {
    "copy_": lambda L, x, v: x.copy_(_tensor_value(L, v)),
    "add_": lambda L, x, v: x.add_(v),
    "mul_": lambda L, x, v: x.mul_(v),
    "clamp_": lambda L, x, v: x.clamp_(min=v),
    "fill_": lambda L, x, v: x.fill_(v),
    "masked_fill_": lambda L, x, v: x.masked_fill_(x.detach() > 0.9, v),
    "index_put_": lambda L, x, v: x.index_put_((L.tensor([0]),), _tensor_value(L, v)),
    "index_put_mask": lambda L, x, v: x.index_put_((x.detach() > 0.9,), _tensor_value(L, v)),
    "index_put": lambda L, x, v: x.index_put((L.tensor([0]),), _tensor_value(L, v)),
    "index_put_acc": lambda L, x, v: x.index_put_((L.tensor([0, 0]),), _tensor_value(L, v),
                                                  accumulate=True),
    "zero_": lambda L, x, v: x.zero_(),
    "exp_": lambda L, x, v: x.exp_(),
}


@pytest.mark.parametrize("shape", [(2, 2), (1,)], ids=["2x2", "1"])
@pytest.mark.parametrize("kind", TARGETS)
def test_inplace_ops_as_torch(kind, shape):
    """In-place ops on each target kind with each value: errors or results as torch."""
    def case(op, value_name):
        def act(L, x):
            INPLACE[op](L, x, _values("ellipsis")[value_name](L, x))
        return act
    cases = [((op, v), case(op, v)) for op in INPLACE for v in _values("ellipsis")
             if not (op in ("zero_", "exp_") and v != "scalar") and not _skip(kind, op, v)]
    assert _differences(kind, shape, cases) == []


@pytest.mark.parametrize("call", [
    "torch.index_put_(x, (i,), 5.)", "torch.index_put(x, (i,), 5.)", "torch.index_put(x, i, v)",
    "torch.index_put(x, [i], v)", "x.index_put([i], v)", "x.index_put([[0]], v)",
    "x.index_put((i, None), v)", "torch.index_put_(x, (i, None), v)", "x.index_put_((i,), 'a')",
    "x.index_put_((i, i, i), v)", "x.index_put_((i,), np.float32(2))"])
def test_index_put_arguments_as_torch(call):
    """The argument parser's errors of index_put(_) (positions after self for the method)."""
    out = []
    for L in (autotensor, torch):
        ns = {"torch": L, "np": np, "x": L.ones(2, 2), "i": L.tensor([0]), "v": L.tensor(5.)}
        try:
            out.append(np.asarray(eval(call, ns).tolist()).tolist())  # noqa: S307
        except Exception as e:  # noqa: BLE001
            out.append(f"{type(e).__name__}: {e}")
    assert out[0] == out[1]


@pytest.mark.parametrize("value", ["5.", "torch.ones(1, 2)", "torch.ones(2)"])
@pytest.mark.parametrize("key", ["m", "(0, m)", "(m,)"])
def test_setitem_byte_mask_as_torch(key, value):
    """A uint8 mask reaches index_put_ as it is: masked_fill_ refuses it for a one-element
    value; otherwise one deprecation warning."""
    out = []
    for L in (autotensor, torch):
        ns = {"torch": L, "x": L.zeros(2, 2), "m": L.tensor([1, 0], dtype=L.uint8)}
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                exec(f"x[{key}] = {value}", ns)  # noqa: S102
                got = ns["x"].tolist()
            except Exception as e:  # noqa: BLE001
                got = f"{type(e).__name__}: {e}"
        out.append((got, [str(a.message)[:40] for a in w]))
    assert out[0] == out[1]


@pytest.mark.parametrize("shape,key", [
    ((2,), "torch.ones(2, 2, dtype=torch.bool)"), ((2,), "torch.tensor([[0, 1]])"),
    ((2,), "torch.tensor([3])"), ((0,), "torch.tensor([0])"), ((0, 2), "torch.tensor([0])"),
    ((2, 3), "torch.tensor([[True, False, True]])"), ((), "torch.tensor([0])"),
    ((), "torch.tensor([True])"), ((2, 0), "(torch.tensor([0]), torch.tensor([0]))")])
@pytest.mark.parametrize("value", ["1.0", "torch.ones(3)"])
def test_setitem_index_errors_as_torch(shape, key, value):
    """Index errors of x[key] = value in aten's order (make_info's before the value's)."""
    out = []
    for L in (autotensor, torch):
        ns = {"torch": L, "x": L.zeros(shape)}
        try:
            exec(f"x[{key}] = {value}", ns)  # noqa: S102
            out.append(ns["x"].tolist())
        except Exception as e:  # noqa: BLE001
            out.append(f"{type(e).__name__}: {e}")
    assert out[0] == out[1]


# ---- in-place ops whose own checks fail: autograd's come first ----------------------------
# Each call fails in the op's own checks (an index out of range, a dtype, a shape, an
# argument) or succeeds; on a target autograd refuses (a leaf, views of one, a no_grad
# view), PyTorch's autograd kernel raises its error before the op's checks run.
FAILING = {
    "index_add_index": lambda L, x: x.index_add_(0, L.tensor([5]), L.ones(1, *x.shape[1:])),
    "index_add_dtype": lambda L, x: x.index_add_(0, L.tensor([0]),
                                                 L.ones(1, *x.shape[1:], dtype=L.float64)),
    "index_add_shape": lambda L, x: x.index_add_(0, L.tensor([0]), L.ones(3, 7)),
    "index_add_self": lambda L, x: x.index_add_(0, L.tensor([0]), x[:1]),
    "index_copy_index": lambda L, x: x.index_copy_(0, L.tensor([5]), L.ones(1, *x.shape[1:])),
    "index_copy_self": lambda L, x: x.index_copy_(0, L.tensor([0]), x[:1]),
    "index_fill_index": lambda L, x: x.index_fill_(0, L.tensor([5]), 1.0),
    "index_fill_float_index": lambda L, x: x.index_fill_(0, L.tensor([0.0]), 1.0),
    "index_reduce_reduce": lambda L, x: x.index_reduce_(0, L.tensor([0]),
                                                        L.ones(1, *x.shape[1:]), "bad"),
    "scatter_index": lambda L, x: x.scatter_(0, L.tensor([[5]]), L.ones(1, 1)),
    "scatter_dtype": lambda L, x: x.scatter_(0, L.tensor([[0]]), L.ones(1, 1, dtype=L.float64)),
    "scatter_self": lambda L, x: x.scatter_(0, L.zeros(x.shape, dtype=L.long), x),
    "scatter_add_index": lambda L, x: x.scatter_add_(0, L.tensor([[5]]), L.ones(1, 1)),
    "scatter_reduce_reduce": lambda L, x: x.scatter_reduce_(0, L.tensor([[0]]), L.ones(1, 1),
                                                            "bad"),
    "masked_scatter_shape": lambda L, x: x.masked_scatter_(L.ones(3, dtype=L.bool), L.ones(9)),
    "masked_scatter_self": lambda L, x: x.masked_scatter_(x.detach() > 0, x),
    "masked_fill_mask_shape": lambda L, x: x.masked_fill_(L.ones(3, dtype=L.bool), 1.0),
    "masked_fill_float_mask": lambda L, x: x.masked_fill_(L.ones(x.shape), 1.0),
    "masked_fill_value_dims": lambda L, x: x.masked_fill_(x.detach() > 0, L.ones(2)),
    "put_index": lambda L, x: x.put_(L.tensor([50]), L.ones(1)),
    "put_self": lambda L, x: x.put_(L.tensor([0]), x.reshape(-1)[:1]),
    "addcmul_shape": lambda L, x: x.addcmul_(L.ones(3), L.ones(3)),
    "lerp_dtype": lambda L, x: x.lerp_(L.ones(x.shape, dtype=L.float64), 0.5),
    "pow_shape": lambda L, x: x.pow_(L.ones(3)),
    "div_rounding_mode": lambda L, x: x.div_(2.0, rounding_mode="bad"),
    "div_shape": lambda L, x: x.div_(L.ones(3), rounding_mode="floor"),
    "add_shape": lambda L, x: x.add_(L.ones(3)),
    "add_complex": lambda L, x: x.add_(L.ones(x.shape, dtype=L.complex64)),
    "clamp_no_bounds": lambda L, x: x.clamp_(),
    "clamp_tensor_shape": lambda L, x: x.clamp_(L.ones(3)),
    "copy_shape": lambda L, x: x.copy_(L.ones(3)),
    "fill_dims": lambda L, x: x.fill_(L.ones(2)),
    "fill_complex": lambda L, x: x.fill_(1j),
    "uniform_range": lambda L, x: x.uniform_(2, 1),
    "normal_std": lambda L, x: x.normal_(0, -1),
    "bernoulli_p": lambda L, x: x.bernoulli_(2.0),
    "random_range": lambda L, x: x.random_(5, 2),
    "exponential_lambda": lambda L, x: x.exponential_(-1),
    "unsqueeze_dim": lambda L, x: x.unsqueeze_(5),
    "transpose_dim": lambda L, x: x.transpose_(0, 5),
    "squeeze_dim": lambda L, x: x.squeeze_(5),
    "renorm_dim": lambda L, x: x.renorm_(2, 5, 1.0),
    "cumsum_dim": lambda L, x: x.cumsum_(5),
}


@pytest.mark.parametrize("shape", [(2, 2), (1,)], ids=["2x2", "1"])
@pytest.mark.parametrize("kind", ["leaf", "leaf_view", "nograd_view", "dual_leaf"])
def test_autograd_checks_before_the_ops_own(kind, shape):
    """43 failing in-place calls on targets autograd refuses: autograd's error."""
    assert _differences(kind, shape, list(FAILING.items())) == []


@pytest.mark.parametrize("sampler", ["uniform_()", "normal_()", "bernoulli_()", "random_()",
                                     "exponential_()", "cauchy_()", "log_normal_()",
                                     "geometric_(0.5)"])
def test_refused_sampler_draws_nothing(sampler):
    """A sampler on a leaf requiring grad is refused before it draws: the generator's next
    numbers are the ones it would have given without the call."""
    out = []
    for L in (autotensor, torch):
        L.manual_seed(0)
        ns = {"x": L.zeros(3, requires_grad=True)}
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            eval(f"x.{sampler}", ns)  # noqa: S307
        out.append(L.rand(2).tolist())
    assert out[0] == out[1]


# ---- scatter / gather: aten's meta checks, then the kernel's bounds -----------------------
SCATTERS = {
    "scatter": lambda L, x, d, i, s: L.scatter(x, d, i, s),
    "scatter_value": lambda L, x, d, i, s: L.scatter(x, d, i, 2.0),
    "scatter_": lambda L, x, d, i, s: x.scatter_(d, i, s),
    "scatter_add": lambda L, x, d, i, s: L.scatter_add(x, d, i, s),
    "scatter_add_": lambda L, x, d, i, s: x.scatter_add_(d, i, s),
    "scatter_reduce": lambda L, x, d, i, s: L.scatter_reduce(x, d, i, s, "sum"),
    "scatter_reduce_bad": lambda L, x, d, i, s: L.scatter_reduce(x, d, i, s, "bad"),
    "scatter_reduce_": lambda L, x, d, i, s: x.scatter_reduce_(d, i, s, "amax"),
    "scatter_legacy": lambda L, x, d, i, s: L.scatter(x, d, i, s, reduce="add"),
    "scatter_legacy_bad": lambda L, x, d, i, s: L.scatter(x, d, i, s, reduce="bad"),
    "gather": lambda L, x, d, i, s: L.gather(x, d, i),
}
SCATTER_INDICES = [([0], np.int64), ([[0, 1]], np.int64), ([[2], [0]], np.int64),
                   ([[5]], np.int64), ([[-1]], np.int64), ([[0, 0, 0, 0]], np.int64),
                   ([[1]], np.int32), ([[0]], np.float32), ([], np.int64), (0, np.int64),
                   ([[[0]]], np.int64)]


def _scatter_run(L, f, xs, src, dim, index):
    x = L.tensor(np.arange(int(np.prod(xs)), dtype=np.float32).reshape(xs))
    s = L.tensor(np.ones(src[0], dtype=src[1]))
    i = L.tensor(np.array(index[0]).astype(index[1]))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return str(np.asarray(f(L, x, dim, i, s).tolist()).round(5).tolist())
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("call", sorted(SCATTERS))
def test_scatter_gather_checks_as_torch(call):
    """4 self shapes (0-d, 1-d, 2-d) x 4 sources x 3 dims x 11 indices (out of range,
    negative, too large off dim, int32, float, empty, 0-d, 3-d): the result or the error."""
    f = SCATTERS[call]
    bad = []
    for xs in [(), (3,), (2, 3), (3, 1)]:
        for src in [((2, 3), np.float32), ((1,), np.float32), ((2, 3), np.float64),
                    ((4, 4), np.float32)]:
            for dim in (0, -1, 1):
                for index in SCATTER_INDICES:
                    args = (xs, src, dim, index)
                    ours = _scatter_run(autotensor, f, *args)
                    theirs = _scatter_run(torch, f, *args)
                    if ours != theirs:
                        bad.append((args, ours, theirs))
    assert bad == []


# ---- out= under forward AD: refused after the write ---------------------------------------
OUT_CALLS = {
    "add_input": lambda L, d, p: L.add(d, 1, out=p),
    "add_out": lambda L, d, p: L.add(p, 1, out=d),
    "exp_input": lambda L, d, p: L.exp(d, out=p),
    "mul": lambda L, d, p: L.mul(d, d, out=p),
    "sum": lambda L, d, p: L.sum(d, 0, out=p[0]),
    "cat_input": lambda L, d, p: L.cat([d, d], out=L.zeros(4, 2)),
    "stack_input": lambda L, d, p: L.stack([d, d], out=L.zeros(2, 2, 2)),
    "mm": lambda L, d, p: L.mm(d, p, out=L.zeros(2, 2)),
    "max_dim": lambda L, d, p: L.max(d, 0, out=(L.zeros(2), L.zeros(2, dtype=L.long))),
    "sort": lambda L, d, p: L.sort(d, out=(L.zeros(2, 2), L.zeros(2, 2, dtype=L.long))),
    "argmax": lambda L, d, p: L.argmax(d, out=L.zeros((), dtype=L.long)),
    "eq": lambda L, d, p: L.eq(d, p, out=L.zeros(2, 2, dtype=L.bool)),
    "clamp": lambda L, d, p: L.clamp(d, 0, 1, out=p),
    "where": lambda L, d, p: L.where(d > 0, d, p, out=L.zeros(2, 2)),
    "pow": lambda L, d, p: L.pow(d, 2, out=p),
    "div_floor": lambda L, d, p: L.div(d, 2, rounding_mode="floor", out=p),
    "nonzero": lambda L, d, p: L.nonzero(d, out=L.zeros(0, 2, dtype=L.long)),
    "cumsum": lambda L, d, p: L.cumsum(d, 0, out=p),
    "topk": lambda L, d, p: L.topk(d, 1, out=(L.zeros(2, 1), L.zeros(2, 1, dtype=L.long))),
    "index_select": lambda L, d, p: L.index_select(d, 0, L.tensor([0]), out=L.zeros(1, 2)),
    "plain": lambda L, d, p: L.add(p, 1, out=p),
}


@pytest.mark.parametrize("call", sorted(OUT_CALLS))
def test_out_under_forward_ad_as_torch(call):
    """An out= call with a dual input or out: "Trying to use forward AD with add_out that
    does not support it because it is an out= function", after the write."""
    out = []
    for L in (autotensor, torch):
        fw = L.autograd.forward_ad
        with fw.dual_level():
            d = fw.make_dual(L.ones(2, 2), L.ones(2, 2) * 2)
            p = L.zeros(2, 2)
            try:
                OUT_CALLS[call](L, d, p)
                got = "ok"
            except Exception as e:  # noqa: BLE001
                got = f"{type(e).__name__}: {e}"
            out.append((got, p.tolist(), p._version))
    assert out[0] == out[1]


# ---- out= of structured kernels: the out's dtype must be the result's ---------------------
_A = np.arange(1, 7, dtype=np.float32).reshape(2, 3) / 7
STRUCTURED_OUT = {
    "mm": lambda L, a, o: L.mm(a, a.t(), out=o(2, 2)),
    "bmm": lambda L, a, o: L.bmm(a[None], a.t()[None], out=o(1, 2, 2)),
    "matmul": lambda L, a, o: L.matmul(a, a.t(), out=o(2, 2)),
    "addmm": lambda L, a, o: L.addmm(L.zeros(2, 2), a, a.t(), out=o(2, 2)),
    "sort": lambda L, a, o: L.sort(a, out=(o(2, 3), L.zeros(2, 3, dtype=L.long))),
    "sort_indices": lambda L, a, o: L.sort(a, out=(L.zeros(2, 3), o(2, 3))),
    "topk": lambda L, a, o: L.topk(a, 1, out=(o(2, 1), L.zeros(2, 1, dtype=L.long))),
    "max_dim": lambda L, a, o: L.max(a, 1, out=(o(2), L.zeros(2, dtype=L.long))),
    "min_dim": lambda L, a, o: L.min(a, 1, out=(o(2), L.zeros(2, dtype=L.long))),
    "maximum": lambda L, a, o: L.max(a, a, out=o(2, 3)),
    "gather": lambda L, a, o: L.gather(a, 1, L.tensor([[0], [1]]), out=o(2, 1)),
    "argmax": lambda L, a, o: L.argmax(a, 1, out=o(2)),
    "argmin": lambda L, a, o: L.argmin(a, 1, out=o(2)),
    "softmax": lambda L, a, o: L.softmax(a, 1, out=o(2, 3)),
    "log_softmax": lambda L, a, o: L.log_softmax(a, 1, out=o(2, 3)),
    "norm": lambda L, a, o: L.norm(a, 2, 1, out=o(2)),
    "diag": lambda L, a, o: L.diag(a, out=o(2)),
    "tril": lambda L, a, o: L.tril(a, out=o(2, 3)),
    "triu": lambda L, a, o: L.triu(a, out=o(2, 3)),
    "exp": lambda L, a, o: L.exp(a, out=o(2, 3)),
    "add": lambda L, a, o: L.add(a, 1, out=o(2, 3)),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "float16",
                                   "complex64"])
@pytest.mark.parametrize("call", sorted(STRUCTURED_OUT))
def test_structured_out_dtype_as_torch(call, dtype):
    """"Expected out tensor to have dtype float, but got double instead" (no cast into the
    out of mm, sort, softmax...; TensorIterator ops cast as before)."""
    out = []
    for L in (autotensor, torch):
        a = L.tensor(_A)
        try:
            r = STRUCTURED_OUT[call](L, a, lambda *s, L=L: L.zeros(s, dtype=getattr(L, dtype)))
            r = r if isinstance(r, tuple) else (r,)
            out.append([(np.asarray(t.tolist()).round(5).tolist(), str(t.dtype).split(".")[-1])
                        for t in r])
        except Exception as e:  # noqa: BLE001
            out.append(f"{type(e).__name__}: {e}")
    assert out[0] == out[1]


# ---- other in-place ops' checks in aten's order --------------------------------------------
ORDERED = [
    "x.put_(torch.tensor([50]), torch.ones(1, dtype=torch.float64))",
    "x.put_(torch.tensor([50]), torch.ones(2))",
    "x.put_(torch.tensor([50.]), torch.ones(2, dtype=torch.float64))",
    "torch.zeros(0).put_(torch.tensor([0]), torch.ones(1))",
    "x.put_(torch.tensor([-5]), torch.ones(1))", "x.put_(torch.tensor([-4]), torch.ones(1))",
    "x.put(torch.tensor([50]), torch.ones(1, dtype=torch.float64))",
    "x.take(torch.tensor([50]))",
    "x.masked_scatter_(torch.ones(3, dtype=torch.bool), torch.ones(9))",
    "x.masked_scatter_(torch.ones(1, 2, 2, dtype=torch.bool), torch.ones(9))",
    "x.masked_scatter(torch.ones(3, dtype=torch.bool), torch.ones(9))",
    "x.masked_scatter_(torch.ones(2, dtype=torch.bool), torch.ones(1))",
    "i.round_(decimals=1)", "i.round(decimals=1)", "i.round_()", "torch.round(i, decimals=0)",
    "x.round(decimals=1)", "i.exponential_(-1)", "i.exponential_()", "x.exponential_(-1)",
]


@pytest.mark.parametrize("call", ORDERED)
def test_inplace_checks_in_aten_order(call):
    out = []
    for L in (autotensor, torch):
        ns = {"torch": L, "x": L.zeros(2, 2), "i": L.tensor([1, 2])}
        try:
            r = eval(call, ns)  # noqa: S307
            out.append((np.asarray(r.tolist()).round(5).tolist() if "exponential" not in call
                        else None, str(r.dtype).split(".")[-1]))
        except Exception as e:  # noqa: BLE001
            out.append(f"{type(e).__name__}: {e}")
    assert out[0] == out[1]


# ---- reductions into out=: computed in the out's dtype (infer_dtype_from_optional) --------
_R = np.arange(1, 7, dtype=np.float32).reshape(2, 3) / 7
REDUCTION_OUT = {
    "sum": (lambda L, a, o: L.sum(a, 1, out=o), (2,)),
    "sum_all": (lambda L, a, o: L.sum(a, (0, 1), out=o), ()),
    "prod": (lambda L, a, o: L.prod(a, 1, out=o), (2,)),
    "cumsum": (lambda L, a, o: L.cumsum(a, 1, out=o), (2, 3)),
    "cumprod": (lambda L, a, o: L.cumprod(a, 1, out=o), (2, 3)),
    "nansum": (lambda L, a, o: L.nansum(a, 1, out=o), (2,)),
    "mean": (lambda L, a, o: L.mean(a, 1, out=o), (2,)),
    "sum_dtype": (lambda L, a, o: L.sum(a, 1, dtype=L.float64, out=o), (2,)),
    "logcumsumexp": (lambda L, a, o: L.logcumsumexp(a, 1, out=o), (2, 3)),
    "amax": (lambda L, a, o: L.amax(a.long(), 1, out=o), (2,)),
    "amin": (lambda L, a, o: L.amin(a, 1, out=o), (2,)),
    "all": (lambda L, a, o: L.all(a, 1, out=o), (2,)),
    "any": (lambda L, a, o: L.any(a, 1, out=o), (2,)),
    "all_full": (lambda L, a, o: L.all(a, out=o), ()),
}
# (not emulated: float16 prod's float accumulation, complex64 cumsum/cumprod's
# complex<double> accumulation, nansum's missing integer kernels: Stop 24 open items;
# complex64 mean is PyTorch's since stop 25's cascade sums)
_REDUCTION_OUT_OPEN = {("prod", "float16"), ("cumsum", "complex64"), ("cumprod", "complex64"),
                       ("nansum", "int64"), ("nansum", "bool"),
                       ("nansum", "int32"), ("nansum", "complex64")}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "float16", "int32",
                                   "complex64"])
@pytest.mark.parametrize("call", sorted(REDUCTION_OUT))
def test_reduction_out_dtype_as_torch(call, dtype):
    if (call, dtype) in _REDUCTION_OUT_OPEN:
        pytest.skip("accumulation type / missing kernel not emulated (OPEN_FINDINGS stop 24)")
    f, shape = REDUCTION_OUT[call]
    out = []
    for L in (autotensor, torch):
        try:
            r = f(L, L.tensor(_R), L.zeros(shape, dtype=getattr(L, dtype)))
            out.append((np.asarray(r.tolist()), str(r.dtype).split(".")[-1]))
        except Exception as e:  # noqa: BLE001
            out.append(f"{type(e).__name__}: {e}")
    if isinstance(out[0], str) or isinstance(out[1], str):
        assert out[0] == out[1]
    else:  # (float32 to ~1e-6: cumsum's float32 accumulation is not aten's, bit for bit)
        assert out[0][1] == out[1][1]
        np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-6, atol=0)
