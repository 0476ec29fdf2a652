"""Tracing one call of a compiled function: which ops ran, on which tensors, and what
backward graph they built.

Note [Tracing by profiling]
~~~~~~~~~~~~~~~~~~~~~~~~~~~
The eager dispatch path pays nothing for ``compile``: no flag is read per op. For the one
traced call a profile function (``sys.setprofile``, this thread only) watches Python
calls: a call of a public op function (``autotensor.*``, ``nn.functional.*``, the Tensor
methods and operators: however the caller got hold of it) is recorded with its
arguments and result if no other op ran inside it (the innermost ops: ``F.linear``
records as ``t`` and ``addmm``); ``_tensor._make`` calls tell which tensors were made
during the trace, and ``Module.__call__`` which modules ran. The call itself runs
eagerly (so the traced call computes eager's result). Each recorded op gets a replay
function on arrays (the op's own kernel where its public function is a plain kernel
call, else the op itself applied to bare tensors under no_grad) that is checked, bit for
bit and stride for stride, against what eager computed before the trace is accepted.

Note [Buffers updated in place]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
An op may update in place a tensor from outside the call that no gradient flows through
(batch norm's running statistics, ``num_batches_tracked.add_(1)``): its replay is the op
itself on the buffer's memory (so the buffer is updated at every call), checked at trace
time on a copy of what the buffer held before, and the buffer's version counter is bumped
by as much as eager bumped it. Any other in-place op (on an argument, on a tensor
computed in the call, on a tensor requiring grad) makes the trace fail.

What cannot be replayed makes the trace fail (eager for such calls; ``fullgraph=True``
raises ``Unsupported``): a tensor value read into Python (``.item()``, ``bool()``,
``tolist()``, printing), an op that changed a tensor in place, a random op (the
generator's state moved), hooks or ``retain_grad`` on a traced tensor, a tensor made by
code that is not a recorded op, a backward node no recorded op made
(``autograd.Function``), saved-tensor hooks, module hooks.
"""
import sys
import types

from .._backend import np
from .. import _tensor
from .._tensor import Tensor
from ..autograd import grad_mode
from ..autograd.graph import OpNode, _sequence
from ..autograd.saved import GuardedKey, SavedTensor

_state = grad_mode.state
ndarray = np.ndarray
_orig_make = _tensor._make

# Calls that only read metadata: they may return Python values.
_META = frozenset((
    "size", "dim", "ndimension", "numel", "nelement", "stride", "is_contiguous",
    "element_size", "is_floating_point", "is_complex", "get_device", "data_ptr",
    "storage_offset", "__len__", "__hash__", "type", "is_inference", "_is_view", "__iter__",
    "is_signed", "is_nonzero_shape", "result_type", "is_tensor", "numel", "is_same_size",
    "__dir__", "__sizeof__", "__contains__"))
# Calls a trace cannot contain, with why.
_UNSUPPORTED = {
    "backward": "backward() inside the compiled region",
    "register_hook": "a hook registered on a traced tensor",
    "register_post_accumulate_grad_hook": "a hook registered on a traced tensor",
    "retain_grad": "retain_grad() on a traced tensor",
    "requires_grad_": "requires_grad_() on a traced tensor",
    "detach_": "detach_() on a traced tensor",
}
# Ops whose output shape depends on tensor values.
_DATA_SHAPE = frozenset(("nonzero", "masked_select", "unique", "unique_consecutive",
                         "argwhere", "repeat_interleave", "bincount"))
# Never patched: construction and plumbing of the Tensor class.
_NOT_OPS = frozenset(("__new__", "__init__", "__getattr__", "__setattr__", "__delattr__",
                      "__deepcopy__", "__reduce_ex__", "_grad_accumulator", "_meta_dict",
                      "_root_array", "__init_subclass__", "__class_getitem__",
                      "__array_priority__"))
