"""``autotensor.func``: PyTorch's composable function transforms (``torch.func``).

``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian``,
``linearize`` and ``functional_call``, with PyTorch's signatures, output structures
(pytrees of tuples, lists and dicts) and errors.

Note [Transforms on the autograd graph]: PyTorch's transforms wrap tensors in per-level
wrappers. Here a transform differentiates with the ordinary engine instead: each input it
differentiates is replaced by a fresh alias (a detached leaf that requires grad; or, when
the input is already being differentiated by an enclosing transform or is a dual tensor, a
view of it, so the enclosing transform still sees through it), and the backward is run with
``create_graph=True`` exactly when something outside can still differentiate the result.
So ``grad(grad(f))``, ``jacrev(jacrev(f))`` and ``jacfwd(jacrev(f))`` (``hessian``) compose,
and results come back detached when nothing encloses the transform, as in PyTorch.
``jvp`` / ``jacfwd`` run forward mode (``autograd.forward_ad``) when it is available for
every op used, else the double-backward trick (Note [Double-backward trick]).

``vmap`` and ``stack_module_state`` live in ``_vmap.py``: vmap runs PyTorch's for-loop
fallback for every op (Note [vmap as a loop]).
"""
import functools

from .. import _creation
from .._tensor import Tensor
from ..autograd import grad_mode
from ..autograd.engine import grad as _autograd_grad_raw

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian",
           "linearize", "functional_call", "vmap", "stack_module_state"]


# ---- a minimal pytree: tuples, lists, dicts; anything else is a leaf ------------------
def tree_flatten(tree):
    """(leaves, spec), iteratively; dicts keep their insertion order, as PyTorch's pytree."""
    leaves = []

    def build(node):
        if isinstance(node, (tuple, list)) and not _is_namedtuple(node):
            return (type(node), None, [build(c) for c in node])
        if _is_namedtuple(node):
            return (type(node), None, [build(c) for c in node])
        if isinstance(node, dict):
            return (dict, list(node.keys()), [build(node[k]) for k in node])
        leaves.append(node)
        return None

    spec = build(tree)
    return leaves, spec


def _spec_repr(spec, indent=0):
    """PyTorch's ``str(TreeSpec)``."""
    if spec is None:
        return "*"
    typ, keys, children = spec
    out = f"TreeSpec({typ.__name__}, {keys}, ["
    if children:
        indent += 2
        out += _spec_repr(children[0], indent) + ("," if len(children) > 1 else "")
        out += ",".join("\n" + " " * indent + _spec_repr(c, indent) for c in children[1:])
    return out + "])"


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(x, "_fields")


def tree_unflatten(leaves, spec):
    it = iter(leaves)

    def build(s):
        if s is None:
            return next(it)
        typ, keys, children = s
        vals = [build(c) for c in children]
        if typ is dict:
            return dict(zip(keys, vals))
        if issubclass(typ, tuple) and hasattr(typ, "_fields"):
            return typ(*vals)
        return typ(vals)

    return build(spec)


def _spec_str(spec):
    if spec is None:
        return "*"
    typ, keys, children = spec
    inner = ", ".join(_spec_str(c) for c in children)
    if typ is dict:
        inner = ", ".join(f"{k!r}: {_spec_str(c)}" for k, c in zip(keys, children))
        return "{" + inner + "}"
    if typ is list:
        return f"[{inner}]"
    return f"({inner}{',' if len(children) == 1 else ''})"


# ---- argnums --------------------------------------------------------------------------
def _check_argnum(argnum, num_args):
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if -num_args <= argnum < num_args:
        return argnum % num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def _slice_argnums(args, argnums, as_tuple=True):
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    n = len(args)
    if isinstance(argnums, int):
        arg = args[_check_argnum(argnums, n)]
        return (arg,) if as_tuple else arg
    if len(argnums) == 0:
        raise RuntimeError("argnums must be non-empty")
    idx = [_check_argnum(a, n) for a in argnums]
    if len(set(idx)) != len(idx):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return tuple(args[i] for i in idx)


def _replace_argnums(args, argnums, new_args):
    args = list(args)
    if isinstance(argnums, int):
        args[argnums % len(args)] = new_args
    else:
        for a, v in zip(argnums, new_args):
            args[a % len(args)] = v
    return tuple(args)


# ---- Note [Transforms on the autograd graph] -------------------------------------------
def _tangent_of(t):
    from ..autograd import forward_ad
    return forward_ad._tangent_or_none(t) if forward_ad._active_level() else None


