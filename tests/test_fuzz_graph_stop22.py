"""Fuzz stop 22 (helper fz7a): the autograd-graph / views / forward-AD classes, each as its
reproducer (tests/fuzz/pending_stop2*) and a differential sweep of its neighbours against
PyTorch. Every test compares with torch, so the file needs it."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

LEVEL = "torch.autograd.forward_ad.enter_dual_level()"
LEAF = "v0 = torch.tensor(np.array(1.764, dtype='float32'), requires_grad=True)"
DUAL = "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(1.624, dtype=v0.dtype))"

FINDINGS = {
    # a stale view's errors come first wherever PyTorch reads grad_fn (is_leaf)
    "retain_grad twice of a custom Function view, base written under no_grad "
    "(s22 start_repro_002)":
        [LEAF, "v2 = _View.apply(v0)", "with torch.no_grad():\n    v0.add_(v0)",
         "v2.retain_grad()", "v2.retain_grad()"],
    "backward(inputs=[stale no_grad view]) (s22 start_repro_003)":
        [LEVEL, "v0 = torch.tensor(np.zeros((0,), dtype='float32'), requires_grad=True) * 1",
         "with torch.no_grad():\n    v4 = v0.transpose(0, 0)", "v0.atan2_(v0)",
         "v0.sum().backward(inputs=[v4])"],
    # mark_dirty resets the .grad of the tensor it rewrites (set_history)
    "mark_dirty after backward(inputs=[non-leaf]) (s22 start_repro_005)":
        [LEVEL, LEAF, DUAL, "v3 = v0.exp()", "v3.backward(inputs=[v3])",
         "v6 = _Dirty.apply(v3)"],
    # a gradient passed through unchanged is not shared: the sum is in place (version 1)
    "version of grad through sub(v0, v0) (s22 start_repro_010)":
        [LEVEL, LEAF, DUAL, "v4 = v0.sub(v0)", "v8 = v4.exp()",
         "v9 = torch.autograd.grad(v8, [v0])[0]"],
    # copy_: TensorIterator's overlap check before its shape check
    "copy_ of an empty tensor into an expanded gradient (s21 end_repro_003)":
        [LEVEL, "v0 = torch.tensor(np.array([1.764, 0.4], dtype='float32'), requires_grad=True)",
         "v1 = torch.tensor(np.zeros((0,), dtype='float32'))",
         "v4 = torch.autograd.grad(v0.sum(), [v0])[0]", "v4.copy_(v1)"],
    # a node computes only the gradients of edges that lead to an input
    "backward(inputs=[igamma result]) (s21 end_repro_004)":
        [LEAF, "v1 = v0.exp()", "v3 = v0.igamma(v0)", "v3.backward(inputs=[v3])"],
    "backward(inputs=[igamma result]) after unflatten (s21 fz6b_s6202_repro_003)":
        [LEAF, "v1 = v0.unflatten(0, (1, -1))", "v2 = v0.igamma(v0)",
         "v2.backward(inputs=[v2])"],
    # the version error of a saved tensor before a backward op's forward-AD refusal
    "logit's saved input marked dirty under a level (s21 fz6b_s6202_repro_002)":
        [LEVEL, LEAF, DUAL, "v6 = v0.exp()", "v7 = v6.logit()", "v8 = _Dirty.apply(v6)",
         "v7.backward()"],
    # tensordot of one element: dot when both are contiguous, else mul + sum
    # a stale view's error before the op's own checks (its node's edges come first)
    "sum with a bad dim of a stale no_grad view (s21 fz6b_s6202_repro_001)":
        [LEVEL, LEAF, DUAL, "with torch.no_grad():\n    v1 = v0.flatten()",
         "with torch.no_grad():\n    v0.atan2_(v0)", "v3 = v1.sum(2, keepdim=False)"],
    "sub(True) of a stale split (s21 repro_019)":
        [LEVEL, "v0 = torch.tensor(np.zeros((0,), dtype='float32'), requires_grad=True) * 1",
         "v1 = v0.split(1, 0)[0]", "v0.add_(v0)", "v3 = v1.sub(True)"],
    # found by this branch's fuzz run (seed 7101)
    "split of a no_grad view of a dual leaf (fz7a run repro_001)":
        [LEVEL, LEAF, DUAL, "with torch.no_grad():\n    v4 = v0.unsqueeze(0)",
         "v5 = v4.split(1, 0)[0]"],
    "logsumexp of a 0-d -0.0 (fz7a run repro_003)":
        ["v0 = torch.tensor(np.array(-0.458, dtype='float32'))", "v1 = v0.trunc()",
         "v2 = v1.logsumexp(0)"],
    "atan2_ by the transpose of a (2, 1) self (fz7a run repro_004)":
        ["v0 = torch.tensor(np.array([[1.764], [0.4]], dtype='float32'))",
         "v4 = v0.transpose(0, 1)", "v0.atan2_(v4)"],
    # a no_grad view's requires_grad is its base's, read when asked
    "no_grad view after its base's detach_() (s22 start_repro_004)":
        [LEAF, "with torch.no_grad():\n    v1 = v0.unsqueeze(0)", "v2 = v0.detach_()"],
    "inner with an expanded gradient (s21 fz6b_s6202_repro_004)":
        [LEVEL, "v0 = torch.tensor(np.array([1.764, 0.4], dtype='float32'), requires_grad=True)",
         "v2 = torch.autograd.grad(v0.sum(), [v0])[0]", "v3 = v0.inner(v2)"],
}


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_fuzz_finding(name):
    from tests.fuzz.core import run_and_compare
    try:
        run_and_compare(FINDINGS[name])
    finally:
        if autotensor.autograd.forward_ad._current[0] >= 0:
            autotensor.autograd.forward_ad.exit_dual_level()


def _both(fn):
    """fn(lib) on autotensor and on torch: (ours, theirs), each a result or an error."""
    out = []
    for lib in (autotensor, torch):
        try:
            out.append(fn(lib))
        except Exception as e:  # noqa: BLE001
            out.append(f"{type(e).__name__}: {e}")
    return out


def _r(t):
    """Values to 12 significant digits (float64 kernels that differ in the last bit)."""
    return [float(f"{v:.12g}") for v in np.asarray(t.tolist(), dtype=float).ravel()]


def _chain(t):
    """The node names along the first edges from t's grad_fn."""
    out, fn = [], t.grad_fn
    while fn is not None:
        out.append(fn.name())
        nxt = [n for n, _ in fn.next_functions if n is not None]
        fn = nxt[0] if nxt else None
    return out


