"""``autograd.functional``: vjp, jvp, jacobian, hessian, hvp, vhp as PyTorch has them.

Each function takes a user function and its inputs (a Tensor or a tuple of Tensors) and
returns results shaped like PyTorch's: a Tensor where the inputs/outputs were Tensors, a
tuple (or tuple of tuples for Jacobians) where they were tuples. The inputs are detached
(or, with ``create_graph=True``, aliased by a view so the result stays differentiable with
respect to them), exactly as PyTorch's ``_grad_preprocess`` does.

Note [Double-backward trick]: ``jvp`` and ``hvp`` are computed, as in PyTorch, by
differentiating a vjp with respect to its (dummy, zero) cotangent: ``d/du (u^T J) v = J v``.
It needs only reverse mode, and it keeps PyTorch's ``strict`` errors and ``create_graph``
semantics word for word. ``jacobian(strategy="forward-mode")`` uses forward mode
(``autograd.forward_ad``), one dual pass per input element.

``vectorize=True`` is accepted; without vmap the rows are computed one by one, which gives
the same values (PyTorch batches them with vmap only for speed).
"""
from .. import _creation
from .._tensor import Tensor
from . import grad_mode
from .engine import grad as _grad

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _as_tuple_nocheck(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _as_tuple(inp, arg_name=None, fn_name=None):
    if arg_name is None and fn_name is None:
        return _as_tuple_nocheck(inp)
    is_tuple = isinstance(inp, tuple)
    if not is_tuple:
        inp = (inp,)
    for i, el in enumerate(inp):
        if not isinstance(el, Tensor):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                                f"tuple of Tensors but the value at index {i} has type "
                                f"{type(el)}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                            f"tuple of Tensors but the given {arg_name} has type {type(el)}.")
    return is_tuple, inp


def _tuple_postprocess(res, to_unpack):
    """Unpack one level (or two, for Jacobians) where the user gave a Tensor, not a tuple."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs, create_graph, need_graph):
    """Fresh differentiable aliases of the inputs: with create_graph, a view keeps the
    link to the caller's graph; otherwise a detached leaf."""
    res = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            res.append(inp.view_as(inp))
        else:
            res.append(inp.detach().requires_grad_(need_graph))
    return tuple(res)


def _grad_postprocess(inputs, create_graph):
    if isinstance(inputs[0], Tensor):
        return inputs if create_graph else tuple(inp.detach() for inp in inputs)
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but "
                               f"got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but "
                               f"got {el_v.size()}.")