def _keep_mode(flat):
    """What a transform's results keep of their history: "graph" when something outside it
    differentiates an input by reverse mode (grad mode on at the call), "tangent" when an
    input has a forward-AD tangent (PyTorch's results then carry tangents and no graph),
    None when neither."""
    if grad_mode.is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad
                                           for t in flat):
        return "graph"
    tangents = [_tangent_of(t) for t in flat if isinstance(t, Tensor)]
    if any(t is not None for t in tangents):
        if grad_mode.is_grad_enabled() and any(t is not None and t.requires_grad
                                               for t in tangents):
            return "tangent graph"  # (a tangent with history: the results' tangents keep
        return "tangent"            # theirs, as PyTorch's, requires_grad)
    return None


def _differentiable(t):
    if not isinstance(t, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(t)}")
    if t.requires_grad:
        return t.view_as(t)
    tangent = _tangent_of(t)
    if tangent is not None:
        from ..autograd import forward_ad
        d = t.detach().requires_grad_()
        # (the input's own tangent, already laid out as it: PyTorch wraps the dual for the
        # level, no make_dual, which would copy it into an expanded input's memory)
        forward_ad._set_tangent(d, tangent)
        return d
    return t.detach().requires_grad_()


def _detach_tree(tree, keep, fresh=True):
    """A transform's results as it returns them (``keep``: _keep_mode): PyTorch unwraps
    them from their level, new tensors (version 0: ``fresh``) with no history, a tangent
    kept."""
    if keep == "graph":
        return tree
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([_unwrapped(x, keep, fresh) if isinstance(x, Tensor) else x
                           for x in leaves], spec)


def _unwrapped(x, keep, fresh=True):
    from ..autograd import forward_ad
    tangent = _tangent_of(x) if keep in ("tangent", "tangent graph") else None
    out = x.detach()
    if fresh:
        out._vc = [0]  # (a version counter of its own)
    if tangent is not None:
        if keep == "tangent":
            tangent = tangent.detach()
            tangent._vc = [0]
        forward_ad._set_tangent(out, tangent)  # (not make_dual: PyTorch's result is no view)
    return out


def _grads(outputs, inputs, cotangents, create_graph, retain_graph=None):
    """Gradients of ``outputs`` wrt ``inputs`` with zeros where an input is unused."""
    keep = [(o, c) for o, c in zip(outputs, cotangents) if o.requires_grad]
    if keep:
        res = _autograd_grad_raw(tuple(o for o, _ in keep), tuple(inputs),
                                 tuple(c for _, c in keep), create_graph=create_graph,
                                 retain_graph=retain_graph, allow_unused=True)
    else:
        res = (None,) * len(inputs)
    return [_creation.zeros_like(x) if g is None else g for g, x in zip(res, inputs)]