# ---- gradient versions: PyTorch sums in place into a buffer only it holds ---------------
VERSION_GRAPHS = {
    "sub": lambda x: x.sub(x).exp(), "sub_root": lambda x: x.sub(x),
    "add": lambda x: x.add(x).exp(), "clone_add": lambda x: (x.clone() + x).exp(),
    "two_clones": lambda x: x.clone().exp() + x.clone(), "neg_add": lambda x: (-x + x).exp(),
    "add_neg": lambda x: (x + (-x)).exp(), "exp_sub": lambda x: x.exp().sub(x),
    "alpha": lambda x: x.add(x, alpha=2).exp(), "pos": lambda x: (+x).exp() - x,
    "view": lambda x: x.view(-1).exp().sum() + x.sum(), "mul": lambda x: x * x,
    "sub3": lambda x: x - x - x, "where": lambda x: torch_where(x),
    "select": lambda x: x[0].exp() + x[1] - x[0], "sum_sub": lambda x: x.sum() - x.sum(),
}


def torch_where(x):
    lib = autotensor if isinstance(x, autotensor.Tensor) else torch
    return lib.where(x > 0, x, x).exp()


@pytest.mark.parametrize("graph", sorted(VERSION_GRAPHS))
def test_gradient_versions_as_torch(graph):
    """The _version of autograd.grad's and .grad's gradients (which buffers PyTorch sums
    in place: a gradient still held by another pending buffer is summed out of place)."""
    f = VERSION_GRAPHS[graph]

    def run(lib):
        x = lib.tensor([1.5, 2.0], dtype=lib.float64, requires_grad=True)
        g = lib.autograd.grad(f(x).sum(), [x])[0]
        y = lib.tensor([1.5, 2.0], dtype=lib.float64, requires_grad=True)
        f(y).sum().backward()
        return g._version, y.grad._version, g.tolist(), y.grad.tolist()
    ours, theirs = _both(run)
    assert ours == theirs