def _check_requires_grad(inputs, input_type, strict):
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:
            raise RuntimeError(f"The output of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode.")
        if not inp.requires_grad:
            if input_type == "hessian":
                raise RuntimeError(
                    f"The hessian of the user-provided function with respect to input {i} is "
                    "independent of the input. This is not allowed in strict mode. You should "
                    "ensure that your function is thrice differentiable and that the hessian "
                    "depends on the inputs.")
            if input_type == "jacobian":
                raise RuntimeError(
                    "While computing the hessian, found that the jacobian of the user-provided "
                    f"function with respect to input {i} is independent of the input. This is "
                    "not allowed in strict mode. You should ensure that your function is twice "
                    "differentiable and that the jacobian depends on the inputs (this would be "
                    "violated by a linear function for example).")
            if input_type == "grad_inputs":
                raise RuntimeError(f"The gradient with respect to input {i} is independent of "
                                   "the inputs of the user-provided function. This is not "
                                   "allowed in strict mode.")
            raise RuntimeError(f"Output {i} of the user-provided function does not require "
                               "gradients. The outputs must be computed in a differentiable "
                               "manner from the input when running in strict mode.")


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False,
                   retain_graph=None):
    """autograd.grad over the outputs that require grad (None for every input if none)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    new_outputs, new_grad_outputs = (), ()
    for out, grad_out in zip(outputs, grad_outputs):
        if out is not None and out.requires_grad:
            new_outputs += (out,)
            new_grad_outputs += (grad_out,)
    if not new_outputs:
        return (None,) * len(inputs)
    return _grad(new_outputs, inputs, new_grad_outputs, allow_unused=True,
                 create_graph=create_graph, retain_graph=retain_graph)


_STAGE_ERRORS = {
    "back": "The output of the user-provided function is independent of input {}. This is "
            "not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {}. "
                   "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
                         "{} in the grad_jacobian. This is not allowed in strict mode as it "
                         "prevents from using the double backward trick to replace forward "
                         "mode AD.",
}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    res = ()
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_STAGE_ERRORS[stage].format(i))
            g = _creation.zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode when "
                               "create_graph=True.")
        res += (g,)
    return res


def _prepare_v(v, refs, is_refs_tuple, create_graph, fn_name, v_none_msg):
    if v is not None:
        _, v = _as_tuple(v, "v", fn_name)
        v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
        _validate_v(v, refs, is_refs_tuple)
    elif len(refs) != 1 or refs[0].nelement() != 1:
        raise RuntimeError(v_none_msg)
    return v


_V_NONE_INPUT = ("The vector v can only be None if the input to the user-provided function is "
                 "a single Tensor with a single element.")


def _product_result(outputs, is_outputs_tuple, roots, wrt, v, zeros_like, is_res_tuple,
                    create_graph, strict, stage):
    """The last backward pass of vjp/jvp/vhp/hvp and their (outputs, product) pair.

    It runs with grad mode as the caller has it unless ``create_graph`` asks for a graph.
    """
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        grad_res = _autograd_grad(roots, wrt, v, create_graph=create_graph)
        res = _fill_in_zeros(grad_res, zeros_like, strict, create_graph, stage)
    outputs = _grad_postprocess(outputs, create_graph)
    res = _grad_postprocess(res, create_graph)
    return (_tuple_postprocess(outputs, is_outputs_tuple),
            _tuple_postprocess(res, is_res_tuple))


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T J)``: the vector-Jacobian product at ``inputs``."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(
            outputs, "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        v = _prepare_v(v, outputs, is_outputs_tuple, create_graph, "vjp",
                       "The vector v can only be None if the user-provided function returns "
                       "a single Tensor with a single element.")
    return _product_result(outputs, is_outputs_tuple, outputs, inputs, v, inputs, is_inputs_tuple,
                           create_graph, strict, "back")


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)``: the Jacobian-vector product (Note [Double-backward trick])."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, "jvp", _V_NONE_INPUT)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(
            outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        grad_outputs = tuple(_creation.zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
    return _product_result(outputs, is_outputs_tuple, grad_inputs, grad_outputs, v, outputs,
                           is_outputs_tuple, create_graph, strict, "back_trick")


def _jacfwd(func, inputs, strict=False, vectorize=False):
    """The Jacobian by forward mode: one dual pass per input element (a basis tangent)."""
    if strict:
        raise RuntimeError(
            "torch.autograd.functional.jacobian: `strict=True` and `strategy=\"forward-mode\"` "
            "are not supported together (yet). Please either set `strict=False` or "
            "`strategy=\"reverse-mode\"`.")
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
            "only implemented for `vectorize=True`.")
    from . import forward_ad as fwAD
    columns = None  # columns[i][j]: list of J_ij columns, one per element of input j
    outputs = is_outputs_tuple = None
    for j, inp in enumerate(inputs):
        for k in range(inp.numel()):
            with fwAD.dual_level():
                duals = []
                for jj, x in enumerate(inputs):
                    if jj == j:
                        t = _creation.zeros(x.numel(), dtype=x.dtype)
                        t[k] = 1
                        duals.append(fwAD.make_dual(x, t.view_as(x)))
                    else:
                        duals.append(x)
                is_outputs_tuple, dual_outputs = _as_tuple(func(*duals), "outputs")
                outs, tangents = [], []
                for d in dual_outputs:
                    primal, tangent = fwAD.unpack_dual(d)
                    outs.append(primal)
                    tangents.append(_creation.zeros_like(primal) if tangent is None
                                    else tangent)
            if columns is None:
                outputs = outs
                columns = [[[] for _ in inputs] for _ in outs]
            for i, tangent in enumerate(tangents):
                columns[i][j].append(tangent)
    if columns is None:  # every input is empty: run once to learn the outputs
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs")
        columns = [[[] for _ in inputs] for _ in outputs]
    from .. import _ops as F
    jac = [[_stack_columns(F, cols, out, inp) for cols, inp in zip(row, inputs)]
           for row, out in zip(columns, outputs)]  # lists, as PyTorch's forward mode
    return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def _stack_columns(F, cols, out, inp):
    if not cols:
        return _creation.zeros(tuple(out.shape) + tuple(inp.shape), dtype=out.dtype)
    return F.stack(cols, -1).reshape(tuple(out.shape) + tuple(inp.shape))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: ``jac[i][j]`` has shape
    ``outputs[i].shape + inputs[j].shape``."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            "Expected strategy to be either \"forward-mode\" or \"reverse-mode\". Hint: If your "
            "function has more outputs than inputs, \"forward-mode\" tends to be more "
            "performant. Otherwise, prefer to use \"reverse-mode\".")
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                "`strategy=\"forward-mode\"` are not supported together (yet). Please either "
                "set `create_graph=False` or `strategy=\"reverse-mode\"`.")
        return _jacfwd(func, inputs, strict, vectorize)
    from .. import _ops as F
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(
            outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or "
                "`vectorize=False`.")
        jac = ()
        for i, out in enumerate(outputs):
            jac_i = tuple([] for _ in inputs)
            flat = out.reshape(-1)
            for j in range(out.nelement()):
                vj = _autograd_grad((flat[j],), inputs, retain_graph=True,
                                    create_graph=create_graph)
                for el_idx, (jac_i_el, vj_el, inp_el) in enumerate(zip(jac_i, vj, inputs)):
                    if vj_el is not None:
                        if strict and create_graph and not vj_el.requires_grad:
                            raise RuntimeError(
                                f"The jacobian of the user-provided function is independent "
                                f"of input {i}. This is not allowed in strict mode when "
                                "create_graph=True.")
                        jac_i_el.append(vj_el)
                    else:
                        if strict:
                            raise RuntimeError(
                                f"Output {i} of the user-provided function is independent of "
                                f"input {el_idx}. This is not allowed in strict mode.")
                        jac_i_el.append(_creation.zeros_like(inp_el))
            jac += (tuple(
                F.stack(jac_i_el, 0).view(out.size() + inputs[el_idx].size())
                if jac_i_el else
                _creation.zeros(out.size() + inputs[el_idx].size(), dtype=inputs[el_idx].dtype)
                for el_idx, jac_i_el in enumerate(jac_i)),)
        jac = _grad_postprocess(jac, create_graph)
        return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its (differentiable) gradient."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError("Expected strategy to be either \"forward-mode\" or "
                             "\"reverse-mode\".")

    def ensure_single_output_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function",
                                        "hessian")
        _check_requires_grad(t_out, "outputs", strict=strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return out.squeeze()

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict,
                   vectorize=vectorize, strategy=outer_jacobian_strategy)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def _scalar_function_outputs(func, inputs, strict, name):
    outputs = func(*inputs)
    is_outputs_tuple, outputs = _as_tuple(
        outputs, "outputs of the user-provided function", name)
    _check_requires_grad(outputs, "outputs", strict=strict)
    if is_outputs_tuple or not isinstance(outputs[0], Tensor):
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {name} should "
                           "contain a single element")
    return is_outputs_tuple, outputs


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T H)`` for a scalar function, without forming H."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vhp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, "vhp", _V_NONE_INPUT)
        is_outputs_tuple, outputs = _scalar_function_outputs(func, inputs, strict, "vhp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
    return _product_result(outputs, is_outputs_tuple, jac, inputs, v, inputs, is_inputs_tuple,
                           create_graph, strict, "double_back")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)`` for a scalar function (Note [Double-backward trick])."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, "hvp", _V_NONE_INPUT)
        is_outputs_tuple, outputs = _scalar_function_outputs(func, inputs, strict, "hvp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        grad_jac = tuple(_creation.zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict=strict)
    return _product_result(outputs, is_outputs_tuple, double_back, grad_jac, v, inputs,
                           is_inputs_tuple, create_graph, strict, "double_back_trick")