# ---- grad, grad_and_value -------------------------------------------------------------
def grad_and_value(func, argnums=0, has_aux=False):
    """A function returning ``(gradient of func wrt args[argnums], func's value)``."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        diff_args = _slice_argnums(args, argnums, as_tuple=False)
        flat, spec = tree_flatten(diff_args)
        keep = _keep_mode(flat)
        with grad_mode.enable_grad():
            flat = [_differentiable(t) for t in flat]
            args = _replace_argnums(args, argnums, tree_unflatten(flat, spec))
            output = func(*args, **kwargs)
            output, aux = _split_aux(output, has_aux, "grad_and_value(f)(*args)")
            if not isinstance(output, Tensor):
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a "
                                   f"Tensor, got {type(output)}")
            if output.dim() != 0:
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, "
                    f"got tensor with {output.dim()} dims. Maybe you wanted to use the vjp or "
                    "jacrev APIs instead?")
            grads = _grads((output,), flat, (None,), create_graph=keep)
        grads = _detach_tree(tree_unflatten(grads, spec), keep)
        output = _detach_tree(output, keep)
        if has_aux:
            return grads, (output, _detach_tree(aux, keep))
        return grads, output

    wrapper._batch_first = True  # (under vmap: Note [vmap results' layout])
    return wrapper


def grad(func, argnums=0, has_aux=False):
    """A function returning the gradient of scalar ``func`` wrt ``args[argnums]``."""
    gv = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, value = gv(*args, **kwargs)
        if has_aux:
            return g, value[1]
        return g

    wrapper._batch_first = True
    return wrapper


# ---- vjp, jacrev ----------------------------------------------------------------------
def _check_out_tensors(flat, api):
    for o in flat:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got "
                               f"unsupported type {type(o)}")


def vjp(func, *primals, has_aux=False):
    """``(func(*primals), vjp_fn[, aux])``; ``vjp_fn(cotangents)`` returns one gradient per
    primal (a tuple shaped like ``primals``)."""
    flat, spec = tree_flatten(primals)
    keep = _keep_mode(flat)
    with grad_mode.enable_grad():
        flat = [_differentiable(t) for t in flat]
        output = func(*tree_unflatten(flat, spec))
        output, aux = _split_aux(output, has_aux, "vjp(f, *primals)")
        flat_out, out_spec = tree_flatten(output)
        _check_out_tensors(flat_out, "vjp(f, *primals)")

    def vjp_fn(cotangents, *, retain_graph=True, create_graph=None):
        if create_graph is None:
            create_graph = grad_mode.is_grad_enabled()  # (PyTorch's default)
        flat_cot, cot_spec = tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure "
                f"of outputs to the function. cotangents: {_spec_str(cot_spec)}, primal "
                f"output: {_spec_str(out_spec)}")
        for c, o in zip(flat_cot, flat_out):
            if c.shape != o.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[0] has a shape of {c.shape} and "
                    f"output[0] has a shape of {o.shape}.")
        with grad_mode.enable_grad():
            g = _grads(flat_out, flat, flat_cot, create_graph or keep == "graph",
                       retain_graph=retain_graph or keep)
        # (vjp_fn runs after vjp's level is gone: the engine's gradients, not unwrapped)
        return _detach_tree(tree_unflatten(g, spec), keep, fresh=False)

    out = _detach_tree(output, keep)
    if has_aux:
        return out, vjp_fn, _detach_tree(aux, keep)
    return out, vjp_fn


def _basis_rows(flat_ref):
    """One-hot tensors covering every element of every tensor in ``flat_ref``: yields
    (i, list of tensors with a single 1 in tensor i)."""
    for i, r in enumerate(flat_ref):
        for k in range(r.numel()):
            row = []
            for j, q in enumerate(flat_ref):
                z = _creation.zeros(tuple(q.shape), dtype=q.dtype)
                if j == i:
                    z.view(-1)[k] = 1
                row.append(z)
            yield i, row


def _stack(rows):
    from .. import _ops as F
    return F.stack(rows, 0)


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian of ``func`` wrt ``args[argnums]`` by reverse mode (one vjp per output
    element)."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        primals = _slice_argnums(args, argnums)

        def f(*p):
            return func(*_replace_argnums(args, argnums, p[0] if isinstance(argnums, int)
                                          else p), **kwargs)

        res = vjp(f, *primals, has_aux=has_aux)
        output, vjp_fn = res[0], res[1]
        flat_out, out_spec = tree_flatten(output)
        flat_in = list(primals)
        per_in = [[] for _ in flat_in]  # each input's rows, over every output's elements
        for _, row in _basis_rows(flat_out):
            for j, gj in enumerate(vjp_fn(tree_unflatten(row, out_spec))):
                per_in[j].append(gj)
        if not per_in[0]:  # no output elements: an empty slice of a vjp keeps the history
            zero = vjp_fn(tree_unflatten([_creation.zeros_like(o) for o in flat_out],
                                         out_spec))
            per_in = [[g] for g in zero]
            stacked = [_stack(g).narrow(0, 0, 0) for g in per_in]
        else:
            stacked = [_stack(rows) for rows in per_in]
        # PyTorch's assembly: one tensor per input, split by output, each viewed as
        # out.shape + input.shape
        numels = [o.numel() for o in flat_out]
        by_input = [[s.view(tuple(o.shape) + tuple(x.shape))
                     for s, o in zip(big.split(numels, 0), flat_out)]
                    for big, x in zip(stacked, flat_in)]
        jac = [[by_input[j][i] for j in range(len(flat_in))] for i in range(len(flat_out))]
        jac = [r[0] if isinstance(argnums, int) else tuple(r) for r in jac]
        jac = tree_unflatten(jac, out_spec)
        if has_aux:
            return jac, res[2]
        return jac

    return wrapper


# ---- jvp, jacfwd, hessian, linearize ---------------------------------------------------
def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J @ tangents[, aux])``, by forward mode."""
    api = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{api}: Expected primals to be a tuple. E.g. it should be valid "
                           "to call f(*primals).")
    flat_p, p_spec = tree_flatten(primals)
    flat_t, t_spec = tree_flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError(
            f"{api}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {_spec_repr(p_spec)} and tangents with structure "
            f"{_spec_repr(t_spec)}")
    for x in flat_p:
        if not isinstance(x, Tensor):
            raise RuntimeError(f"{api}: Expected primals to only contain Tensors, got "
                               f"{type(x)}")
    for x in flat_t:
        if not isinstance(x, Tensor):
            raise RuntimeError(f"{api}: Expected tangents to only contain Tensors, got "
                               f"{type(x)}")
    return _jvp_impl(func, flat_p, flat_t, p_spec, has_aux, api, strict)