def test_leaf_gradient_copied_while_another_buffer_holds_it():
    """x + y: x's AccumulateGrad runs while y's buffer still holds the shared gradient
    (PyTorch copies it into x.grad: version 1); y's then steals it (version 0)."""
    def run(lib, order):
        x = lib.tensor([1.5, 2.0], requires_grad=True)
        y = lib.tensor([1.5, 2.0], requires_grad=True)
        ((x + y) if order else (y + x)).exp().sum().backward()
        a = x * 2
        g = lib.autograd.grad((a + a.neg() + a.sin()).exp().sum(), [a])[0]
        return x.grad._version, y.grad._version, g._version
    for order in (True, False):
        ours, theirs = _both(lambda lib, order=order: run(lib, order))
        assert ours == theirs


# ---- a node computes only the gradients a target needs (task_should_compute_output) ------
@pytest.mark.parametrize("case", ["backward_self", "backward_other", "grad_other",
                                  "grad_through", "igammac", "copyslices", "fn"])
def test_only_needed_edges_are_computed(case):
    """igamma has no derivative for its input: a backward limited (inputs=, autograd.grad)
    to what does not need it computes nothing for that edge, as PyTorch; one that needs it
    raises."""
    def run(lib):
        a = lib.tensor([1.5, 2.0], dtype=lib.float64, requires_grad=True)
        b = lib.tensor([0.5, 3.0], dtype=lib.float64, requires_grad=True)
        if case == "backward_self":
            y = a.igamma(b)
            y.sum().backward(inputs=[y])
            return _r(y.grad), a.grad, b.grad
        if case == "backward_other":
            y = a.igamma(b).sum()
            y.backward(inputs=[b])
            return _r(b.grad), a.grad
        if case == "grad_other":
            return _r(lib.autograd.grad(a.igamma(b).sum(), [b])[0])
        if case == "grad_through":
            c = a * 2
            return _r(lib.autograd.grad(c.igamma(b).exp().sum(), [c])[0])
        if case == "igammac":
            return _r(lib.autograd.grad(a.igammac(b).sum(), [a])[0])
        if case == "copyslices":
            c = b * 1
            c[:1].mul_(a[:1].igamma(b[:1]))
            return _r(lib.autograd.grad(c.sum(), [b])[0])
        y = a.igamma(b)
        y.sum().backward(inputs=[a])  # (needs igamma's input derivative: raises)
        return a.grad
    ours, theirs = _both(run)
    assert ours == theirs


