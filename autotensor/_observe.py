"""Watching ops and backward nodes run (the profiler, ``viz.trace``) at no cost otherwise.

Note [Observing ops at no cost]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The profiler needs an event per op call (``aten::mul``) and per backward node
(``MulBackward0``); ``viz.trace`` needs the forward ops. A check on the op path ("is a
profiler on?") would be paid by every op of every program, and the dispatcher does not
even see most calls (an op whose inputs need no gradient never reaches it). So nothing is
checked: while at least one observer is active, the public entry points are replaced by
wrappers that report each call, and put back when the last observer stops:

* the op functions of the ``autotensor``, ``autotensor._ops`` and ``nn.functional``
  namespaces (one wrapper per function object, shared by every namespace holding it, so
  ``autotensor.mul is autotensor._ops.mul`` stays true), and the Tensor methods and
  operators made from them (``x * y`` is ``Tensor.__mul__``);
* ``apply`` of every backward node class that defines one (generated op nodes inherit
  ``OpNode.apply``, custom Functions ``BackwardCFunction.apply``), and the engine's
  AccumulateGrad step.

An op called from inside another op (``linear`` calling ``addmm`` through a namespace) is
reported nested in it, as PyTorch's profiler shows ``aten::linear`` over ``aten::addmm``.
Code that held a reference to a function from before the observer started keeps calling
the unwrapped one; ops reached only through module globals of the op modules are counted
in the op that called them. With no observer the op path is exactly what it was.
"""
import functools
import threading
import types

_lock = threading.Lock()
_observers = ()         # the active observers (objects with op_begin/op_end/...)
_saved = []             # (owner, attribute, original) to put back

_OP_MODULES = ("autotensor._ops.", "autotensor._creation", "autotensor.nn.functional",
               "autotensor._methods", "autotensor._random")
_NOT_OPS = {"manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state",
            "is_tensor", "result_type", "numel", "is_floating_point", "is_complex",
            "typename", "is_grad_enabled_", "promote_types", "set_default_dtype",
            "get_default_dtype", "is_nonzero"}
# Tensor methods defined on Tensor itself that are ops in PyTorch's profiler
_TENSOR_OPS = {"item", "detach", "detach_"}

DUNDER_NAMES = {
    "__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub",
    "__rsub__": "rsub", "__isub__": "sub_", "__mul__": "mul", "__rmul__": "mul",
    "__imul__": "mul_", "__truediv__": "div", "__rtruediv__": "div", "__itruediv__": "div_",
    "__floordiv__": "floor_divide", "__rfloordiv__": "floor_divide", "__mod__": "remainder",
    "__pow__": "pow", "__rpow__": "pow", "__ipow__": "pow_", "__matmul__": "matmul",
    "__rmatmul__": "matmul", "__neg__": "neg", "__abs__": "abs", "__eq__": "eq",
    "__ne__": "ne", "__lt__": "lt", "__le__": "le", "__gt__": "gt", "__ge__": "ge",
    "__and__": "bitwise_and", "__or__": "bitwise_or", "__xor__": "bitwise_xor",
    "__rand__": "bitwise_and", "__ror__": "bitwise_or", "__rxor__": "bitwise_xor",
    "__invert__": "bitwise_not", "__getitem__": "__getitem__", "__setitem__": "__setitem__",
}
_CASTS = {"float", "double", "half", "long", "int", "short", "char", "byte", "bool"}


def getitem_name(key):
    """The op PyTorch's profiler shows for ``x[key]`` (the first one it runs)."""
    keys = key if isinstance(key, tuple) else (key,)
    if any(hasattr(k, "_data") or isinstance(k, list) for k in keys):
        return "aten::index"
    if any(isinstance(k, int) and not isinstance(k, bool) for k in keys):
        return "aten::select"
    return "aten::slice"


def _op_name(name, args):
    if name == "__getitem__":
        return getitem_name(args[1]) if len(args) > 1 else "aten::slice"
    if name == "__setitem__":
        value = args[2] if len(args) > 2 else None
        return "aten::copy_" if hasattr(value, "_data") else "aten::fill_"
    return "aten::" + name