_NOT_FUNCTIONS = frozenset(("compile", "manual_seed", "seed", "initial_seed", "get_rng_state",
                            "set_rng_state", "set_default_dtype", "get_default_dtype",
                            "set_printoptions", "get_printoptions", "is_grad_enabled",
                            "is_inference_mode_enabled", "set_anomaly_enabled",
                            "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "load",
                            "save", "set_num_threads", "get_num_threads",
                            "set_num_interop_threads", "get_num_interop_threads",
                            "set_default_device", "get_default_device"))


class TraceFailed(Exception):
    """Why a call cannot be captured (becomes ``Unsupported`` under fullgraph)."""


class _Ref:
    """A tensor's place in an op's argument template."""

    __slots__ = ("slot",)

    def __init__(self, slot):
        self.slot = slot


class OpRecord:
    """One recorded op: the function, its argument template (``_Ref`` for tensors), the
    slots it reads and writes, and the array function that replays it."""

    __slots__ = ("fn", "name", "template", "kwtemplate", "ins", "outs", "replay", "req",
                 "mutates")


class Trace:
    """The state of one traced call (Note [Tracing by profiling])."""

    def __init__(self, fullgraph):
        self.fullgraph = fullgraph
        self.failed = None  # the reason, once something could not be captured
        self.stack = []
        self.slot_of = {}  # id(tensor) -> slot
        self.tensors = []  # slot -> the traced tensor (kept alive: ids stay unique)
        self.kind = []  # slot -> "arg", "ext" or "op"
        self.born = set()  # ids of tensors _make produced during the trace
        self.keep = []  # every tensor born (ids stay unique while the trace lives)
        self.records = []
        self.owned = {}  # node -> index of the op record that made it
        self.modules = []  # every Module called during the trace
        self.ranges = []  # (first, last) sequence numbers of each recorded op's nodes
        self.updated = set()  # ids of buffers a recorded op updated in place
        self.start_seq = next(_sequence)

    # ---- failures -----------------------------------------------------------------
    def fail(self, why):
        if self.failed is None:
            self.failed = why  # (raised for fullgraph once the call returns)

    # ---- slots --------------------------------------------------------------------
    def add_slot(self, t, kind):
        slot = len(self.tensors)
        self.slot_of[id(t)] = slot
        self.tensors.append(t)
        self.kind.append(kind)
        return slot

    def slot(self, t):
        s = self.slot_of.get(id(t))
        if s is not None:
            return s
        if id(t) in self.born:
            self.fail("a tensor made by code that is not a recorded op")
            return None
        fn = t._grad_fn
        if fn is not None and fn._seq > self.start_seq:
            self.fail("a tensor made by code that is not a recorded op")
            return None
        if t._meta is not None and (t._meta.get("fw_grad") is not None or
                                    t._meta.get("inference")):
            self.fail("a dual or inference tensor read by the compiled region")
            return None
        return self.add_slot(t, "ext")

    # ---- the profile function (Note [Tracing by profiling]) --------------------------
    def profile(self, frame, event, arg):
        if event == "call":
            code = frame.f_code
            name = _names.get(code)
            if name is not None:
                self.enter(frame, code, name)
            elif code is _MAKE_CODE:
                self.stack.append((frame, None, None))
            elif code is _MODULE_CALL_CODE:
                self.module_called(frame.f_locals.get("self"))
        elif event == "return":
            stack = self.stack
            if stack and stack[-1][0] is frame:
                _, entry, _ = stack.pop()
                if entry is None:  # _make returned
                    if arg is not None:
                        self.born.add(id(arg))
                        self.keep.append(arg)
                else:
                    self.leave(entry, arg)

    def module_called(self, mod):
        if mod is None:
            return
        self.modules.append(mod)
        d = mod.__dict__
        if (d.get("_forward_hooks") or d.get("_forward_pre_hooks") or
                d.get("_backward_hooks") or d.get("_backward_pre_hooks") or
                _module_mod._global_forward_hooks or _module_mod._global_forward_pre_hooks or
                _module_mod._global_backward_hooks or
                _module_mod._global_backward_pre_hooks):
            self.fail("module hooks")

    def enter(self, frame, code, name):
        if self.failed is not None or name in _META:
            return  # (metadata reads do not make their caller a composite op)
        for _frame, entry, _ in reversed(self.stack):
            if entry is not None:
                entry[0] = True  # the enclosing op is not innermost
                break
        loc = frame.f_locals
        names = code.co_varnames
        n = code.co_argcount
        k = code.co_kwonlyargcount
        args = [loc[v] for v in names[:n]]
        kwargs = {v: loc[v] for v in names[n:n + k]}
        i = n + k
        if code.co_flags & 4:
            args.extend(loc[names[i]])
            i += 1
        if code.co_flags & 8:
            kwargs.update(loc[names[i]])
        ins = []
        _flat_tensors(args, ins)
        if kwargs:
            _flat_tensors(tuple(kwargs.values()), ins)
        # what a buffer held before the op (an op may update it in place, e.g. batch
        # norm's running statistics: Note [Buffers updated in place])
        before = {id(t): t._data.copy() for t in ins if self._maybe_buffer(t)}
        entry = [False, code, name, args, kwargs, ins, [t._vc[0] for t in ins],
                 tuple(loc[v] for v in code.co_freevars), frame.f_globals, next(_sequence),
                 before]
        self.stack.append((frame, entry, None))

    def leave(self, entry, result):
        if self.failed is not None:
            return
        inner, code, name, args, kwargs, ins, versions, free, globals_, seq0, before = entry
        mutated = []
        if ins:
            why = _UNSUPPORTED.get(name)
            if why is not None:
                self.fail(why)
                return
            for t, v in zip(ins, versions):
                if t._vc[0] != v:
                    if inner and id(t) in self.updated:
                        continue  # (an inner op's update, recorded with it)
                    if inner or id(t) not in before:
                        self.fail(f"an in-place op ({name}) on a traced tensor")
                        return
                    mutated.append((t, t._vc[0] - v, before[id(t)]))
        if inner:
            return  # its inner ops were recorded
        outs = []
        if not _flat_tensors_strict(result, outs):
            if ins and name not in _META:
                self.fail(f"a tensor's value read into Python ({name})")
            return
        if not outs:
            return
        if name in _DATA_SHAPE or (name == "__getitem__" and any(
                t._data.dtype == np.bool_ for t in ins[1:])):
            self.fail(f"an op whose output shape depends on tensor values ({name})")
            return
        n = len(self.records)
        self.record(_function_of(code, free, globals_), name, tuple(args), kwargs, ins, outs)
        if len(self.records) > n:  # nodes made inside the op (getitem's chain of views)
            self.ranges.append((seq0, next(_sequence), n))
            rec = self.records[n]
            rec.mutates = [(self.slot_of[id(t)], d, b) for t, d, b in mutated]
            for t, _, _ in mutated:
                self.updated.add(id(t))

    def _maybe_buffer(self, t):
        """A tensor from before the call that no gradient flows through (a buffer): an op
        may update it in place (Note [Buffers updated in place])."""
        if t._requires_grad or t._grad_fn is not None or t._view is not None or \
                id(t) in self.born:
            return False
        s = self.slot_of.get(id(t))
        return s is None or self.kind[s] == "ext"

    def record(self, orig, name, args, kwargs, ins, outs):
        in_slots = []
        for t in ins:
            s = self.slot(t)
            if s is None:
                return
            in_slots.append(s)
        rec = OpRecord()
        rec.fn, rec.name = orig, name
        rec.template = _template(args, self.slot_of)
        rec.kwtemplate = _template(kwargs, self.slot_of) if kwargs else None
        rec.ins = in_slots
        rec.mutates = ()
        rec.req = frozenset(s for s, t in zip(in_slots, ins) if t._requires_grad)
        out_slots = []
        index = len(self.records)
        for t in outs:
            if id(t) in self.slot_of:
                out_slots.append(None)  # an input returned as is (x.float() of a float)
                continue
            out_slots.append(self.add_slot(t, "op"))
            fn = t._grad_fn
            if fn is not None:
                self.owned.setdefault(fn, index)
        rec.outs = out_slots
        rec.replay = None
        self.records.append(rec)