# ---- custom Functions: mark_dirty resets .grad (set_history of a modified input) ---------
def _dirty_cases(lib):
    class Dirty(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            a.mul_(2)
            ctx.mark_dirty(a)
            return a

        @staticmethod
        def backward(ctx, g):
            return g * 2

    out = []
    for kind in ("plain", "view", "nograd", "builtin"):
        x = lib.tensor([1.5, 2.0], requires_grad=True)
        v = x * 2
        if kind == "view":
            v = v[:]
        v.retain_grad()
        hooks = []
        v.register_hook(lambda g, hooks=hooks: hooks.append(1))
        v.sum().backward(retain_graph=True)
        r = [v.grad is not None]
        if kind == "nograd":
            with lib.no_grad():
                Dirty.apply(v)
        elif kind == "builtin":
            v.mul_(2)
        else:
            Dirty.apply(v)
        r += [v.grad is not None, v.retains_grad, type(v.grad_fn).__name__.lstrip("_")]
        v.sum().backward()
        r += [None if v.grad is None else v.grad.tolist(), len(hooks)]
        out.append((kind, r))
    return out


def test_mark_dirty_resets_grad_as_torch():
    ours, theirs = _both(_dirty_cases)
    assert ours == theirs


# ---- stale views: PyTorch's errors wherever it reads grad_fn ---------------------------
def _retain_twice(v):
    try:
        v.retain_grad()
    except RuntimeError:
        pass
    v.retain_grad()


def _stale_view_reads(lib):
    class View(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a.view_as(a)

        @staticmethod
        def backward(ctx, g):
            return g

    makers = {"nograd": None, "split": lambda x: x.split(1)[0], "fnview": View.apply}
    reads = {"retain_grad": lambda v: v.retain_grad(), "retain_twice": _retain_twice,
             "is_leaf": lambda v: v.is_leaf,
             "register_hook": lambda v: v.register_hook(lambda g: g),
             "post_acc_hook": lambda v: v.register_post_accumulate_grad_hook(lambda t: None),
             "backward_inputs": None}
    out = []
    for mk, f in makers.items():
        for read, r in reads.items():
            for write_grad in (True, False):
                try:
                    x = lib.tensor([1.5, 2.5], requires_grad=True)
                    base = x * 1
                    if f is None:
                        with lib.no_grad():
                            v = base.view(-1)
                    else:
                        v = f(base)
                    if write_grad:
                        base.mul_(2)
                    else:
                        with lib.no_grad():
                            base.mul_(2)
                    if r is None:
                        base.sum().backward(inputs=[v])
                        res = "ok"
                    else:
                        res = r(v)
                        res = res if isinstance(res, bool) else "ok"
                    out.append((mk, read, write_grad, res))
                except Exception as e:  # noqa: BLE001
                    out.append((mk, read, write_grad, f"{type(e).__name__}: {e}"))
    return out


def test_stale_view_errors_where_torch_reads_grad_fn():
    """retain_grad, is_leaf, register_hook, register_post_accumulate_grad_hook and
    backward(inputs=) of a no_grad / multi-output / custom Function view whose base was
    written (with grad mode on or off)."""
    ours, theirs = _both(_stale_view_reads)
    diff = [(a, b) for a, b in zip(ours, theirs) if a != b]
    assert not diff and len(ours) == len(theirs), diff[:3]


# ---- overlap before shapes (TensorIterator) ---------------------------------------------
@pytest.mark.parametrize("src", ["empty", "wrong", "two_d", "scalar"])
@pytest.mark.parametrize("op", ["copy_", "add_", "mul_", "lerp_", "setitem", "clamp_"])
def test_expanded_self_overlap_before_shape(op, src):
    def run(lib):
        x = lib.tensor([1.5]).expand(3)
        s = {"empty": lib.zeros(0), "wrong": lib.ones(2), "two_d": lib.ones(2, 3),
             "scalar": lib.tensor(2.0)}[src]
        if op == "copy_":
            x.copy_(s)
        elif op == "lerp_":
            x.lerp_(s, 0.5)
        elif op == "setitem":
            x[...] = s
        elif op == "clamp_":
            x.clamp_(s)
        else:
            getattr(x, op)(s)
        return x.tolist()
    ours, theirs = _both(run)
    assert ours == theirs


# ---- tensordot's one-element result: dot or mul + sum -----------------------------------
@pytest.mark.parametrize("a_kind", ["plain", "expanded", "strided", "two_d", "t"])
@pytest.mark.parametrize("b_kind", ["plain", "expanded", "strided"])
def test_one_element_tensordot_graph_as_torch(a_kind, b_kind):
    """aten's tensordot: for one output element, dot of the flattened inputs when both are
    contiguous after the permutation, else (t1.squeeze() * t2.squeeze()).sum()."""
    def make(lib, kind, rg):
        if kind == "plain":
            t = lib.tensor([1.5, -2.0, 0.5], requires_grad=rg)
        elif kind == "expanded":
            t = lib.tensor([1.5], requires_grad=rg).expand(3)
        elif kind == "strided":
            t = lib.tensor([1.5, 9.0, -2.0, 9.0, 0.5, 9.0], requires_grad=rg)[::2]
        elif kind == "two_d":
            t = lib.tensor([[1.5, -2.0, 0.5]], requires_grad=rg)
        else:
            t = lib.tensor([[1.5], [-2.0], [0.5]], requires_grad=rg).t()
        return t

    def run(lib):
        a, b = make(lib, a_kind, True), make(lib, b_kind, True)
        r = lib.inner(a, b) if a.dim() == b.dim() == 1 else lib.tensordot(
            a, b.reshape(1, 3) if a.dim() == 2 else b, ([a.dim() - 1], [b.dim() - 1]) if
            a.dim() == 1 else ([0, 1], [0, 1]))
        g = lib.autograd.grad(r.sum(), [a])[0]
        return _chain(r), r.shape, round(float(r.sum()), 5), g.tolist()
    ours, theirs = _both(run)
    assert ours == theirs


# ---- the version error of a saved tensor comes before a backward op's forward-AD refusal
@pytest.mark.parametrize("op", ["logit", "silu", "mish", "hardsigmoid"])
@pytest.mark.parametrize("dirty", ["custom", "builtin", "none"])
def test_saved_version_error_before_forward_ad_refusal(op, dirty):
    def run(lib):
        class Dirty(lib.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                a.mul_(2)
                ctx.mark_dirty(a)
                return a

            @staticmethod
            def backward(ctx, g):
                return g * 2

        fw = lib.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(lib.tensor(0.3, requires_grad=True), lib.tensor(1.0))
            v = x.exp() * 0.1
            y = getattr(lib.nn.functional, op)(v) if op != "logit" else v.logit()
            if dirty == "custom":
                Dirty.apply(v)
            elif dirty == "builtin":
                v.mul_(2)
            y.backward()
            return "ok"
    ours, theirs = _both(run)
    assert ours == theirs


# ---- a view's requires_grad reads its base's (DifferentiableViewMeta::requires_grad) ----
def _view_requires_grad_cases(lib, level=False):
    class View(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a.view_as(a)

        @staticmethod
        def backward(ctx, g):
            return g

    makers = {"unsqueeze": lambda x: x.unsqueeze(0), "view": lambda x: x.view(-1),
              "getitem": lambda x: x[:1], "transpose": lambda x: x.transpose(0, 0),
              "split": lambda x: x.split(1)[0], "fnview": View.apply,
              "viewofview": lambda x: x.view(-1)[:1]}
    events = {"none": lambda x: None, "detach_": lambda x: x.detach_(),
              "requires_grad_false": lambda x: x.requires_grad_(False),
              "setter": lambda x: setattr(x, "requires_grad", False)}
    reads = {"flag": lambda v: (v.requires_grad, v.is_leaf),
             "op": lambda v: [(r.requires_grad, _name(r.grad_fn)) for r in _ops_of(lib, v)],
             "retain_grad": lambda v: v.retain_grad(),
             "register_hook": lambda v: v.register_hook(lambda g: g) and "ok",
             "inplace": lambda v: v.mul_(2).requires_grad,
             "fn_input": lambda v: View.apply(v).requires_grad}
    out = []
    for mk, f in makers.items():
        for mode in ("grad", "nograd"):
            for ev, e in events.items():
                for rd, r in reads.items():
                    try:
                        x = lib.tensor([1.5, 2.5], requires_grad=True)
                        if level:  # (a dual tensor made a leaf of its own)
                            x = lib.autograd.forward_ad.make_dual(
                                x.detach(), lib.ones(2)).requires_grad_()
                        if mode == "grad":
                            v = f(x)
                        else:
                            with lib.no_grad():
                                v = f(x)
                        e(x)
                        out.append((mk, mode, ev, rd, r(v)))
                    except Exception as exc:  # noqa: BLE001
                        out.append((mk, mode, ev, rd, f"{type(exc).__name__}: {exc}"))
    return out


def _ops_of(lib, v):
    """One result of each kind of op (elementwise with a scalar or a tensor, rsub, pow
    either way, casts, multi-output views, reductions, products, indexing, joins)."""
    w = lib.ones_like(v)
    return [v * 2, v + w, 1 - v, v ** 2, 2 ** v, v.to(lib.float64), v.split(1)[0],
            v.unbind()[0], v.chunk(1)[0], v.sum(), v.mean(0), v.exp(), v @ w.transpose(0, -1),
            v.clone(),
            lib.where(v > 0, v, w), lib.cat([v, w]), lib.stack([v, w]), v[0], v.expand(2, -1),
            v.reshape(-1), v.abs(), v.clamp(0, 1), v.lerp(w, 0.5), v.softmax(0), v.max(0)[0],
            v.norm(), v.cumsum(0), v.sub(w, alpha=2), v.pow(w), v.atan2(w),
            v.unsqueeze(0).squeeze(0) if v.dim() == 2 else v.dot(w)]


def _name(fn):
    return None if fn is None else fn.name().lstrip("_")


@pytest.mark.parametrize("level", [False, True])
def test_view_requires_grad_follows_its_base_as_torch(level):
    """A view's requires_grad is its own flag, its grad_fn, or its base's (asked when
    read): a no_grad view stops requiring grad with its base's detach_() /
    requires_grad_(False); views with history keep it. 7 view makers x 2 modes x 4 base
    events x 6 reads (the flag, an op on it, retain_grad, register_hook, an in-place op, a
    custom Function input), with or without a dual base."""
    def run(lib):
        if not level:
            return _view_requires_grad_cases(lib)
        with lib.autograd.forward_ad.dual_level():
            return _view_requires_grad_cases(lib, True)
    ours, theirs = _both(run)
    diff = [(a, b) for a, b in zip(ours, theirs) if a != b]
    assert not diff and len(ours) == len(theirs), diff[:4]


# ---- Note [View errors before an op's checks] -------------------------------------------
ERRING_OPS = {
    "sum_dim": lambda v: v.sum(2), "mean_dims": lambda v: v.mean((0, 0)),
    "softmax": lambda v: v.softmax(3), "cumsum": lambda v: v.cumsum(-3),
    "max_dim": lambda v: v.max(4), "logsumexp": lambda v: v.logsumexp(5),
    "std": lambda v: v.std(7), "sort": lambda v: v.sort(2), "topk": lambda v: v.topk(1, 4),
    "transpose": lambda v: v.transpose(0, 5), "unsqueeze": lambda v: v.unsqueeze(4),
    "select": lambda v: v.select(3, 0), "flip": lambda v: v.flip(6), "squeeze": lambda v:
    v.squeeze(4), "diagonal": lambda v: v.diagonal(0, 0, 7),
    "sub_bool": lambda v: v.sub(True), "add_alpha_bool": lambda v: v.add(v, alpha=True),
    "add_shape": lambda v: v + v.new_ones(5), "mul_shape": lambda v: v.mul(v.new_ones(3)),
    "atan2_complex": lambda v: v.atan2(v.new_ones(2) * 1j),
    "abs_bool": lambda v: (v > 0).abs(),
    "view_shape": lambda v: v.view(3), "view_infer": lambda v: v.view(-1, 3),
    "expand": lambda v: v.expand(3), "mm_shapes": lambda v: v[None].mm(v[None]),
    "mm_dims": lambda v: v.mm(v[None]), "view_as": lambda v: v.view_as(v.new_ones(5)),
    # no node in PyTorch: the op's own error (argmax, comparisons)
    "argmax": lambda v: v.argmax(3), "eq_shape": lambda v: v.eq(v.new_ones(5)),
}


def _stale_view_op_errors(lib):
    class View(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a.view_as(a)

        @staticmethod
        def backward(ctx, g):
            return g

    makers = {"nograd": None, "split": lambda x: x.split(2)[0], "fnview": View.apply,
              "fresh": lambda x: x.view(-1)}
    out = []
    for mk, f in makers.items():
        for write in ("grad", "nograd", "none"):
            for mode in ("grad", "nograd"):
                for name, op in ERRING_OPS.items():
                    x = lib.tensor([1.5, -2.5], requires_grad=True)
                    base = x * 1
                    if f is None:
                        with lib.no_grad():
                            v = base.view(-1)
                    else:
                        v = f(base)
                    if write == "grad":
                        base.mul_(2)
                    elif write == "nograd":
                        with lib.no_grad():
                            base.mul_(2)
                    try:
                        if mode == "grad":
                            op(v)
                        else:
                            with lib.no_grad():
                                op(v)
                        res = "ok"
                    except Exception as e:  # noqa: BLE001
                        res = f"{type(e).__name__}: {e}"
                    out.append((mk, write, mode, name, res))
    return out


def test_view_errors_come_before_an_ops_own_checks():
    """A stale no_grad / multi-output / custom Function view given to an op whose own
    check fails (dims of reductions and view ops, broadcasting, bool / complex refusals,
    alpha): PyTorch's view error first when the op records a node (grad mode on), the op's
    error otherwise (grad mode off, a non-differentiable op, a fresh view)."""
    ours, theirs = _both(_stale_view_op_errors)
    diff = [(a, b) for a, b in zip(ours, theirs) if a != b]
    assert not diff and len(ours) == len(theirs), diff[:4]


# ---- partial overlap: PyTorch compares the strides of size-1 dims as they are ------------
OVERLAP_INPUTS = {
    "t_2x1": ((2, 1), lambda x: x.t()), "t_1x2": ((1, 2), lambda x: x.t()),
    "t_1x1": ((1, 1), lambda x: x.t()), "t_2x2": ((2, 2), lambda x: x.t()),
    "unsqueeze": ((2,), lambda x: x.unsqueeze(0)), "squeeze": ((2, 1), lambda x: x.squeeze(1)),
    "flip_view": ((3,), lambda x: x[1:]), "same": ((2, 1), lambda x: x.view(2, 1)),
    "reshape_1x2": ((2, 1), lambda x: x.reshape(1, 2)), "expand": ((1,), lambda x: x.expand(1)),
    "permute3": ((2, 1, 3), lambda x: x.permute(1, 0, 2)),
}


@pytest.mark.parametrize("op", ["atan2_", "add_", "mul_", "copy_", "lerp_"])
@pytest.mark.parametrize("case", sorted(OVERLAP_INPUTS))
def test_inplace_input_overlap_as_torch(op, case):
    """An in-place op whose input is a view of self: Full overlap (same range and strides,
    size-1 dims with their own strides) passes to the shape check, Partial raises."""
    shape, f = OVERLAP_INPUTS[case]

    def run(lib):
        x = lib.arange(1.0, 1.0 + np.prod(shape)).reshape(shape)
        y = f(x)
        if op == "lerp_":
            x.lerp_(y, 0.5)
        else:
            getattr(x, op)(y)
        return x.tolist()
    ours, theirs = _both(run)
    assert ours == theirs


def test_zero_d_reductions_of_negative_zero_as_torch():
    """A reduction of a 0-d tensor keeps -0.0 or not as PyTorch's kernel (logsumexp:
    log(exp(x - x)) + x is +0.0)."""
    def run(lib):
        x = lib.tensor(-0.0)
        rs = [x.prod(0), x.max(0)[0], x.median(0)[0], x.kthvalue(1, 0)[0], x.cummax(0)[0],
              x.mode(0)[0], x.sum(0), x.mean(0), x.amax(0), x.logsumexp(0), x.softmax(0),
              x.log_softmax(0), x.cumsum(0), x.cumprod(0), x.nansum(0), x.norm(),
              x.var(0, correction=0), x.logcumsumexp(0), x.amin(0), x.min(0)[0]]
        return [str(t.item()) for t in rs]
    ours, theirs = _both(run)
    assert ours == theirs
