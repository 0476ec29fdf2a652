"""A traced call turned into straight-line Python on arrays: the forward program, the
backward program per pattern of incoming gradients, and the one node that stands for the
whole region in the autograd graph.

Note [Replaying bit for bit]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The forward program calls, in the traced order, each op's replay function on the slot
arrays: the op's kernel itself for elementwise ops whose public function is a plain
kernel call (``_unary_fn`` / ``_binary_fn`` bodies), else the public function applied to
bare tensors under no_grad (correct for any deterministic op, slower). Every replay is
checked against eager on the traced arrays (bits, dtype, shape and strides), so the
chain of replays computes what eager computes. The backward program calls each node's
formulas (Note [One formula, two interpretations]) with the slot arrays the node saved,
in the order the engine would run the nodes (newest ready node first), summing
gradients that meet at a node in the order they would arrive there, and applies the
node's un-broadcast (Note [Un-broadcast in the engine]). So values and gradients equal
eager's bit for bit; only the bookkeeping (Tensors, nodes, the engine's heap) is gone.
"""
import heapq
from sys import getrefcount

from .._backend import np
from .. import _errors
from .._dtypes import from_numpy, tensor_string
from .._ops.raw import RAW
from .._tensor import _make, Tensor
from ..autograd import grad_mode
from ..autograd.graph import AccumulateGrad, Node, _sequence, ZERO_MATERIALIZING
from .._zero_grad import ZeroGrad
from .trace import TraceFailed, fill

_state = grad_mode.state
ndarray = np.ndarray
_asarray = np.asarray
_UNARY_CODE = _BINARY_CODE = None


def _fast_codes():
    global _UNARY_CODE, _BINARY_CODE
    if _UNARY_CODE is None:
        from .._ops import _common
        # (the bodies are the out-less twins, Note [out= arguments]; torch.f is a wrapper)
        _UNARY_CODE = _common._unary_fn(_Dummy(), "").method.__code__
        _BINARY_CODE = _common._binary_fn(_Dummy(), "").method.__code__
    return _UNARY_CODE, _BINARY_CODE


class _Dummy:
    name = "dummy"
    kernel = kernel_no_alpha = recorders = layout = None


def _closure(fn):
    return dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__)))


def _is_ref(x):
    return x.__class__.__name__ == "_Ref"


def _t_kernel(a):
    return a.T


def _mse_mean(a, b):
    diff = a - b
    sq = diff * diff
    return _asarray(sq.mean()).astype(a.dtype, copy=False)


def _fast_t(rec, arrays):
    tpl = rec.template
    if len(tpl) == 1 and _is_ref(tpl[0]) and arrays[tpl[0].slot].ndim <= 2:
        return _t_kernel, (("s", tpl[0].slot),)
    return None


def _fast_addmm(rec, arrays):
    from .._ops.linalg import ADDMM
    tpl = rec.template
    kw = rec.kwtemplate or {}
    if (len(tpl) == 3 and all(_is_ref(x) for x in tpl) and
            all(v.__class__ is int and v == 1 for v in kw.values())):
        return ADDMM.kernel, tuple(("s", x.slot) for x in tpl) + (("c", 1), ("c", 1))
    return None


def _fast_mse(rec, arrays):
    tpl = rec.template
    if (len(tpl) >= 2 and _is_ref(tpl[0]) and _is_ref(tpl[1]) and not rec.kwtemplate and
            tuple(tpl[2:]) == (None, None, "mean", None)[:len(tpl) - 2]):
        a, b = arrays[tpl[0].slot], arrays[tpl[1].slot]
        if a.shape == b.shape and a.dtype == b.dtype:
            return _mse_mean, (("s", tpl[0].slot), ("s", tpl[1].slot))
    return None


_FAST = {}


def _fast_table():
    """Public functions with an array replay of their own (checked against eager like
    every replay): linear's pieces and the MSE loss."""
    if not _FAST:
        from .._ops import linalg, shape
        from ..nn import functional
        _FAST.update({shape.t: _fast_t, linalg.addmm: _fast_addmm,
                      functional.mse_loss: _fast_mse})
    return _FAST