def _flat_tensors(x, out):
    """The tensors in an argument (nested tuples, lists and dicts)."""
    if isinstance(x, Tensor):
        out.append(x)
    elif isinstance(x, (tuple, list)):
        for v in x:
            if isinstance(v, Tensor):
                out.append(v)
            elif isinstance(v, (tuple, list, dict)):
                _flat_tensors(v, out)
    elif isinstance(x, dict):
        _flat_tensors(tuple(x.values()), out)


def _flat_tensors_strict(x, out):
    """The tensors of a result; False if it holds anything but tensors and None."""
    if isinstance(x, Tensor):
        out.append(x)
        return True
    if x is None:
        return True
    if isinstance(x, (tuple, list)):
        return all(_flat_tensors_strict(v, out) for v in x)
    return False


def _template(x, slot_of):
    if isinstance(x, Tensor):
        return _Ref(slot_of[id(x)])
    if type(x) is tuple or type(x) is list:
        return type(x)(_template(v, slot_of) for v in x)
    if type(x) is dict:
        return {k: _template(v, slot_of) for k, v in x.items()}
    return x


def fill(template, arrays, make):
    """The arguments of a generic replay: ``_Ref`` leaves become bare tensors."""
    if template.__class__ is _Ref:
        return make(arrays[template.slot], template.slot)
    if type(template) is tuple or type(template) is list:
        return type(template)(fill(v, arrays, make) for v in template)
    if type(template) is dict:
        return {k: fill(v, arrays, make) for k, v in template.items()}
    return template


