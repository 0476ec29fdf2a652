"""``autotensor.compile``: PyTorch's ``torch.compile`` for a model or a function.

Note [Compiled regions]
~~~~~~~~~~~~~~~~~~~~~~~
The first call with given guards runs eagerly while a trace records the ops that run
(Note [Tracing by profiling] in trace.py) and the backward graph they build; the trace
becomes a forward program on arrays and, when gradients are needed, a backward program
per pattern of incoming gradients (Note [Replaying bit for bit] in program.py). Later
calls whose guards match replay the forward program (no Tensor, node or dispatch per
op), wrap the outputs, and give the differentiable ones one node,
``CompiledFunctionBackward``, whose edges are the traced inputs' and parameters' edges,
so eager graphs before and after the region work as before.

Guards: grad mode; per tensor argument its shape, dtype and requires_grad; other
arguments by value; the tensors the trace read that are not arguments (parameters,
buffers, closed-over tensors) by identity (a module's parameter replaced by another
object retraces), shape, dtype and requires_grad, not by value (an optimizer step
changes values in place; the program reads them at each call); every module the trace
called, by its ``training`` flag. A miss retraces, up to ``_dynamo.config.
recompile_limit`` versions per function; past it, eager with a warning (as dynamo does).
What a trace cannot capture runs eagerly for calls with those guards, or raises
``autotensor._dynamo.exc.Unsupported`` with ``fullgraph=True``. Anomaly mode,
saved-tensor hooks, forward AD and inference mode run eagerly (raise under fullgraph).
``create_graph=True`` through a compiled region raises PyTorch's aot_autograd error.

While a profiler holds ``sys.setprofile`` (cProfile), a call that would trace runs
eagerly instead (tracing needs the profile hook); compiled versions already made run.

Not guarded (as a deliberate limit): Python values the function reads from globals or
closures (they are baked in), and hooks added to a module after its trace.
"""
import sys
import warnings
import weakref

from .._backend import np
from .._tensor import Tensor, _make
from ..autograd import anomaly_mode, grad_mode
from .._dynamo import config
from .._dynamo.exc import Unsupported
from . import trace as _trace
from .program import CompiledFunctionBackward, Program, new_node

__all__ = ["compile", "CompiledFunctionBackward", "OptimizedModule"]

_state = grad_mode.state
_all = weakref.WeakSet()
_MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")


