"""``vmap`` and ``stack_module_state``: PyTorch's vectorizing map, as its for-loop fallback.

Note [vmap as a loop]: PyTorch's vmap wraps each mapped input in a BatchedTensor and runs
every op once on the whole batch through a per-op batching rule; an op without a rule
falls back to a loop over the batch (``vmap: ... falling back to slow (for-loop)
implementation``). autotensor has no batching rules, so every op takes that fallback:
``func`` runs once per batch entry on ``select(in_dim, i)`` views of the mapped inputs, and
each output is the ``stack`` of the per-entry outputs along its ``out_dim``. Values,
gradients (through the stack and the select views), in-place writes into mapped inputs,
nesting, composition with ``grad``/``jacrev``/``jvp``, ``in_dims``/``out_dims`` pytrees,
``chunk_size`` and the ``randomness`` modes ('error' raises PyTorch's error on any random
op; 'same' replays the generator's state for each entry) behave as PyTorch's. What a
loop cannot see: ``.item()`` or ``if tensor:`` on per-entry data work here where PyTorch
refuses them, an in-place op writing a mapped value into an unmapped tensor runs once per
entry where PyTorch raises a shape error, 'different' randomness draws other numbers than
PyTorch's single batched draw, and results carry ``StackBackward0`` graphs. Forward-AD
rules inside a transform run on PyTorch's physical batched tensors, where a logically 0-d
entry is 1-d and does not promote as a 0-d tensor: jacrev of a float16 0-d dual whose
tangent is float32 has a float16 tangent there, float32 here (values agree).
"""
import functools

from .. import _creation, _dtypes, _random
from .._ops.layout import is_contiguous, iter_strides_of, with_strides
from .._tensor import Tensor
from . import _spec_repr, tree_flatten, tree_unflatten

__all__ = ["vmap", "stack_module_state"]


def _get_name(func):
    if hasattr(func, "__name__"):
        return func.__name__
    if isinstance(func, functools.partial):
        return f"functools.partial({_get_name(func.func)}, ...)"
    return repr(func)


def _broadcast_to_and_flatten(prefix, spec):
    """The leaves of ``prefix`` repeated over the subtrees of ``spec`` they stand for
    (PyTorch's pytree ``_broadcast_to_and_flatten``); None when ``prefix`` is not a prefix
    of ``spec``'s structure."""
    out = []

    def count(s):
        return 1 if s is None else sum(count(c) for c in s[2])

    def walk(p, s):
        p_leaves, p_spec = tree_flatten(p)
        if p_spec is None:  # a leaf of the prefix covers the whole subtree
            out.extend([p] * count(s))
            return True
        if s is None:
            return False
        typ, keys, children = s
        if p_spec[0] is not typ:
            return False
        if typ is dict:
            if set(p) != set(keys):
                return False
            return all(walk(p[k], c) for k, c in zip(keys, children))
        if len(p) != len(children):
            return False
        return all(walk(pc, c) for pc, c in zip(p, children))

    return out if walk(prefix, spec) else None


def _check_out_dims(out_dims, func):
    leaves, _ = tree_flatten(out_dims)
    for x in leaves:
        if x is not None and not isinstance(x, int):
            raise ValueError(
                f"vmap({_get_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an "
                f"int, None or a python collection of ints representing where in the "
                f"outputs the vmapped dimension should appear.")