def fast_replay(rec, arrays):
    """(kernel, argument spec) for an op replayable by its kernel alone, else None.
    Spec items: ("s", slot) or ("c", value)."""
    unary, binary = _fast_codes()
    fn = rec.fn
    fn = getattr(fn, "method", fn)  # (torch.f's body is its out-less twin)
    code = fn.__code__
    tpl = rec.template
    special = _fast_table().get(fn)
    if special is not None:
        return special(rec, arrays)
    kw = rec.kwtemplate
    if kw and not (kw.get("out") is None and (
            (code is unary and len(kw) == 1) or
            (code is binary and kw.get("alpha", 1).__class__ is int and
             kw.get("alpha", 1) == 1))):
        return None
    if code is unary and len(tpl) == 1 and tpl[0].__class__.__name__ == "_Ref":
        env = _closure(fn)
        d = arrays[tpl[0].slot]
        if d.dtype.kind in "fc" or (not env["float_op"] and d.dtype.kind in "iu"):
            return env["kernel"], (("s", tpl[0].slot),)
    if code is binary and len(tpl) == 2 and tpl[0].__class__.__name__ == "_Ref":
        env = _closure(fn)
        kernel = env["kernel"]
        a = arrays[tpl[0].slot]
        other = tpl[1]
        if other.__class__ in (float, int) and a.dtype.kind == "f":
            return kernel, (("s", tpl[0].slot), ("c", other))
        if other.__class__.__name__ == "_Ref":
            b = arrays[other.slot]
            if a.dtype is b.dtype and a.shape == b.shape:
                return kernel, (("s", tpl[0].slot), ("s", other.slot))
    return None


def generic_replay(rec, slots, params=()):
    """The op applied to bare tensors (grad mode is off while a forward program runs);
    called with the arrays of ``slots``. With ``params`` (positions in its node's saved
    values), run with the traced requires-grad pattern, and those values of its node are
    returned after the outputs."""
    fn, tpl, kwtpl = rec.fn, rec.template, rec.kwtemplate
    if params:
        req = rec.req

        def make(a, s):
            t = _make(a)
            t._requires_grad = s in req
            return t
    else:
        def make(a, s):
            return _make(a)

    def run(*vals):
        arrays = dict(zip(slots, vals))
        if params:
            prev = _state.enabled
            _state.enabled = True
        try:
            args = fill(tpl, arrays, make)
            kwargs = fill(kwtpl, arrays, make) if kwtpl else {}
            res = fn(*args, **kwargs)
        finally:
            if params:
                _state.enabled = prev
        flat = []
        _flat(res, flat)
        out = tuple([t._data for t in flat])
        if params:
            node = next(t._grad_fn for t in flat if t._grad_fn is not None)
            out += tuple([node._saved[p] for p in params])
        return out
    return run


def _flat(x, out):
    if isinstance(x, Tensor):
        out.append(x)
    elif isinstance(x, (tuple, list)):
        for v in x:
            _flat(v, out)


def _same(a, b):
    """Bit-identical arrays with the same layout."""
    if a.__class__ is not ndarray or b.__class__ is not ndarray:
        return False
    if a.dtype != b.dtype or a.shape != b.shape or a.strides != b.strides:
        return False
    return a.tobytes() == b.tobytes()