def _split_aux(output, has_aux, api):
    """(output, aux) of a function called with ``has_aux`` (aux None without it)."""
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: "
                           "(output, aux) if has_aux is True")
    return output


_OWN_LEVEL = [0]  # open forward-AD levels entered by jvp itself (jacfwd of jacfwd nests)


class _own_level:
    def __enter__(self):
        _OWN_LEVEL[0] += 1

    def __exit__(self, *exc):
        _OWN_LEVEL[0] -= 1


def _jvp_impl(func, flat_p, flat_t, p_spec, has_aux, api, strict=False):
    """J @ t by forward mode; inside an open forward-AD level (jacfwd of jacfwd: PyTorch
    nests levels, autotensor has one) by the double-backward trick."""
    from ..autograd import forward_ad as fwAD
    if fwAD._active_level():
        if not _OWN_LEVEL[0]:  # (a level the user opened: PyTorch's jvp enters its own)
            raise RuntimeError("Nested forward mode AD is not supported at the moment")
        return _jvp_double_backward(func, flat_p, flat_t, p_spec, has_aux, api, strict)
    keep = _keep_mode(flat_p + flat_t)
    with fwAD.dual_level(), _own_level():
        duals = [fwAD.make_dual(p, t) for p, t in zip(flat_p, flat_t)]
        output = func(*tree_unflatten(duals, p_spec))
        output, aux = _split_aux(output, has_aux, api)
        flat_out, out_spec = tree_flatten(output)
        _check_out_tensors(flat_out, api)
        primals_out, tangents_out = [], []
        for o in flat_out:
            p, t = fwAD.unpack_dual(o)
            if t is None:
                if strict:
                    raise RuntimeError(f"{api[:-1]}, strict=True): The output of f is "
                                       "independent of the inputs. This is not allowed with "
                                       "strict=True.")
                t = _creation.zeros_like(p)
            primals_out.append(p if keep else _unwrapped(p, None))
            tangents_out.append(t if keep else _unwrapped(t, None))
        if has_aux:
            aux = _detach_tree(aux, keep)
    res = (tree_unflatten(primals_out, out_spec), tree_unflatten(tangents_out, out_spec))
    return res + (aux,) if has_aux else res


def _jvp_double_backward(func, flat_p, flat_t, p_spec, has_aux, api, strict=False):
    """J @ t by the double-backward trick (Note [Double-backward trick] in
    autograd/functional.py): differentiate u^T J with respect to the dummy u."""
    keep = _keep_mode(flat_p)
    with grad_mode.enable_grad():
        diff = [_differentiable(p) for p in flat_p]
        output = func(*tree_unflatten(diff, p_spec))
        output, aux = _split_aux(output, has_aux, api)
        flat_out, out_spec = tree_flatten(output)
        _check_out_tensors(flat_out, api)
        if strict and not all(o.requires_grad for o in flat_out):
            raise RuntimeError(f"{api[:-1]}, strict=True): The output of f is independent of "
                               "the inputs. This is not allowed with strict=True.")
        dummies = [_creation.zeros_like(o, requires_grad=True) for o in flat_out]
        ujac = _grads(flat_out, diff, dummies, create_graph=True)
        jv = _grads(ujac, dummies, flat_t, create_graph=keep)
    res = (_detach_tree(tree_unflatten(flat_out, out_spec), keep),
           _detach_tree(tree_unflatten(jv, out_spec), keep))
    if has_aux:
        return res + (_detach_tree(aux, keep),)
    return res


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian of ``func`` wrt ``args[argnums]`` by forward mode (one jvp per input
    element)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        primals = _slice_argnums(args, argnums)

        def f(*p):
            return func(*_replace_argnums(args, argnums, p[0] if isinstance(argnums, int)
                                          else p), **kwargs)

        flat_in = list(primals)
        per_in = []  # per_in[j]: list over in_j's elements of the flat output tangents
        out_spec = flat_out = aux = None
        for j, row in _basis_rows(flat_in):
            res = jvp(f, tuple(flat_in), tuple(row), has_aux=has_aux)
            output, tangent = res[0], res[1]
            if has_aux:
                aux = res[2]
            flat_out, out_spec = tree_flatten(output)
            while len(per_in) <= j:
                per_in.append([])
            per_in[j].append(tree_flatten(tangent)[0])
        if flat_out is None:  # only empty inputs: evaluate once for the output structure
            out = f(*flat_in)
            if has_aux:
                out, aux = out
            flat_out, out_spec = tree_flatten(out)
        from .. import _ops as F
        jac = []
        for i, o in enumerate(flat_out):
            row = []
            for j, x in enumerate(flat_in):
                shape = tuple(o.shape) + tuple(x.shape)
                cols = [c[i] for c in per_in[j]] if j < len(per_in) else []
                row.append(F.stack(cols, -1).reshape(shape) if cols
                           else _creation.zeros(shape, dtype=o.dtype))
            jac.append(row[0] if isinstance(argnums, int) else tuple(row))
        jac = tree_unflatten(jac, out_spec)
        if has_aux:
            return jac, aux
        return jac

    return wrapper