def _process_inputs(in_dims, args, func):
    name = _get_name(func)
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(
            f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int "
            f"or a (potentially nested) tuple matching the structure of inputs, got: "
            f"{type(in_dims)}.")
    if len(args) == 0:
        raise ValueError(
            f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you "
            f"are trying to vmap over a function with no inputs. The latter is unsupported.")
    flat_args, args_spec = tree_flatten(args)
    flat_in_dims = _broadcast_to_and_flatten(in_dims, args_spec)
    if flat_in_dims is None:
        raise ValueError(
            f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible "
            f"with the structure of `inputs`. in_dims has structure "
            f"{_spec_repr(tree_flatten(in_dims)[1])} but inputs has structure "
            f"{_spec_repr(args_spec)}.")
    for i, (arg, in_dim) in enumerate(zip(flat_args, flat_in_dims)):
        if not isinstance(in_dim, int) and in_dim is not None:
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for "
                f"an input but in_dim must be either an integer dimension or None.")
        if isinstance(in_dim, int) and not isinstance(arg, Tensor):
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for "
                f"an input but the input is of type {type(arg)}. We cannot vmap over "
                f"non-Tensor arguments, please use None as the respective in_dim")
        if in_dim is not None and (in_dim < -arg.dim() or in_dim >= arg.dim()):
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for "
                f"some input, but that input is a Tensor of dimensionality {arg.dim()} so "
                f"expected in_dim to satisfy -{arg.dim()} <= in_dim < {arg.dim()}.")
        if in_dim is not None and in_dim < 0:
            flat_in_dims[i] = in_dim % arg.dim()
    sizes = [a.size(d) for d, a in zip(flat_in_dims, flat_args) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0], flat_in_dims, flat_args, args_spec


def _entry(flat_args, flat_in_dims, i):
    return [a if d is None else a.select(d, i) for a, d in zip(flat_args, flat_in_dims)]


def _empty_entry(flat_args, flat_in_dims):
    """Stand-ins for the entries of an empty batch: zeros of one entry's shape, so that
    ``func`` runs once and the outputs' structure and shapes are known (floating ones the
    empty sum over the batch dim: they keep the input's history and tangent)."""
    return [a if d is None else a.sum(d) if a.is_floating_point() or a.is_complex()
            else a.new_zeros(a.shape[:d] + a.shape[d + 1:])
            for a, d in zip(flat_args, flat_in_dims)]


def _flat_out_dims(out_dims, output, spec, func):
    def incompatible():
        raise ValueError(
            f"vmap({_get_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not "
            f"compatible with the structure of `outputs`. out_dims has structure "
            f"{_spec_repr(tree_flatten(out_dims)[1])} but outputs has structure "
            f"{_spec_repr(spec)}.")
    if isinstance(output, Tensor):  # (PyTorch's edge case: (0,) for a single Tensor)
        if isinstance(out_dims, int) or out_dims is None:
            return [out_dims]
        if isinstance(out_dims, tuple) and len(out_dims) == 1:
            return list(out_dims)
        incompatible()
    flat = _broadcast_to_and_flatten(out_dims, spec)
    if flat is None:
        incompatible()
    return flat


def _layout_dim(flat_args, flat_in_dims):
    """The dim every mapped input is mapped over, with the per-entry shape they share, or
    None (Note [vmap results' layout])."""
    mapped = [(a, d) for a, d in zip(flat_args, flat_in_dims) if d is not None]
    a, d = mapped[0]
    shape = a.shape[:d] + a.shape[d + 1:]
    if all(e == d and b.shape == a.shape for b, e in mapped):
        strides = a.stride()
        same = all(b.stride() == strides for b, _ in mapped)
        front = (a.shape[d],) + tuple(shape), (strides[d],) + strides[:d] + strides[d + 1:]
        if not same or is_contiguous(*front):
            return d, shape, None  # (TensorIterator's contiguous fast setup)
        return d, shape, iter_strides_of(front[0], [front])
    return None