def _reset():
    for c in list(_all):
        c._cache.clear()
        c._count = 0


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None,
            options=None, disable=False):
    """Compile ``model`` (a Module or a function): see Note [Compiled regions].
    ``dynamic``, ``backend``, ``mode`` and ``options`` are accepted for PyTorch's
    signature; every backend replays the traced kernels."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: "
                           f"{', '.join(_MODES)}")
    if model is None:
        def decorator(m):
            return compile(m, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                           mode=mode, options=options, disable=disable)
        return decorator
    if not callable(model):
        raise RuntimeError("compile() expected a callable or a Module, got "
                           f"{type(model).__name__}")
    if disable:
        return model
    from ..nn import Module
    if isinstance(model, Module):
        def call(*args, **kwargs):
            return model(*args, **kwargs)
        call.__qualname__ = type(model).__qualname__ + ".__call__"
        return OptimizedModule(model, _Compiled(call, fullgraph))
    compiled = _Compiled(model, fullgraph)

    def compiled_fn(*args, **kwargs):
        return compiled(*args, **kwargs)
    compiled_fn.__name__ = getattr(model, "__name__", "compiled_fn")
    compiled_fn.__qualname__ = getattr(model, "__qualname__", compiled_fn.__name__)
    compiled_fn.__doc__ = getattr(model, "__doc__", None)
    compiled_fn.__wrapped__ = model
    compiled_fn._torchdynamo_orig_callable = model
    compiled_fn._compiled = compiled
    return compiled_fn


def _module_class():
    from ..nn import Module
    return Module


def OptimizedModule(mod, compiled):
    """The wrapper of a compiled Module (PyTorch's ``OptimizedModule``)."""
    cls = _optimized_module_class()
    return cls(mod, compiled)


_OM = []


def _optimized_module_class():
    if _OM:
        return _OM[0]
    Module = _module_class()

    class OptimizedModule(Module):
        """A Module whose calls run compiled; attributes, parameters, state_dict (keys
        prefixed ``_orig_mod.``) and train/eval are the original module's."""

        _opt_mod_attributes = {"_orig_mod", "dynamo_ctx", "_compiled"}

        def __init__(self, mod, compiled):
            object.__setattr__(self, "_orig_mod", mod)
            super().__init__()
            self._modules["_orig_mod"] = mod
            object.__setattr__(self, "_compiled", compiled)

        def __call__(self, *args, **kwargs):
            return self._compiled(*args, **kwargs)

        def forward(self, *args, **kwargs):
            return self._compiled(*args, **kwargs)

        def __getattr__(self, name):
            if name == "_orig_mod":
                return self._modules["_orig_mod"]
            return getattr(self._orig_mod, name)

        def __setattr__(self, name, value):
            if hasattr(type(self), name) or name in self._opt_mod_attributes:
                return object.__setattr__(self, name, value)
            return setattr(self._orig_mod, name, value)

        @property
        def training(self):
            return self._orig_mod.training

        @training.setter
        def training(self, value):
            pass  # (Module.__init__ sets it; the original module's flag is the one)

        def train(self, mode=True):
            self._orig_mod.train(mode)
            return self

        def __len__(self):
            return len(self._orig_mod)

        def __repr__(self):
            return f"OptimizedModule(\n  (_orig_mod): {self._orig_mod!r}\n)"

    OptimizedModule.__module__ = "autotensor._compile"
    _OM.append(OptimizedModule)
    return OptimizedModule


class _Entry:
    """One compiled version: the program and what must hold for a call to use it."""

    __slots__ = ("prog", "ext", "ext_meta", "ext_paths", "modules", "boundary",
                 "out_kind", "diff_nr", "n_diff", "spec", "vc_src", "bound_src", "bumps")

    def valid(self):
        for d, name, t in self.ext_paths:
            if d.get(name) is not t:
                return False
        for t, meta in zip(self.ext, self.ext_meta):
            d = t._data
            if d.shape != meta[0] or d.dtype != meta[1] or t._requires_grad != meta[2]:
                return False
        for m, flag in self.modules:
            if m.training is not flag:
                return False
        return True

    def run(self, tensors):
        prog = self.prog
        prev = _state.enabled
        _state.enabled = False
        try:
            outs, saved = prog.forward(*[t._data for t in tensors],
                                       *[t._data for t in self.ext])
        finally:
            _state.enabled = prev
        for i, d in self.bumps:  # buffers updated in place (Note [Buffers updated in place])
            self.ext[i]._vc[0] += d
        results = []
        node = None
        if self.n_diff:
            ext = self.ext
            inputs = [tensors[i] if k == 0 else ext[i] for k, i in self.bound_src]
            edges = tuple([_edge_of(t) for t in inputs])
            vcs = [(t._vc, t._vc[0], t) for t in
                   [tensors[i] if k == 0 else ext[i] for k, i in self.vc_src]]
            node = new_node(prog, saved, edges, vcs, self.n_diff)
        diff_nr = self.diff_nr
        for j, a in enumerate(outs):
            t = _make(a)
            nr = diff_nr[j]
            if nr >= 0:
                t._grad_fn = node
                t._requires_grad = True
                t._output_nr = nr
                if self.out_kind[j]:  # saved by the backward: checked for in-place changes
                    node._vcs.append((t._vc, 0, t))
            results.append(t)
        return _unflatten(self.spec, results, tensors, self.ext)


class _Eager:
    """Guards under which the function could not be captured: it runs eagerly."""

    __slots__ = ("modules", "reason")

    def valid(self):
        for m, flag in self.modules:
            if m.training is not flag:
                return False
        return True


def _edge_of(t):
    from .._ops.dispatch import edge_of
    global _edge_of
    _edge_of = edge_of
    return edge_of(t)


class _Compiled:
    """The compiled callable: cache of versions by guards (Note [Compiled regions])."""

    def __init__(self, fn, fullgraph):
        self._fn = fn
        self._fullgraph = fullgraph
        self._cache = {}
        self._count = 0
        self._warned = False
        _all.add(self)

    def __call__(self, *args, **kwargs):
        st = _state
        if _trace.active:
            return self._fn(*args, **kwargs)  # inside another trace: traced with it
        if st.fw or st.extras or st.inference or anomaly_mode._enabled:
            if self._fullgraph:
                raise Unsupported("compile: anomaly mode, saved-tensor hooks, forward AD or "
                                  "inference mode is active")
            return self._fn(*args, **kwargs)
        tensors = []
        key = [st.enabled]
        for a in args:
            if a.__class__ is Tensor:
                d = a._data
                tensors.append(a)
                key.append((d.shape, d.dtype, a._requires_grad))
            else:
                key.append(_key(a, tensors))
        if kwargs:
            key.append(_key(kwargs, tensors))
        try:
            key = tuple(key)
            entries = self._cache.get(key)
        except TypeError:  # an unhashable argument
            return self._fn(*args, **kwargs)
        if entries is not None:
            for e in entries:
                if e.valid():
                    if e.__class__ is _Eager:
                        return self._fn(*args, **kwargs)  # not capturable: eager
                    return e.run(tensors)
        if sys.getprofile() is not None:
            # a profiler (cProfile...) owns sys.setprofile, which tracing needs: eager,
            # and traced on a later call without one
            return self._fn(*args, **kwargs)
        if self._count >= config.recompile_limit:
            if not self._warned:
                self._warned = True
                warnings.warn(f"autotensor.compile hit config.recompile_limit "
                              f"({config.recompile_limit}): function "
                              f"{getattr(self._fn, '__qualname__', self._fn)} runs eagerly "
                              "for new guards", UserWarning, stacklevel=2)
            return self._fn(*args, **kwargs)
        return self._trace(key, args, kwargs, tensors)

    def _trace(self, key, args, kwargs, tensors):
        from .. import _random
        tr = _trace.Trace(self._fullgraph)
        arg_slots = []
        for t in tensors:
            s = tr.slot_of.get(id(t))
            arg_slots.append(s if s is not None else tr.add_slot(t, "arg"))
        rng = np.array(_random.get_rng_state(), copy=True)
        modules = tr.modules
        try:
            with _trace.Profile(tr):
                result = self._fn(*args, **kwargs)
            if tr.failed is None and not np.array_equal(rng, _random.get_rng_state()):
                tr.fail("a random op (the generator's state changed)")
            entry = None
            if tr.failed is None:
                entry = _build(tr, arg_slots, result, modules)
            if tr.failed is not None:
                raise _trace.TraceFailed(tr.failed)
        except _trace.TraceFailed as e:
            if self._fullgraph:
                raise Unsupported(f"compile(fullgraph=True) cannot capture this: {e}") \
                    from None
            tr.failed = tr.failed or str(e)
            entry = None
        self._count += 1
        if entry is None:
            eager = _Eager()
            eager.modules = [(m, m.training) for m in dict.fromkeys(modules)]
            eager.reason = tr.failed
            self._cache.setdefault(key, []).append(eager)
            return result
        self._cache.setdefault(key, []).append(entry)
        if entry.bumps:
            return result  # (the call updated buffers already: not run a second time)
        # the traced call's own result comes from the program too (one node, as later)
        del result, tr
        return entry.run(tensors)


def _key(x, tensors):
    """A hashable guard for a non-tensor argument (tensors inside are collected)."""
    if isinstance(x, Tensor):
        tensors.append(x)
        d = x._data
        return ("T", d.shape, d.dtype, x._requires_grad)
    if type(x) in (tuple, list):
        return (type(x),) + tuple(_key(v, tensors) for v in x)
    if type(x) is dict:
        return (dict,) + tuple((k, _key(v, tensors)) for k, v in x.items())
    if isinstance(x, (int, float, str, bool, complex, type(None), np.dtype)) or \
            x.__class__.__module__.startswith("autotensor"):
        return (type(x), x)
    return ("id", id(x))


def _spec(x, out):
    """The structure of a result, tensors replaced by their index in ``out``."""
    if isinstance(x, Tensor):
        out.append(x)
        return ("t", len(out) - 1)
    if type(x) in (tuple, list):
        return (type(x),) + tuple(_spec(v, out) for v in x)
    if type(x) is dict:
        return (dict, tuple((k, _spec(v, out)) for k, v in x.items()))
    if isinstance(x, (int, float, str, bool, complex, type(None))):
        return ("c", x)
    raise _trace.TraceFailed(f"a result of type {type(x).__name__}")


def _unflatten(spec, results, tensors, ext):
    head = spec[0]
    if head == "o":
        return results[spec[1]]
    if head == "a":
        return tensors[spec[1]]
    if head == "e":
        return ext[spec[1]]
    if head == "c":
        return spec[1]
    if head is dict:
        return {k: _unflatten(v, results, tensors, ext) for k, v in spec[1]}
    return head(_unflatten(v, results, tensors, ext) for v in spec[1:])


def _build(tr, arg_slots, result, modules):
    """The compiled version of a finished trace (raises TraceFailed)."""
    from .._ops.dispatch import edge_of
    out_tensors = []
    spec = _spec(result, out_tensors)
    out_slot = []
    for t in out_tensors:
        s = tr.slot(t)
        if s is None:
            raise _trace.TraceFailed(tr.failed)
        out_slot.append(s)
    if tr.failed is not None:
        raise _trace.TraceFailed(tr.failed)
    ext_slots = [s for s, k in enumerate(tr.kind) if k == "ext"]
    # the traced inputs' edges (the boundary of the region's backward)
    boundary, bslots = {}, []
    if _state.enabled:
        for s, k in enumerate(tr.kind):
            t = tr.tensors[s]
            if k != "op" and t._requires_grad or (k != "op" and t._view is not None and
                                                  t.requires_grad):
                e = edge_of(t)
                if e[0] is not None:
                    boundary.setdefault((id(e[0]), e[1]), len(bslots))
                    bslots.append(s)
    # distinct op slots returned, and which of them are differentiable outputs
    op_outs = list(dict.fromkeys(s for s in out_slot if tr.kind[s] == "op"))
    diff_tensors = [tr.tensors[s] for s in op_outs
                    if tr.tensors[s]._grad_fn is not None and tr.tensors[s]._grad_fn in tr.owned]
    infos, index = _trace.graph_of(tr, diff_tensors, boundary)
    used = sorted({e[1] for info in infos for e in info.next if e is not None and e[0] == "b"})
    remap = {b: i for i, b in enumerate(used)}
    for info in infos:
        info.next = [e if e is None or e[0] == "n" else ("b", remap[e[1]], 0)
                     for e in info.next]
    bslots = [bslots[b] for b in used]
    out_roots = [(index[t._grad_fn], t._output_nr) for t in diff_tensors]
    prog = Program(tr, arg_slots, ext_slots, spec, op_outs, (infos, index), bslots, out_roots)
    entry = _Entry()
    entry.prog = prog
    entry.ext = [tr.tensors[s] for s in ext_slots]
    entry.ext_meta = [(t._data.shape, t._data.dtype, t._requires_grad) for t in entry.ext]
    paths = {}
    for m in modules:
        for dname in ("_parameters", "_buffers"):
            d = m.__dict__.get(dname) or {}
            for name, v in d.items():
                if v is not None:
                    paths.setdefault(id(v), (d, name, v))
    entry.ext_paths = [paths[id(t)] for t in entry.ext if id(t) in paths]
    entry.modules = [(m, m.training) for m in dict.fromkeys(modules)]
    diff_slots = {id(t): k for k, t in enumerate(diff_tensors)}
    entry.diff_nr = [diff_slots.get(id(tr.tensors[s]), -1) for s in op_outs]
    entry.n_diff = len(diff_tensors)
    saved = set(prog.saved_slots)
    entry.out_kind = [s in saved for s in op_outs]
    arg_index = {s: i for i, s in enumerate(arg_slots)}
    ext_index = {s: i for i, s in enumerate(ext_slots)}
    entry.bound_src = [(0, arg_index[s]) if s in arg_index else (1, ext_index[s])
                       for s in bslots]
    entry.vc_src = [(0, arg_index[s]) if s in arg_index else (1, ext_index[s])
                    for s in sorted(saved) if tr.kind[s] != "op"]
    # the result's structure: op outputs by position, inputs returned as themselves
    op_pos = {s: i for i, s in enumerate(op_outs)}

    def leaf(k):
        s = out_slot[k]
        if tr.kind[s] == "op":
            return ("o", op_pos[s])
        if s in arg_index:
            return ("a", arg_index[s])
        return ("e", ext_index[s])

    def convert(sp):
        head = sp[0]
        if head == "t":
            return leaf(sp[1])
        if head == "c":
            return sp
        if head is dict:
            return (dict, tuple((k, convert(v)) for k, v in sp[1]))
        return (head,) + tuple(convert(v) for v in sp[1:])
    entry.spec = convert(spec)
    entry.bumps = [(ext_index[s], d) for s, d in prog.bumps]
    entry.boundary = bslots
    return entry
