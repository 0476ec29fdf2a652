"""The ATen-level bindings of nn.functional's kernels and losses that PyTorch exposes as
``torch.X`` (``torch.conv2d``, ``torch.batch_norm``, ``torch.kl_div``...), with ATen's
signatures: positional order as in ``native_functions.yaml`` (``torch.batch_norm(input,
weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled)``), int
flags, ``cudnn_enabled`` accepted and ignored, losses taking ``reduction`` as ATen's enum.
Each is a thin wrapper over the one nn.functional kernel; ``autotensor/__init__.py``
re-exports them.

Note [Loss reduction enum]
~~~~~~~~~~~~~~~~~~~~~~~~~~
ATen's losses take ``reduction`` as ``at::Reduction`` (0 none, 1 mean, 2 sum; any other
value leaves the loss unreduced, as ``apply_loss_reduction`` does). The schema's default is
``Mean``, but PyTorch 2.13's Python binding of these functions parses that default as 0:
``torch.kl_div(x, y)`` returns the unreduced loss. We give the default Python users get.
"""
from .. import _argparse
from .._ops import nn_ops as _nn_ops
from . import functional as F

__all__ = [
    "bilinear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d",
    "adaptive_avg_pool1d", "adaptive_max_pool1d", "pixel_shuffle", "pixel_unshuffle",
    "batch_norm", "layer_norm", "group_norm", "instance_norm", "rms_norm", "dropout",
    "dropout_", "alpha_dropout", "alpha_dropout_", "feature_alpha_dropout",
    "feature_alpha_dropout_", "embedding", "embedding_bag", "cosine_similarity",
    "pairwise_distance", "binary_cross_entropy_with_logits", "kl_div", "poisson_nll_loss",
    "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss",
    "triplet_margin_loss", "ctc_loss", "conv_tbc", "grid_sampler", "grid_sampler_2d",
    "grid_sampler_3d", "native_layer_norm", "native_batch_norm",
    "native_group_norm"]

# the same signatures as nn.functional's: one function
bilinear = F.bilinear
conv1d, conv2d, conv3d = F.conv1d, F.conv2d, F.conv3d
conv_transpose1d, conv_transpose2d, conv_transpose3d = (
    F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)
adaptive_avg_pool1d = F.adaptive_avg_pool1d
pixel_shuffle, pixel_unshuffle = F.pixel_shuffle, F.pixel_unshuffle
rms_norm = F.rms_norm
cosine_similarity, pairwise_distance = F.cosine_similarity, F.pairwise_distance
conv_tbc = F.conv_tbc
native_layer_norm = F._native_layer_norm
native_batch_norm = F._native_batch_norm
native_group_norm = F._native_group_norm
from .._ops.nn_ops import grid_sampler, grid_sampler_2d, grid_sampler_3d  # noqa: E402


def _type_error(fname, arg, position, expected, value):
    return TypeError(f"{fname}(): argument '{arg}' (position {position}) must be {expected}, "
                     f"not {type(value).__name__}")


def _stride(stride):
    """ATen's ``int[] stride=[]``: empty means the kernel size."""
    return None if stride is None or (isinstance(stride, (list, tuple)) and not stride) \
        else stride


# ---- pooling: the tensor only (the *_with_indices functions give both) --------------------
def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool1d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool2d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool3d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def avg_pool1d(input, kernel_size, stride=(), padding=0, ceil_mode=False,
               count_include_pad=True):
    return F.avg_pool1d(input, kernel_size, _stride(stride), padding, ceil_mode,
                        count_include_pad)


def adaptive_max_pool1d(input, output_size):
    """(values, indices), always."""
    return F.adaptive_max_pool1d(input, output_size, True)


# ---- normalisation: parameters before statistics, every argument positional -------------
def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled):
    _argparse.bools(training, cudnn_enabled)  # (Note [Argument errors on the exception
    _argparse.floats(momentum, eps)  # path] in _argparse.py)
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
                        eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
                  eps, cudnn_enabled):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                           momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    if not isinstance(normalized_shape, (list, tuple)):
        raise _type_error("layer_norm", "normalized_shape", 2, "tuple of ints",
                          normalized_shape)
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    _argparse.ints(num_groups)
    return F._group_norm(input, num_groups, weight, bias, eps)


# ---- dropout: (input, p, train), and in place ----------------------------------------------
def _check_p(p):
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p:g}")


def dropout(input, p, train):
    _argparse.bools(train)
    _check_p(p)
    return F.dropout(input, p, train)


def dropout_(input, p, train):
    _argparse.bools(train)
    _check_p(p)
    return F.dropout(input, p, train, inplace=True)


def alpha_dropout(input, p, train):
    _check_p(p)
    return F.alpha_dropout(input, p, train)


def alpha_dropout_(input, p, train):
    _check_p(p)
    return F.alpha_dropout(input, p, train, inplace=True)


def feature_alpha_dropout(input, p, train):
    _check_p(p)
    return F.feature_alpha_dropout(input, p, train)


def feature_alpha_dropout_(input, p, train):
    _check_p(p)
    return F.feature_alpha_dropout(input, p, train, inplace=True)


# ---- embeddings: weight first; padding_idx -1 means none -----------------------------------
def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return F._embedding(weight, indices, padding_idx, scale_grad_by_freq)


_BAG_MODES = ("sum", "mean", "max")


def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                  per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """(output, offset2bag, bag_size, max_indices) as aten's CPU kernel returns them."""
    from .._tensor import Tensor
    if not isinstance(offsets, Tensor):
        raise _type_error("embedding_bag", "offsets", 3, "Tensor", offsets)
    return F._embedding_bag(indices, weight, offsets, scale_grad_by_freq, _BAG_MODES[mode],
                            per_sample_weights, include_last_offset, padding_idx)


# ---- losses: reduction as ATen's enum (Note [Loss reduction enum]) --------------------------
def _reduction(fname, reduction, position):
    if isinstance(reduction, bool) or not isinstance(reduction, int):
        raise _type_error(fname, "reduction", position, "int", reduction)
    return {1: "mean", 2: "sum"}.get(reduction, "none")


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    _reduction("binary_cross_entropy_with_logits", reduction, 5)
    return _nn_ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                                    reduction)


def kl_div(input, target, reduction=0, *, log_target=False):
    return F._kl_div(input, target, _reduction("kl_div", reduction, 3), log_target)


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps,
                              reduction=_reduction("poisson_nll_loss", reduction, 6))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.margin_ranking_loss(input1, input2, target, margin,
                                 reduction=_reduction("margin_ranking_loss", reduction, 5))


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return F.hinge_embedding_loss(input, target, margin,
                                  reduction=_reduction("hinge_embedding_loss", reduction, 4))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.cosine_embedding_loss(input1, input2, target, margin,
                                   reduction=_reduction("cosine_embedding_loss", reduction, 5))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False,
                        reduction=0):
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                 reduction=_reduction("triplet_margin_loss", reduction, 8))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0,
             zero_infinity=False):
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                      _reduction("ctc_loss", reduction, 6), zero_infinity)