# ---- what the profile function watches -----------------------------------------------
_names = {}  # code object of a public op function -> its name
_functions = {}  # code object -> [functions] (closures made by one factory share code)
_MAKE_CODE = _orig_make.__code__
_MODULE_CALL_CODE = None
_module_mod = None


def _op_functions():
    """Fill ``_names`` and ``_functions`` with every public op function and Tensor
    method (once)."""
    global _MODULE_CALL_CODE, _module_mod
    if _names:
        return
    import autotensor
    from .. import _ops
    from ..nn import functional as F
    from ..nn.modules import module
    _module_mod = module
    _MODULE_CALL_CODE = module.Module.__call__.__code__
    found = {}
    for mod in (autotensor, _ops, F):
        for name, v in vars(mod).items():
            if (isinstance(v, types.FunctionType) and not name.startswith("_") and
                    name not in _NOT_FUNCTIONS):
                found.setdefault(v, name)
    for name, v in vars(Tensor).items():
        if isinstance(v, types.FunctionType) and name not in _NOT_OPS:
            found[v] = name
    for fn, name in found.items():
        _names.setdefault(fn.__code__, name)
        _functions.setdefault(fn.__code__, []).append(fn)


def _function_of(code, free, globals_):
    """The function a frame runs: by its code, and its closure's values (functions made
    by one factory share their code); a closure of such a factory that is not itself
    public is rebuilt from the frame's values."""
    fns = _functions[code]
    if not code.co_freevars:
        return fns[0]
    for fn in fns:
        cells = fn.__closure__ or ()
        if len(cells) == len(free) and all(c.cell_contents is v for c, v in zip(cells, free)):
            return fn
    proto = fns[0]
    fn = types.FunctionType(code, globals_, code.co_name, proto.__defaults__,
                            tuple(types.CellType(v) for v in free))
    fn.__kwdefaults__ = proto.__kwdefaults__
    return fn


class Profile:
    """Installs the trace's profile function in this thread for one call."""

    def __init__(self, trace):
        self.trace = trace
        self.prev = None

    def __enter__(self):
        global active
        _op_functions()
        active += 1
        self.prev = sys.getprofile()
        sys.setprofile(self.trace.profile)
        return self

    def __exit__(self, *exc):
        global active
        sys.setprofile(self.prev)
        active -= 1


active = 0  # traces running (a compiled function called inside one runs eagerly: its
# ops are the enclosing trace's)


# ---- the backward graph the trace built ----------------------------------------------
class NodeInfo:
    """An internal node of the traced graph, as the compiled backward replays it."""

    __slots__ = ("seq", "op", "n_out", "saved", "next", "reduce", "name", "owner")


