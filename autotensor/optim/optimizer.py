"""The Optimizer base: parameter groups, state, state_dict in PyTorch's layout, step hooks.

Note [Optimizer updates]
~~~~~~~~~~~~~~~~~~~~~~~~
Every optimizer follows PyTorch's single-tensor CPU algorithm (``torch/optim/*.py``,
``_single_tensor_*``: what PyTorch runs on CPU, where foreach kernels are not used) op by op,
in the same order and in the parameter's dtype, its fused multiply-adds rounded once (Note
[Fused optimizer updates]), so a parameter's trajectory is PyTorch's bit for bit (up to
PORTED_MAX elements; complex ones through their real views, as PyTorch's). The ops run on
the NumPy arrays behind the tensors (no graph is recorded; ``step`` runs under ``no_grad``
as in PyTorch), block by block (Note [Blocked updates]) and in place where PyTorch writes
in place. Python-float coefficients are rounded to the parameter's dtype as aten reads
them; bias corrections and step sizes are Python floats computed as PyTorch's (from
``step.item()``). Each in-place write to a parameter bumps its version counter once,
as the in-place op PyTorch runs would (Note [Version counter] in autograd/inplace.py).
State tensors (``exp_avg``, ``step``, ...) are Tensors with PyTorch's names, dtypes and
shapes, so ``state_dict()`` has PyTorch's structure and round-trips with it.
"""
import functools
import threading
import warnings
from collections import OrderedDict, defaultdict
from copy import deepcopy
from itertools import chain

from .. import _dtypes
from .._backend import np
from .._ops.raw import PORTED_MAX, _fma
from .._tensor import Tensor, _make
from ..autograd import grad_mode
from ..autograd.graph import RemovableHandle

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()

_global_pre_hooks = OrderedDict()
_global_post_hooks = OrderedDict()


def register_optimizer_step_pre_hook(hook):
    handle = RemovableHandle(_global_pre_hooks)
    _global_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook):
    handle = RemovableHandle(_global_post_hooks)
    _global_post_hooks[handle.id] = hook
    return handle


def _hooked_step(step):
    """Wrap a subclass's ``step``: run the step pre/post hooks around it, under no_grad."""
    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        if not (_global_pre_hooks or self._optimizer_step_pre_hooks or
                self._optimizer_step_post_hooks or _global_post_hooks):
            with grad_mode.no_grad():
                return step(self, *args, **kwargs)
        for pre_hook in chain(_global_pre_hooks.values(), self._optimizer_step_pre_hooks.values()):
            result = pre_hook(self, args, kwargs)
            if result is not None:
                if isinstance(result, tuple) and len(result) == 2:
                    args, kwargs = result
                else:
                    raise RuntimeError(f"{step} must return None or a tuple of "
                                       f"(new_args, new_kwargs), but got {result}.")
        with grad_mode.no_grad():
            out = step(self, *args, **kwargs)
        for post_hook in chain(self._optimizer_step_post_hooks.values(),
                               _global_post_hooks.values()):
            post_hook(self, args, kwargs)
        return out
    wrapper.hooked = True
    return wrapper


def _closure_loss(closure):
    if closure is None:
        return None
    with grad_mode.enable_grad():
        return closure()


def _scalar_dtype():
    """The dtype of ``step`` and other scalar state: PyTorch's ``_get_scalar_dtype``."""
    return _dtypes.float64 if _dtypes.get_default_dtype() is _dtypes.float64 else _dtypes.float32


def _scalar_state(value):
    """A 0-d state tensor (``step``, ``eta``, ``mu``) in the scalar dtype."""
    return _make(np.array(value, dtype=_scalar_dtype().np))


def _zeros_like(p, value=0):
    return _make(np.full_like(p._data, value))


def _bump(p, n=1, state=None, **counts):
    """Count in-place writes to a parameter on its version counter, and (``counts``) those
    PyTorch's update makes to the state tensors named."""
    p._vc[0] += n
    for k, m in counts.items():
        if state.get(k) is not None:
            state[k]._vc[0] += m