class Program:
    """One traced call compiled: ``run`` replays it on new tensors."""

    def __init__(self, trace, arg_slots, ext_slots, out_spec, out_slots, graph, boundary,
                 out_roots):
        self.trace_len = len(trace.tensors)
        self.arg_slots = arg_slots  # slot per flattened tensor argument
        self.ext = [trace.tensors[s] for s in ext_slots]
        self.ext_slots = ext_slots
        self.out_spec = out_spec
        self.out_slots = out_slots  # distinct op slots returned, in order
        self.nodes, self.node_index = graph
        self.boundary = boundary  # boundary index -> input slot
        self.out_roots = out_roots  # differentiable output i -> (node index, nr)
        self._build_forward(trace)
        self.backwards = {}

    # ---- forward ------------------------------------------------------------------
    def _build_forward(self, trace):
        arrays = [t._data for t in trace.tensors]
        env = {"_asarray": _asarray}
        lines = []
        params = [f"s{s}" for s in self.arg_slots] + [f"s{s}" for s in self.ext_slots]
        # parameters nodes computed at the call (Note [Replaying bit for bit]): the op is
        # replayed with its node, and those values are taken from it
        needs = {}  # record -> [(node index, saved position)]
        for n, info in enumerate(self.nodes):
            for pos, (k, _v) in enumerate(info.saved):
                if k == "p":
                    needs.setdefault(info.owner, []).append((n, pos))
        self.param_vars = {}  # (node index, saved position) -> forward variable
        self.bumps = []  # (slot of a buffer updated in place, version increment)
        for i, rec in enumerate(trace.records):
            need = needs.get(i, ())
            fast = None if need or rec.mutates else fast_replay(rec, arrays)
            eager_outs = [arrays[s] for s in rec.outs if s is not None]
            if fast is not None:
                kernel, spec = fast
                vals = [arrays[v] if k == "s" else v for k, v in spec]
                r = kernel(*vals)
                wrap = r.__class__ is not ndarray
                if wrap:
                    r = _asarray(r)
                got = (r,)
                env[f"k{i}"] = kernel
                argv = []
                for k, v in spec:
                    if k == "s":
                        argv.append(f"s{v}")
                    else:
                        env[f"c{i}_{len(argv)}"] = v
                        argv.append(f"c{i}_{len(argv)}")
                call = f"k{i}({', '.join(argv)})"
                if wrap:
                    call = f"_asarray({call})"
            else:
                uniq = list(dict.fromkeys(rec.ins))
                run = generic_replay(rec, uniq, [pos for _, pos in need])
                # (a buffer the op updates: checked on a copy of what it held before)
                before = {s: b.copy() for s, _, b in rec.mutates}
                prev = _state.enabled
                _state.enabled = False
                try:
                    got = run(*[before.get(s, arrays[s]) for s in uniq])
                finally:
                    _state.enabled = prev
                for s, b in before.items():
                    if not _same(b, arrays[s]):
                        raise TraceFailed(f"the replay of {rec.name} does not match eager")
                if need:
                    for (n, pos), v in zip(need, got[len(rec.outs):]):
                        self.param_vars[n, pos] = f"p{n}_{pos}"
                        if v is not self.nodes[n].saved[pos][1] and \
                                v != self.nodes[n].saved[pos][1]:
                            raise TraceFailed(f"the replay of {rec.name} does not match "
                                              "eager")
                    got = got[:len(rec.outs)]
                env[f"g{i}"] = run
                call = f"g{i}({', '.join(f's{s}' for s in uniq)})"
            self.bumps += [(s, d) for s, d, _ in rec.mutates]
            full = [arrays[s] if s is not None else None for s in rec.outs]
            if len(got) != len(full):
                raise TraceFailed(f"the replay of {rec.name} does not match eager")
            for g, e, s in zip(got, full, rec.outs):
                if s is not None and not _same(g, e):
                    raise TraceFailed(f"the replay of {rec.name} does not match eager")
            del eager_outs
            names = [f"s{s}" if s is not None else "_" for s in rec.outs]
            if fast is not None:
                lines.append(f"    {names[0]} = {call}")
            else:
                names += [f"p{n}_{pos}" for n, pos in need]
                lines.append(f"    {', '.join(names)}, = {call}")
            rec.replay = call
        saved = sorted({v for info in self.nodes for k, v in info.saved if k == "s"})
        self.saved_slots = saved
        outs = ", ".join(f"s{s}" for s in self.out_slots)
        sv = ", ".join([f"s{s}" for s in saved] + list(self.param_vars.values()))
        src = (f"def forward({', '.join(params)}):\n" + "\n".join(lines or ["    pass"])
               + f"\n    return ({outs}{',' if outs else ''}), ({sv}{',' if sv else ''})\n")
        self.forward_src = src
        exec(compile(src, "<autotensor.compile forward>", "exec"), env)
        self.forward = env["forward"]

    # ---- backward -----------------------------------------------------------------
    def backward_for(self, pattern):
        fn = self.backwards.get(pattern)
        if fn is None:
            fn = self.backwards[pattern] = self._build_backward(pattern)
        return fn

    def _build_backward(self, pattern):
        """Straight-line code for the engine's run over the internal nodes, seeded with the
        outputs' gradients where ``pattern`` says they are not None."""
        nodes = self.nodes
        roots = [(self.out_roots[i], i) for i, p in enumerate(pattern) if p]
        reach = set()
        stack = [r[0][0] for r in roots]
        while stack:
            n = stack.pop()
            if n in reach:
                continue
            reach.add(n)
            for e in nodes[n].next:
                if e is not None and e[0] == "n":
                    stack.append(e[1])
        deps = dict.fromkeys(reach, 0)
        for n in reach:
            for e in nodes[n].next:
                if e is not None and e[0] == "n":
                    deps[e[1]] += 1
        env = {"F": RAW, "sum_to": RAW.sum_to, "cast": RAW.cast, "ndarray": ndarray,
               "ZeroGrad": ZeroGrad, "sum_zero": _sum_zero}
        lines = []
        buf = {}  # node -> [expression or None per output]
        bnd = {}  # boundary index -> variable
        counter = [0]

        def var():
            counter[0] += 1
            return f"v{counter[0]}"

        def deliver(key, store, expr):
            old = store.get(key)
            if old is None and expr.isidentifier():
                store[key] = expr
            elif old is None:
                v = var()
                lines.append(f"    {v} = {expr}")
                store[key] = v
            else:
                # (None-safe: a formula may give no gradient)
                lines.append(f"    {old} = {old} + {expr} if {expr}.__class__ is ndarray else "
                             f"sum_zero({old}, {expr})")

        for (n, nr), i in roots:
            b = buf.setdefault(n, [None] * nodes[n].n_out)
            if b[nr] is None:
                v = var()
                lines.append(f"    {v} = G[{i}]")
                b[nr] = v
            else:
                lines.append(f"    {b[nr]} = {b[nr]} + G[{i}]")
        heap = [(-nodes[n].seq, n) for (n, _), _ in roots if deps[n] == 0]
        heap = list(dict.fromkeys(heap))
        heapq.heapify(heap)
        saved_pos = {s: k for k, s in enumerate(self.saved_slots)}
        var_pos = {key: len(saved_pos) + k for k, key in enumerate(self.param_vars)}
        while heap:
            _, n = heapq.heappop(heap)
            info = nodes[n]
            op = info.op
            gv = buf.pop(n, None) or [None] * info.n_out
            outs = [None] * len(info.next)
            if any(g is not None for g in gv):
                vals = []
                for pos, (k, v) in enumerate(info.saved):
                    if k == "s":
                        vals.append(f"S[{saved_pos[v]}]")
                    elif k == "p":
                        vals.append(f"S[{var_pos[n, pos]}]")
                    else:
                        name = f"c{n}_{len(vals)}"
                        env[name] = v
                        vals.append(name)
                if op.n_out == 1:
                    g = gv[0]
                    if op.node_name in ZERO_MATERIALIZING and g is not None:
                        # (Note [Zero-tensor gradients] in _zero_grad.py: a fused kernel)
                        v = var()
                        lines.append(f"    {v} = {g}.view(ndarray) if {g}.__class__ is "
                                     f"ZeroGrad else {g}")
                        g = v
                else:
                    g = f"[{', '.join(x or 'None' for x in gv)}]"
                if op.backward_all is not None:
                    env[f"ba{n}"] = op.backward_all
                    o = var()
                    lines.append(f"    {o} = ba{n}(F, {g}, {', '.join(vals)})")
                    for j, e in enumerate(info.next):
                        if e is not None:
                            outs[j] = f"{o}[{j}]"
                else:
                    for j, e in enumerate(info.next):
                        f = op.formulas[j] if j < len(op.formulas) else None
                        if e is None or f is None:
                            continue
                        fn, idx = f
                        env[f"f{n}_{j}"] = fn
                        o = var()
                        args = "".join(f", {vals[k]}" for k in idx)
                        lines.append(f"    {o} = f{n}_{j}(F, {g}{args})")
                        outs[j] = o
                reduce = info.reduce
                if reduce is not None:
                    for j, r in enumerate(reduce):
                        if r is not None and outs[j] is not None:
                            shape, dtype = r
                            o = outs[j]
                            if not o.isidentifier():
                                v = var()
                                lines.append(f"    {v} = {o}")
                                o = outs[j] = v
                            env[f"sh{n}_{j}"] = shape
                            env[f"dt{n}_{j}"] = dtype
                            lines.append(f"    if {o} is not None:")
                            lines.append(f"        if {o}.shape != sh{n}_{j}: "
                                         f"{o} = sum_to({o}, sh{n}_{j})")
                            lines.append(f"        if {o}.dtype != dt{n}_{j}: "
                                         f"{o} = cast({o}, dt{n}_{j})")
            for j, e in enumerate(info.next):
                if e is None:
                    continue
                o = outs[j]
                if e[0] == "n":
                    m, nr = e[1], e[2]
                    deps[m] -= 1
                    if o is not None:
                        b = buf.setdefault(m, [None] * nodes[m].n_out)
                        if b[nr] is None and o.isidentifier():
                            b[nr] = o  # (each formula's result is delivered once)
                        elif b[nr] is None:
                            v = var()
                            lines.append(f"    {v} = {o}")
                            b[nr] = v
                        else:
                            lines.append(f"    {b[nr]} = {b[nr]} + {o} if {o}.__class__ is "
                                         f"ndarray else sum_zero({b[nr]}, {o})")
                    if deps[m] == 0:
                        heapq.heappush(heap, (-nodes[m].seq, m))
                elif o is not None:
                    deliver(e[1], bnd, o)
        ret = ", ".join(bnd.get(b, "None") for b in range(len(self.boundary)))
        src = ("def backward(G, S):\n" + "\n".join(lines or ["    pass"]) +
               f"\n    return [{ret}]\n")
        exec(compile(src, "<autotensor.compile backward>", "exec"), env)
        fn = env["backward"]
        fn.src = src
        return fn