def _is_argument(v, rec):
    """Whether ``v`` is one of the op call's own arguments (a constant of the trace)."""
    if v is None or isinstance(v, (str, bool, int)):
        return True  # (ints and tuples of ints: dims and sizes, fixed by the guards)
    if isinstance(v, tuple) and all(isinstance(x, (int, type(None))) for x in v):
        return True
    vals = list(rec.template) + list((rec.kwtemplate or {}).values())
    return any(v is a or (type(v) is type(a) and v == a) for a in vals
               if not isinstance(a, (list, dict)))


def graph_of(trace, out_tensors, boundary):
    """The internal nodes reachable from the outputs' grad_fns, newest first, with their
    saved values as slots or constants and their edges as internal nodes or boundary
    slots. ``boundary``: (id(node), nr) -> slot for the edges of the traced inputs."""
    index = {}
    order = []
    stack = []
    for t in out_tensors:
        fn = t._grad_fn
        if fn is not None and fn in trace.owned and fn not in index:
            index[fn] = None
            stack.append(fn)
    while stack:
        node = stack.pop()
        order.append(node)
        for nxt, nr in node._next:
            if nxt is None or nxt in index:
                continue
            if nxt not in trace.owned and nxt._seq > trace.start_seq:
                for first, last, rec in trace.ranges:
                    if first < nxt._seq < last:
                        trace.owned[nxt] = rec  # an inner node of a recorded op
                        break
            if nxt in trace.owned:
                index[nxt] = None
                stack.append(nxt)
            elif (id(nxt), nr) not in boundary:
                raise TraceFailed("a backward node that no recorded op made "
                                  f"({type(nxt).__name__})")
    order.sort(key=lambda n: -n._seq)
    for i, n in enumerate(order):
        index[n] = i
    slot_of_array = {}
    for s, t in enumerate(trace.tensors):
        slot_of_array.setdefault(id(t._data), s)
    infos = []
    for node in order:
        if not isinstance(node, OpNode):
            raise TraceFailed(f"a backward node of a custom autograd.Function "
                              f"({type(node).__name__})")
        if node._hooks is not None:
            raise TraceFailed("hooks or retain_grad on a traced tensor")
        if node._saved is None:
            raise TraceFailed("a node whose saved values were freed")
        info = NodeInfo()
        info.seq, info.op, info.name = node._seq, node.op, type(node).__name__
        info.owner = trace.owned[node]
        info.n_out = node._n_out
        info.reduce = node._reduce
        saved = []
        for v in node._saved:
            if v.__class__ is SavedTensor:
                raise TraceFailed("saved-tensor hooks")
            if isinstance(v, Tensor) and v._meta is not None and "index_guard" in v._meta:
                v = v._data  # (Note [Saved index tensors]: the index's own array)
            elif v.__class__ is GuardedKey:
                v = v.key
            if isinstance(v, Tensor):
                s = trace.slot_of.get(id(v))
                if s is None:
                    raise TraceFailed("a node saved a tensor that is not traced")
                saved.append(("s", s))
            elif v.__class__ is ndarray:
                s = slot_of_array.get(id(v))
                if s is None:
                    raise TraceFailed("a node saved an array that is not traced")
                saved.append(("s", s))
            elif isinstance(v, (tuple, list)) and any(isinstance(x, (Tensor, ndarray))
                                                      for x in v):
                raise TraceFailed("a node saved a list of tensors")
            else:
                # a parameter the op computed (it may depend on tensor values, e.g.
                # nll_loss's count of valid targets): recomputed at each call
                saved.append(("p", v) if node.op.saved_kinds[len(saved)] == "param" and
                             not _is_argument(v, trace.records[info.owner]) else ("c", v))
        info.saved = saved
        nxt = []
        for n, nr in node._next:
            if n is None:
                nxt.append(None)
            elif n in trace.owned:
                nxt.append(("n", index[n], nr))
            else:
                nxt.append(("b", boundary[id(n), nr], 0))
        info.next = nxt
        infos.append(info)
    return infos, index