# Note [vmap results' layout]
# PyTorch runs a function once on the physical batched inputs. A binary op of batched
# tensors moves their batch dims to the front first, and TensorIterator lays its result out
# like that input (dense: its strides; contiguous but for size-1 dims: C-contiguous); the
# batch dim is then moved to out_dims by a view. A unary op keeps the batch dim where
# in_dims put it (the result a view when out_dims differs). Functions mostly combine
# batched tensors, so the binary rule is the one modelled: an output with the mapped
# inputs' entry shape is stacked batch-first, relaid as TensorIterator lays out the result
# of the front-moved input (vmap(f, in_dims=1) of a contiguous (2, 3, 4) is a (3, 2, 4) tensor
# of strides (4, 12, 1), which view(-1) refuses), and moved to its out_dim; others are
# stacked along dim 0, where batching rules put the batch dim, and moved to out_dim. A
# result batch-first is not a view (detach_() takes it). A func.grad's gradients come out
# of batched backward formulas C-contiguous, batch-first, whatever the input's layout
# (``_batch_first`` on the function).
def _assemble(results, out_dims, func, empty, layout=None):
    """The per-entry outputs stacked along their out_dims (PyTorch's _unwrap_batched)."""
    name = _get_name(func)
    flats = [tree_flatten(r) for r in results]
    spec = flats[0][1]
    flat_out_dims = _flat_out_dims(out_dims, results[0], spec, func)
    columns = list(zip(*(leaves for leaves, _ in flats)))
    out = []
    for column, out_dim in zip(columns, flat_out_dims):
        first = column[0]
        if out_dim is None:
            if isinstance(first, Tensor) and not all(x is first for x in column):
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a "
                                 f"BatchedTensor when out_dim is None")
            out.append(first)
            continue
        if not isinstance(first, Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got "
                             f"type {type(first)}. Did you mean to set out_dims= to None "
                             f"for output?")
        if empty:  # (an empty selection of the stand-in's result: its history and tangent,
            # and not a view, as PyTorch's result of an empty batch is not one)
            d = out_dim % (first.dim() + 1)
            none = _creation.zeros(0, dtype=_dtypes.int64)
            out.append(first.unsqueeze(d).index_select(d, none))
        elif layout is not None and first.shape == layout[1]:
            # (a batched binary op's rule: the batch dim moved to the front of the input,
            # TensorIterator's result laid out like that input where it is dense, else
            # C-contiguous; a result, not a view, moved to out_dims)
            r = _stack(column, 0)
            if layout[2] is not None:
                r._data = with_strides(r._data, layout[2])  # (a fresh stack: relaid)
            out.append(r.movedim(0, out_dim) if out_dim % r.dim() else r)
        else:
            r = _stack(column, 0)
            out.append(r.movedim(0, out_dim) if out_dim % r.dim() else r)
    return tree_unflatten(out, spec)


def _stack(tensors, dim):
    from .._ops import stack
    return stack(tensors, dim)


def _run(func, batch_size, flat_in_dims, flat_args, args_spec, out_dims, randomness,
         kwargs):
    state = _random.default_generator.get_state() if randomness == "same" else None
    empty = batch_size == 0
    results = []
    with _random.vmap_randomness(randomness):
        for i in range(max(batch_size, 1)):
            if state is not None:
                _random.default_generator.set_state(state)
            entry = (_empty_entry(flat_args, flat_in_dims) if empty
                     else _entry(flat_args, flat_in_dims, i))
            results.append(func(*tree_unflatten(entry, args_spec), **kwargs))
    layout = None if getattr(func, "_batch_first", False) else \
        _layout_dim(flat_args, flat_in_dims)
    return _assemble(results, out_dims, func, empty, layout)


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """``func`` mapped over dimension ``in_dims`` of its inputs (Note [vmap as a loop])."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError("Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got "
                         f"{chunk_size})")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        _check_out_dims(out_dims, func)
        batch_size, flat_in_dims, flat_args, args_spec = _process_inputs(in_dims, args, func)
        # (chunk_size only bounds how many entries run at once; one at a time is within it)
        return _run(func, batch_size, flat_in_dims, flat_args, args_spec, out_dims,
                    randomness, kwargs)

    return wrapped


def stack_module_state(models):
    """(params, buffers): each model's parameters and buffers stacked by name, the
    parameters as new leaves, for ``vmap`` over ``functional_call`` (model ensembling)."""
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same "
                           "training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    params = {k: _stacked_leaf([p[k] for p in all_params], k) for k in all_params[0]}
    buffers = {k: _stacked_leaf([b[k] for b in all_buffers], k) for k in all_buffers[0]}
    return params, buffers


def _stacked_leaf(tensors, name):
    requires = [t.requires_grad for t in tensors]
    if any(requires) and not all(requires):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = _stack(tensors, 0)
    return result.detach().requires_grad_() if all(requires) else result