def _make_wrapper(f, name):
    dynamic = name in ("__getitem__", "__setitem__")
    fixed = "aten::" + name

    @functools.wraps(f)
    def observed(*args, **kwargs):
        obs = _observers
        if not obs:  # stopped while a call was on its way here
            return f(*args, **kwargs)
        op = _op_name(name, args) if dynamic else fixed
        tokens = [o.op_begin(op, args, kwargs) for o in obs]
        try:
            out = f(*args, **kwargs)
        except BaseException:
            for o, t in zip(obs, tokens):
                o.op_end(t, None, args)
            raise
        for o, t in zip(obs, tokens):
            o.op_end(t, out, args)
        return out
    observed.__wrapped_op__ = f
    return observed


def _node_wrapper(apply):
    @functools.wraps(apply)
    def observed_apply(self, *args):
        obs = _observers
        if not obs or len(args) != 2 or not hasattr(args[1], "is_raw"):
            # Not the engine's (grads, namespace) call: a user's ``ctx.apply(*grads)``.
            return apply(self, *args)
        grads, F = args
        tokens = [o.node_begin(self) for o in obs]
        try:
            out = apply(self, grads, F)
        except BaseException:
            for o, t in zip(obs, tokens):
                o.node_end(t, None)
            raise
        for o, t in zip(obs, tokens):
            o.node_end(t, out)
        return out
    return observed_apply


def _accumulate_wrapper(run):
    @functools.wraps(run)
    def observed_accumulate(node, grads, *rest):
        obs = _observers
        if not obs:
            return run(node, grads, *rest)
        tokens = [o.node_begin(node) for o in obs]
        try:
            return run(node, grads, *rest)
        finally:
            for o, t in zip(obs, tokens):
                o.node_end(t, None)
    return observed_accumulate


def _is_op_function(name, f):
    return (isinstance(f, types.FunctionType) and not name.startswith("_")
            and name not in _NOT_OPS and f.__module__.startswith(_OP_MODULES))


def _targets():
    """(owner, attribute, original function, op name) for every entry point."""
    import autotensor
    from . import _ops
    from ._tensor import Tensor
    from .autograd import engine, graph
    from .nn import functional
    out = []
    for module in (autotensor, _ops, functional):
        for name, f in list(vars(module).items()):
            if _is_op_function(name, f):
                out.append((module, name, f, name))
    for name, f in list(vars(Tensor).items()):
        if not isinstance(f, types.FunctionType):
            continue
        if name in DUNDER_NAMES:
            out.append((Tensor, name, f, DUNDER_NAMES[name]))
        elif name in _CASTS:
            out.append((Tensor, name, f, "to"))
        elif (not name.startswith("_") and (name in _TENSOR_OPS or
                                            f.__module__.startswith(_OP_MODULES))):
            out.append((Tensor, name, f, name))
    stack = [graph.Node]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if "apply" in vars(cls):
            out.append((cls, "apply", vars(cls)["apply"], None))
    out.append((engine, "_run_accumulate", engine._run_accumulate, None))
    return out


def _install():
    wrappers = {}  # one wrapper per (function, op name)
    for owner, attr, f, name in _targets():
        if owner.__name__ == "autotensor.autograd.engine":
            w = _accumulate_wrapper(f)
        elif attr == "apply" and name is None:
            w = _node_wrapper(f)
        else:
            key = (f, name)
            w = wrappers.get(key)
            if w is None:
                w = wrappers[key] = _make_wrapper(f, name)
        _saved.append((owner, attr, f))
        setattr(owner, attr, w)


def _uninstall():
    while _saved:
        owner, attr, f = _saved.pop()
        setattr(owner, attr, f)


def start(observer):
    """Report op calls and node runs to ``observer`` until ``stop(observer)``."""
    global _observers
    with _lock:
        if not _observers:
            _install()
        _observers = _observers + (observer,)


def stop(observer):
    global _observers
    with _lock:
        if observer not in _observers:
            return
        _observers = tuple(o for o in _observers if o is not observer)
        if not _observers:
            _uninstall()


def active():
    return _observers