class CompiledFunctionBackward(Node):
    """The whole compiled region as one node of the autograd graph (PyTorch's name)."""

    __slots__ = ("_prog", "_saved", "_vcs", "_n_out", "_pattern_cache")

    def apply(self, grads, F):
        if not F.is_raw:
            raise RuntimeError("torch.compile with aot_autograd does not currently support "
                               "double backward")
        saved = self._saved
        if saved is None:
            raise RuntimeError(_errors.BACKWARD_TWICE)
        for vc, expected, t in self._vcs:
            if vc[0] != expected:
                d = t._data
                raise RuntimeError(_errors.SAVED_MODIFIED.format(
                    type=tensor_string(from_numpy(d.dtype)), shape=_errors.shape_str(d.shape),
                    nr=t._output_nr, op="CompiledFunctionBackward", now=vc[0],
                    saved=expected))
        pattern = tuple(g is not None for g in grads)
        outs = self._prog.backward_for(pattern)(grads, saved)
        task = _state.graph_task
        if task is not None and task.needed is None and self._hooks is None:
            _steal(self._next, outs)  # (a hook on this node sees every gradient)
        return outs

    def release(self):
        self._saved = None


# Note [Stealing gradients]
# ~~~~~~~~~~~~~~~~~~~~~~~~~
# A leaf's first gradient is copied into ``.grad`` (engine.accumulate_grad); PyTorch
# instead steals the buffer when nothing else holds it. The compiled backward knows its
# results' references: a gradient for a leaf that has no ``.grad`` yet, no hooks and no
# meta, in a plain backward() (no autograd.grad capture, no ``inputs=``), that is a
# C-contiguous writeable array of the leaf's dtype and shape, referenced only by the
# results list (and, for a view, whose base is referenced only by it), becomes ``.grad``
# as is; the edge then gets None and the leaf's AccumulateGrad has nothing left to do.
# Same values and layout as the copy, one copy of every parameter's gradient less.
def _steal(edges, outs):
    for j, (n, _) in enumerate(edges):
        if n.__class__ is not AccumulateGrad or n._hooks is not None:
            continue
        var = n.variable
        if var._grad is not None or var._meta is not None:
            continue
        a = outs[j]
        if a.__class__ is not ndarray:
            continue
        d = var._data
        if a.dtype != d.dtype or a.shape != d.shape or not a.flags.c_contiguous or \
                not a.flags.writeable or not d.flags.c_contiguous:
            continue
        base = a.base
        if base is None:
            if getrefcount(a) != 3:  # outs, a, the argument
                continue
        elif base.__class__ is not ndarray or base.base is not None or \
                getrefcount(base) != 3 or getrefcount(a) != 3:  # (a, base, the argument)
            continue
        var._grad = _make(a)
        outs[j] = None


def _sum_zero(old, g):
    """``old + g`` in the backward program where g is not an array: None (no gradient),
    or a zero tensor, added in place into a buffer only the program holds (materialized:
    -0.0 becomes +0.0), as the engine's buffers (engine._sum_zero)."""
    if g is None:
        return old
    if g.__class__ is ZeroGrad and old.__class__ is ndarray and old.base is None and \
            getrefcount(old) <= 3 and old.flags.writeable:  # (the program's variable,
        return old + g.view(ndarray)  # the argument, getrefcount's)
    return old + g


def new_node(prog, saved, next_edges, vcs, n_out):
    node = object.__new__(CompiledFunctionBackward)
    node._next = next_edges
    node._seq = next(_sequence)
    node._hooks = None
    node._prog = prog
    node._saved = saved
    node._vcs = vcs
    node._n_out = n_out
    return node