_work = threading.local()


def _tmp(like, slot=0):
    """A reusable work array shaped like ``like`` (slot 0, 1 or 2).

    Fresh multi-megabyte temporaries cost more than the arithmetic (page faults); one flat
    buffer per dtype and slot, grown to the largest parameter, is reused instead. A slot's
    contents live until the next call that asks for the same slot."""
    views = getattr(_work, "views", None)
    if views is None:
        views = _work.views = {}
        _work.bufs = {}
    dt = like.dtype
    key = (like.shape, dt.str, slot)
    v = views.get(key)
    if v is not None:
        return v
    bufs = _work.bufs
    n = like.size
    buf = bufs.get(key[1:])
    if buf is None or buf.size < n:
        buf = bufs[key[1:]] = np.empty(n, dt)
        views.clear()  # (views of a smaller buffer: remade from the new one)
    v = views[key] = buf[:n].reshape(like.shape)
    return v


# Note [Blocked updates]
# ~~~~~~~~~~~~~~~~~~~~~~
# Adam's update is about a dozen elementwise passes over four arrays the size of the
# parameter. Run whole-array, every pass streams them all through memory (1M float32
# parameters: 16 MB, a dozen times a step); PyTorch does the same passes in compiled loops
# and stays ahead. Run block by block instead -- every pass over one block of _BLOCK
# elements before the next block -- the block's arrays stay in the L2 cache between passes,
# and a scratch block replaces the parameter-sized temporaries. 64K elements (256 KB a
# float32 array, six arrays 1.5 MB) measured fastest on a 2 MB-L2 Xeon among 8K-256K:
# smaller blocks pay NumPy's ~1 us a call more often, larger ones spill the cache
# (benchmarks/PROFILE.md, "Adam step"). Since stop 37 a parameter of at most PORTED_MAX
# (= _BLOCK) elements is one block updated with exact FMAs (Note [Fused optimizer updates]).
_BLOCK = 1 << 16


def _blocks(written, read, n_scratch):
    """Matching blocks of same-shaped arrays for one update (Note [Blocked updates]).

    Returns lists: a block of each array of ``written`` (updated in place; the first is the
    parameter, later ones may be ``None`` and stay ``None``), of each array of ``read``,
    then ``n_scratch`` work blocks. Arrays of at most _BLOCK elements are one block as they
    are (any strides), with work arrays of their shape. Larger ones are cut through flat
    views when C-contiguous (a non-contiguous gradient is copied once); a larger
    non-contiguous written array (a transposed parameter: rare) makes one block of
    everything, with whole-size work arrays. Complex arrays are updated through their real
    views, as PyTorch's ``view_as_real`` of them."""
    if written[0].dtype.kind == "c":
        written = [_as_real(a) for a in written]
        read = [_as_real(a) for a in read]
    first, block = written[0], _BLOCK
    n = first.size
    if n <= block:
        return [[*written, *read, *_work_blocks(first.dtype, first.shape, n_scratch, block)]]
    if not all(a is None or a.flags.c_contiguous for a in written):
        return [[*written, *read, *(_tmp(first, s) for s in range(n_scratch))]]
    flat = [None if a is None else a.reshape(-1) for a in written]
    flat += [np.ascontiguousarray(a).reshape(-1) for a in read]
    work = _work_blocks(first.dtype, (block,), n_scratch, block)
    return [[None if a is None else a[i:i + block] for a in flat] +
            [w[:min(block, n - i)] for w in work] for i in range(0, n, block)]


