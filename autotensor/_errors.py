"""User-facing error messages, worded exactly as PyTorch 2.13 words them.

Kept in one place so a test can compare each with torch, and so the wording is never
re-typed (and drifted) at a call site.
"""

NON_SCALAR_BACKWARD = "grad can be implicitly created only for scalar outputs"
NON_REAL_BACKWARD = "grad can be implicitly created only for real scalar outputs but got {}"
BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")
NO_GRAD_FN = "element {} of tensors does not require grad and does not have a grad_fn"
UNUSED_INPUT = ("The differentiated Tensor at index {} appears to not have been used in the "
                "graph. Set allow_unused=True if this is the desired behavior.")
REQUIRES_GRAD_DTYPE = "only Tensors of floating point dtype can require gradients"
REQUIRES_GRAD_DTYPE_SETTER = ("only Tensors of floating point and complex dtype can require "
                              "gradients")
REQUIRES_GRAD_DTYPE_CTOR = "Only Tensors of floating point and complex dtype can require gradients"
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
SAVED_DETACHED_INPLACE = ("Trying to use a saved tensor that has been detached in-place, i.e. "
                          "with .detach_().This is not supported, please use out-of-place "
                          "`.detach()` instead")
VIEW_OF_LEAF_INPLACE = ("a view of a leaf Variable that requires grad is being used in an "
                        "in-place operation.")
NUMPY_REQUIRES_GRAD = ("Can't call numpy() on Tensor that requires grad. "
                       "Use tensor.detach().numpy() instead.")
BROADCAST = ("The size of tensor a ({}) must match the size of tensor b ({}) at "
             "non-singleton dimension {}")
MM_SHAPES = "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})"
VIEW_STRIDE = ("view size is not compatible with input tensor's size and stride (at least one "
               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
SHAPE_INVALID = "shape '[{}]' is invalid for input of size {}"
DIM_RANGE = "Dimension out of range (expected to be in range of [{}, {}], but got {})"
INDEX_RANGE = "index {} is out of bounds for dimension {} with size {}"
SAVED_MODIFIED = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [{type} [{shape}]], which is output {nr} of {op}, is at version {now}; "
    "expected version {saved} instead. Hint: enable anomaly detection to find the operation "
    "that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, "
    "check_nan=False).")
SAVED_MODIFIED_LEAF = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [{type} [{shape}]] is at version {now}; expected version {saved} instead. "
    "Hint: enable anomaly detection to find the operation that failed to compute its "
    "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
GRAD_SIZE = ("attempting to assign a gradient of size '[{}]' to a tensor of size '[{}]'. "
             "Please ensure that the gradient and the tensor are the same size")
GRAD_DTYPE = (
    "attempting to assign a gradient with dtype '{}' to a tensor with grad_dtype '{}'. The "
    "gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can "
    "set the tensor's grad_dtype attribute with a specific dtype, or None to allow any "
    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its gradient "
    "may break downstream systems that assume they match.")


def shape_str(shape):
    """'2, 2' for (2, 2): how PyTorch lists sizes inside brackets."""
    return ", ".join(str(s) for s in shape)


def no_dims_error(dim):
    """Tensor.size(dim)'s error for a 0-d tensor, which wraps no dim at all."""
    return IndexError(f"Dimension specified as {dim} but tensor has no dimensions")


def dim_error(dim, ndim):
    lo, hi = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    return IndexError(DIM_RANGE.format(lo, hi, dim))


def wrap_dim(dim, ndim):
    """Normalise a possibly negative dim, raising PyTorch's IndexError when out of range."""
    n = ndim if ndim > 0 else 1
    if dim < -n or dim >= n:
        raise dim_error(dim, ndim)
    return dim + n if dim < 0 else dim

# engine.cpp's validate_outputs, for a node whose formula returns a complex gradient for a
# real input (fill_ / masked_fill / index_fill's value: no handle_r_to_c)
COMPLEX_GRAD_FOR_REAL = ("Expected isFloatingType(grad.scalar_type()) || (input_is_complex == "
                         "grad_is_complex) to be true, but got false.  (Could this error message "
                         "be improved?  If so, please report an enhancement request to PyTorch.)")