def hessian(func, argnums=0):
    """The Hessian by forward-over-reverse: ``jacfwd(jacrev(func))``, as PyTorch."""
    return jacfwd(jacrev(func, argnums), argnums)


def linearize(func, *primals):
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` gives J @ tangents at primals.

    PyTorch traces the jvp once with make_fx; here ``jvp_fn`` reruns forward mode at the
    saved primals (same values; the function must be pure, as PyTorch requires)."""
    primals = tuple(p.detach() for p in primals)
    flat_p, p_spec = tree_flatten(primals)
    with grad_mode.no_grad():
        output = func(*primals)

    def jvp_fn(*tangents):
        flat_t, t_spec = tree_flatten(tangents)
        if t_spec != p_spec:
            raise RuntimeError(
                "Expected the tangents to have the same structure as the primals passed to "
                f"linearize: primals {_spec_str(p_spec)}, tangents {_spec_str(t_spec)}")
        for i, (p, t) in enumerate(zip(flat_p, flat_t)):
            if p.shape != t.shape:
                raise RuntimeError(f"Expected tangent {i} to have shape {p.shape} but got "
                                   f"{t.shape}")
        return jvp(func, primals, tangents)[1]

    return output, jvp_fn


# ---- functional_call -------------------------------------------------------------
def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """Call ``module`` with its parameters and buffers replaced by the given tensors (by
    their qualified names); the module is left unchanged afterwards."""
    if isinstance(parameter_and_buffer_dicts, dict):
        values = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, (list, tuple)):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be "
                             "dictionaries")
        seen, repeated = set(), []
        for d in parameter_and_buffer_dicts:
            for k in d:
                if k in seen and k not in repeated:
                    repeated.append(k)
                seen.add(k)
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of "
                             "functional call is ambiguous")
        values = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple "
                         f"of dicts, but got {type(parameter_and_buffer_dicts)}")
    own = [n for n, _ in module.named_parameters()] + [n for n, _ in module.named_buffers()]
    if strict:
        unexpected = [k for k in values if k not in own]
        missing = [k for k in own if k not in values]
        msgs = []
        if unexpected:
            msgs.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
        if missing:
            msgs.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
        if msgs:
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t"
                               + "\n\t".join(msgs))
    saved = []
    try:
        for name, value in values.items():
            owner, _, attr = name.rpartition(".")
            m = module
            for part in owner.split(".") if owner else ():
                m = getattr(m, part)
            for store in (m._parameters, m._buffers):
                if attr in store:
                    saved.append((store, attr, store[attr]))
                    store[attr] = value
                    break
            else:
                saved.append((m.__dict__, attr, m.__dict__.get(attr, _MISSING)))
                m.__dict__[attr] = value
        if args is None:
            args = ()
        elif not isinstance(args, tuple):
            args = (args,)
        return module(*args, **(kwargs or {}))
    finally:
        for store, attr, old in reversed(saved):
            if old is _MISSING:
                del store[attr]
            else:
                store[attr] = old


_MISSING = object()


from ._vmap import stack_module_state, vmap  # noqa: E402  (it builds on the pytree above)