def _as_real(a):
    """``torch.view_as_real``: a complex array as a writable float view, pairs last."""
    if a is None or a.dtype.kind != "c":
        return a
    return np.lib.stride_tricks.as_strided(a.real, a.shape + (2,),
                                           a.strides + (a.itemsize // 2,))


def _work_blocks(dt, shape, n_scratch, block):
    """``n_scratch`` work arrays of ``shape`` (at most ``block`` elements) in this thread's
    block buffer of ``dt``; the views are kept per shape (a model has few shapes)."""
    cache = getattr(_work, "blocks", None)
    if cache is None:
        cache = _work.blocks = {}
    key = (dt.str, shape, n_scratch, block)
    views = cache.get(key)
    if views is None:
        rows_key = (dt.str, n_scratch, block)
        rows = cache.get(rows_key)
        if rows is None:
            rows = cache[rows_key] = np.empty((n_scratch, block), dt)
        size = 1
        for d in shape:
            size *= d
        views = cache[key] = [r[:size].reshape(shape) for r in rows]
    return views


# Note [Fused optimizer updates]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's single-tensor updates run aten kernels that round once where NumPy's obvious
# expression rounds twice: ``a.add_(b, alpha=)`` is fma(b, alpha, a), ``addcmul_`` is
# fma(value * t1, t2, self), ``lerp_`` is fma(w, end - self, self) (Note [Fused add] in
# _ops/raw.py, Note [addcmul's kernel] in _ops/pointwise.py). Rounded twice, SGD's plain
# ``param - lr * grad`` already gave another float32 in the first step (869 of the 1,200
# steps of 20 configurations x 30 steps x 2 dtypes differed before stop 37). The kernels
# below run those fused ops on blocks (Note [Blocked updates]), every other op as PyTorch's,
# with numbers rounded to the parameter's dtype as aten reads them (``Scalar.to<float>()``).
# float32's FMA: the product of two float32s is exact in float64 and their float64 sum
# rounds once; rounding that to float32 is correct unless the sum landed exactly on a
# float32 midpoint (the low 29 bits 1000...0) or in float32's subnormal range: one check
# each a block, and the rare block that trips one is redone by _random's exact FMA.
# float64's is _random's Boldo-Melquiond FMA (about 25 NumPy passes); float16 and bfloat16
# round the float32 FMA to their type. The exact FMA costs 5-10 x the NumPy expression: a
# 1M-parameter Adam step took 4 x as long, SGD with momentum 5 x. So, as the tensor ops'
# ported kernels (Note [Size of the ported kernels] in _ops/raw.py), a parameter of up to
# PORTED_MAX elements (``_exact``) is updated bit for bit, a larger one (where training
# spends its time) with the two-rounding expression, an ulp or so away per step. sqrt is
# the one op not PyTorch's everywhere: ``sqrt_``.
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_TINY = 2.0 ** -125   # (float32's smallest normal is 2**-126: a margin for the rounding)
_INT64_MIN = np.iinfo(np.int64).min
_TINY_BITS = np.uint64(np.array(_TINY).view(np.uint64) - 1)


def _wide(a):
    """Two float64 work arrays shaped like the float32 block ``a`` (this thread's, kept per
    shape as the block work arrays are)."""
    if a.size > _BLOCK:  # (a large non-contiguous parameter: one block of everything)
        return np.empty(a.shape, _F64), np.empty(a.shape, _F64)
    cache = getattr(_work, "wide", None)
    if cache is None:
        cache = _work.wide = {}
    views = cache.get(a.shape)
    if views is None:
        rows = cache.get(None)
        if rows is None:
            rows = cache[None] = np.empty((2, _BLOCK), _F64)
        views = cache[a.shape] = [r[:a.size].reshape(a.shape) for r in rows]
    return views


def fma_(out, x, y, z, exact=True, work=None):
    """``out[...] = x * y + z`` rounded once (Note [Fused optimizer updates]); ``x`` and
    ``y`` arrays or scalars of out's dtype, ``out`` may be any of them. Not ``exact``: the
    product rounded, then the sum (into ``work``, which may be x or y but not z; a fresh
    array without one)."""
    if not exact:
        np.add(np.multiply(x, y, out=work), z, out=out)
        return
    dt = out.dtype
    if dt == _F32:
        s, s2 = _wide(out)
        np.multiply(x, y, out=s, dtype=_F64)   # (exact: 24 + 24 bits)
        np.add(s, z, out=s)
        si, ss = s.view(np.int64), s2.view(np.int64)
        np.left_shift(si, 35, out=ss)   # the low 29 bits on top: a midpoint's are 2**63
        rare = s.size and ss.min() == _INT64_MIN
        if not rare:  # a nonzero |sum| below _TINY: (bits - 1) wraps zero's to the top
            np.abs(s, out=s2)
            su = s2.view(np.uint64)
            np.subtract(su, np.uint64(1), out=su)
            rare = s.size and su.min() < _TINY_BITS
        if rare:
            s = _fma(x, y, z, np.float32)
        np.copyto(out, s, casting="same_kind")
    elif dt == _F64:
        np.copyto(out, _fma(x, y, z, np.float64))
    else:  # float16/bfloat16: aten's opmath (float32) kernels
        np.copyto(out, _fma(np.float32(x) if np.ndim(x) == 0 else x.astype(_F32),
                            y, z.astype(_F32), np.float32).astype(dt), casting="unsafe")


def sqrt_(a, out):
    """``a.sqrt()`` into ``out``, correctly rounded. PyTorch's CPU sqrt is MKL's, which on
    AMD CPUs is an ulp off on 1-20% of inputs (float32 of any length; float64 1.4%):
    README "Numerics"; the optimizers' one op that is not PyTorch's bit for bit there (the
    tests swap this function for torch's to check the rest)."""
    return np.sqrt(a, out=out)


def axpy_(a, b, alpha, exact=True, work=None):
    """``a.add_(b, alpha=alpha)``: fma(b, alpha, a); exact sums at alpha = +-1."""
    if alpha == 1:
        a += b
    elif alpha == -1:
        a -= b
    elif exact:
        fma_(a, b, a.dtype.type(alpha), a)
    else:
        a += np.multiply(b, a.dtype.type(alpha), out=work)


def addcmul_(a, t1, t2, value, work, exact=True):
    """``a.addcmul_(t1, t2, value=value)``: fma(value * t1, t2, a)."""
    if value != 1:
        t1 = np.multiply(t1, a.dtype.type(value), out=work)
    fma_(a, t1, t2, a, exact, work)


def addcdiv_(a, t1, t2, value, work):
    """``a.addcdiv_(t1, t2, value=value)``: ``a + value * t1 / t2``, unfused as aten's."""
    t = np.multiply(t1, a.dtype.type(value), out=work)
    np.divide(t, t2, out=t)
    a += t


def lerp_(a, b, w, work, exact=True):
    """``a.lerp_(b, w)`` for a number w: aten's fma(w, b - a, a) for |w| < 0.5, else
    fma(w - 1, b - a, b) (the tensor op's kernel there: its zero-sign rule at w = 1)."""
    s = a.dtype.type
    if a.dtype in (_F32, _F64) and abs(s(w)) < 0.5:
        d = np.subtract(b, a, out=work)
        fma_(a, s(w), d, a, exact, work)
    else:
        from .._ops.pointwise import _lerp
        np.copyto(a, _lerp(a, b, w))


def _next_step(state):
    """Advance the per-parameter ``step`` count; its float value for the bias corrections
    (PyTorch's ``_get_value(step_t)``)."""
    state["step"]._data += 1
    state["step"]._vc[0] += 1
    return float(state["step"]._data)


def _grad_block(pb, gb, maximize, wd, work, exact=True, complex_first=False):
    """PyTorch's ``grad = -grad if maximize``; ``grad = grad.add(param, alpha=wd)``: the
    gradient block to use (``gb`` itself when neither applies, else ``work``).
    ``complex_first``: a complex parameter whose optimizer adds the weight decay before its
    view_as_real, where aten's complex add with alpha rounds twice."""
    if maximize:
        gb = np.negative(gb, out=work)
    if wd != 0:
        fma_(work, pb, pb.dtype.type(wd), gb, exact and not complex_first,
             None if gb is work else work)
        gb = work
    return gb


def _adam_moments(mb, vb, gb, beta1, beta2, work, exact=True):
    """``exp_avg.lerp_(grad, 1 - beta1)``; ``exp_avg_sq.mul_(beta2).addcmul_(grad, grad,
    value=1 - beta2)`` on blocks."""
    lerp_(mb, gb, 1 - beta1, work, exact)
    vb *= vb.dtype.type(beta2)
    addcmul_(vb, gb, gb, 1 - beta2, work, exact)


def _exact(p):
    """Whether a parameter's fused multiply-adds are rounded once (Note [Fused optimizer
    updates]): up to PORTED_MAX elements, as the tensor ops' (Note [Size of the ported
    kernels] in _ops/raw.py)."""
    return p._data.size <= PORTED_MAX


class Optimizer:
    """Base class of all optimizers (PyTorch's ``torch.optim.Optimizer``)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        step = cls.__dict__.get("step")
        if step is not None and not getattr(step, "hooked", False):
            cls.step = _hooked_step(step)

    def __init__(self, params, defaults):
        self.defaults = defaults
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        self._optimizer_state_dict_pre_hooks = OrderedDict()
        self._optimizer_state_dict_post_hooks = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks = OrderedDict()
        self._optimizer_load_state_dict_post_hooks = OrderedDict()
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + params.type())
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                     "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                     "_optimizer_load_state_dict_pre_hooks",
                     "_optimizer_load_state_dict_post_hooks"):
            self.__dict__.setdefault(name, OrderedDict())
        self.defaults.setdefault("differentiable", False)

    def __repr__(self):
        s = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            s += f"\nParameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    s += f"    {key}: {group[key]}\n"
        return s + ")"

    # ---- hooks -----------------------------------------------------------------------------
    def _add_hook(self, hooks, hook, prepend=False):
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_step_pre_hook(self, hook):
        return self._add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        return self._add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend=False):
        return self._add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        return self._add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        return self._add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        return self._add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # ---- state dict ------------------------------------------------------------------------
    def state_dict(self):
        """``{'state': {index: {...}}, 'param_groups': [{..., 'params': [indices]}]}``."""
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        param_mappings = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update({id(p): i for i, p in enumerate(group["params"], start_index)
                                   if id(p) not in param_mappings})
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, Tensor) else k): v
                        for k, v in self.state.items()}
        state_dict = {"state": packed_state, "param_groups": param_groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            result = post_hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(param, value, param_id, param_groups,
                                                 key=None):
        if key == "step":
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype)
        return value

    def load_state_dict(self, state_dict):
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = pre_hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def _cast(param, value, param_id=None, key=None):
            if isinstance(value, Tensor):
                return self._process_value_according_to_param_policy(
                    param, value, param_id, state_dict["param_groups"], key)
            if isinstance(value, dict):
                return {k: _cast(param, v, param_id, key=k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(_cast(param, v, param_id) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k)
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    # ---- groups and gradients ----------------------------------------------------------------
    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                g = p._grad
                if g is not None:
                    if set_to_none:
                        p._grad = None
                    else:
                        if g._grad_fn is not None:
                            g.detach_()
                        else:
                            g.requires_grad_(False)
                        g._data[...] = 0
                        g._vc[0] += 1

    def step(self, closure=None):
        raise NotImplementedError

    _closure_loss = staticmethod(_closure_loss)

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            param_group["params"] = list(params)
        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) == len(tensors):
                param_group["param_names"] = names
            else:
                raise ValueError("all optimizer params should be with/without names. "
                                 "Some param names are missing")
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + type(param).__module__.replace("builtins", "").strip(".")
                                + ("." if type(param).__module__ != "builtins" else "")
                                + type(param).__name__)
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        param_set = set()
        for group in self.param_groups:
            param_set.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                txt = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {txt} to the optimizer")
        if not param_set.isdisjoint(id(p) for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def _params_with_grad(self, group):
        """The group's parameters that have a gradient, with their gradient arrays."""
        for p in group["params"]:
            g = p._grad
            if g is not None:
                yield p, g._data


def _check(cond, msg):
    if not cond:
        raise ValueError(msg)
