"""op_db samples for nn kernels (nn_ops: pooling, normalisation, losses, interpolation).

Imported by op_db.py at its end; ``add`` appends to the shared ``SAMPLES`` list, so every
sample here gets the generated tests (values, gradcheck, gradgradcheck, forward AD vs torch).
"""
import numpy as np  # noqa: F401

from op_db import add  # noqa: F401

_F = lambda name, *a, **kw: (lambda m, x: getattr(m.nn.functional, name)(x, *a, **kw))  # noqa: E731

# ---- index-map ops (Note [Index-map ops] in _ops/nn_ops.py) ----------------------------------
for _mode in ("constant", "reflect", "replicate"):
    add(f"pad_{_mode}_2d", _F("pad", (1, 2, 2, 1), mode=_mode), lambda g: [g.u(2, 2, 3, 4)])
    add(f"pad_{_mode}_1d", _F("pad", (2, 1), mode=_mode), lambda g: [g.u(2, 3, 4)])
add("pad_replicate_3d", _F("pad", (1, 0, 0, 1, 1, 1), mode="replicate"),
    lambda g: [g.u(1, 2, 2, 3, 2)])
add("pad_constant_negative", _F("pad", (-1, 2, 0, -1), value=0.5), lambda g: [g.u(2, 3, 4)])
add("pixel_shuffle", _F("pixel_shuffle", 2), lambda g: [g.u(2, 8, 2, 3)])
add("pixel_unshuffle", _F("pixel_unshuffle", 2), lambda g: [g.u(1, 2, 4, 2)])
add("interpolate_nearest", _F("interpolate", size=(5, 3)), lambda g: [g.u(1, 2, 3, 4)])
add("interpolate_nearest_exact_1d", _F("interpolate", scale_factor=1.6, mode="nearest-exact"),
    lambda g: [g.u(2, 2, 5)])
add("interpolate_linear", _F("interpolate", size=7, mode="linear"), lambda g: [g.u(2, 2, 4)])
add("interpolate_bilinear", _F("interpolate", scale_factor=1.5, mode="bilinear"),
    lambda g: [g.u(1, 2, 3, 4)])
add("interpolate_bilinear_ac", _F("interpolate", size=(2, 5), mode="bilinear",
                                  align_corners=True), lambda g: [g.u(1, 2, 3, 4)])
add("interpolate_bicubic", _F("interpolate", size=(5, 6), mode="bicubic"),
    lambda g: [g.u(1, 1, 3, 4)])
add("interpolate_trilinear", _F("interpolate", scale_factor=(1.5, 0.7, 2), mode="trilinear"),
    lambda g: [g.u(1, 2, 2, 3, 3)])
add("interpolate_trilinear_ac", _F("interpolate", size=(3, 2, 4), mode="trilinear",
                                   align_corners=True), lambda g: [g.u(2, 1, 2, 3, 3)])
add("interpolate_bilinear_aa", _F("interpolate", size=(3, 5), mode="bilinear", antialias=True),
    lambda g: [g.u(1, 2, 7, 4)])
add("interpolate_bicubic_aa", _F("interpolate", scale_factor=0.4, mode="bicubic",
                                 antialias=True), lambda g: [g.u(1, 1, 8, 6)])
add("interpolate_lanczos_aa", _F("interpolate", size=(3, 7), mode="lanczos", antialias=True),
    lambda g: [g.u(1, 1, 8, 5)])
add("unfold_nn", _F("unfold", (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
    lambda g: [g.u(2, 2, 4, 5)])
add("fold_nn", _F("fold", (4, 5), (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
    lambda g: [g.u(2, 12, 9)])
add("adaptive_max_pool2d", _F("adaptive_max_pool2d", (2, 3)), lambda g: [g.u(2, 2, 5, 7)])
add("adaptive_max_pool1d", _F("adaptive_max_pool1d", 3), lambda g: [g.u(2, 2, 7)])
_UNPOOL_IDX = np.array([[[[0, 8], [11, 18]]], [[[6, 3], [15, 13]]]])
add("max_unpool2d", lambda m, x: m.nn.functional.max_unpool2d(
    x, m.tensor(_UNPOOL_IDX), 2, output_size=(5, 5)), lambda g: [g.u(2, 1, 2, 2)])

# ---- embedding bags (one EmbeddingBagBackward0 entry) --------------------------------------
_BAG_IDX, _BAG_OFF = np.array([1, 2, 4, 5, 4, 3, 2, 9]), np.array([0, 2, 2, 5])
add("embedding_bag_mean", lambda m, w, i, o: m.nn.functional.embedding_bag(i, w, o),
    lambda g: [g.u(10, 3), _BAG_IDX, _BAG_OFF])
add("embedding_bag_max", lambda m, w, i, o: m.nn.functional.embedding_bag(i, w, o, mode="max"),
    lambda g: [g.u(10, 3), _BAG_IDX, _BAG_OFF])
add("embedding_bag_sum_weighted", lambda m, w, i, o, p: m.nn.functional.embedding_bag(
    i, w, o, mode="sum", per_sample_weights=p, padding_idx=4),
    lambda g: [g.u(10, 3), _BAG_IDX, _BAG_OFF, g.u(8)])

# ---- margin losses (MultiMarginLossBackward0, MultilabelMarginLossBackward0; their backward
# ops have no derivative in PyTorch: a NotImplemented node, so no gradgradcheck) ----------
_MM_T = np.array([1, 4, 0])
add("multi_margin_loss", lambda m, x, t: m.nn.functional.multi_margin_loss(x, t),
    lambda g: [g.u(3, 5), _MM_T], gradgrad=False)
add("multi_margin_loss_p2_weighted", lambda m, x, t, w: m.nn.functional.multi_margin_loss(
    x, t, p=2, margin=0.7, weight=w, reduction="none"),
    lambda g: [g.u(3, 5), _MM_T, g.pos(5)], grad=(True, False, False), gradgrad=False)
add("multilabel_margin_loss", lambda m, x, t: m.nn.functional.multilabel_margin_loss(
    x, t, reduction="sum"),
    lambda g: [g.u(3, 5), np.array([[1, 2, -1, 0, 0], [4, -1, 0, 0, 0], [0, 1, 2, 3, 4]])],
    gradgrad=False)
add("multi_margin_loss_1d", lambda m, x, t: m.nn.functional.multi_margin_loss(
    x, t, p=2, reduction="none"), lambda g: [g.u(5), np.array(3)], gradgrad=False)
add("multilabel_margin_loss_1d", lambda m, x, t: m.nn.functional.multilabel_margin_loss(
    x, t, reduction="none"), lambda g: [g.u(5), np.array([3, 0, -1, 2, 2])], gradgrad=False)

# ---- CTC (one CtcLossBackward0 entry; PyTorch has no double backward nor forward AD) -------
_CTC_TG, _CTC_IL, _CTC_TL = np.array([[1, 2, 2], [3, 1, 0]]), np.array([6, 5]), np.array([3, 2])
add("ctc_loss", lambda m, x, t, i, n: m.nn.functional.ctc_loss(x.log_softmax(2), t, i, n),
    lambda g: [g.u(6, 2, 4), _CTC_TG, _CTC_IL, _CTC_TL], gradgrad=False)
add("ctc_loss_none_blank", lambda m, x, t, i, n: m.nn.functional.ctc_loss(
    x.log_softmax(2), t, i, n, blank=3, reduction="none", zero_infinity=True),
    lambda g: [g.u(6, 2, 4), np.array([1, 2, 2, 0, 1]), _CTC_IL, _CTC_TL], gradgrad=False)

# ---- packed sequences (PackPaddedSequenceBackward0) -----------------------------------------
add("pack_padded_sequence", lambda m, x: m.nn.utils.rnn.pack_padded_sequence(
    x, m.tensor([4, 2, 2])).data, lambda g: [g.u(5, 3, 2)])
add("pack_padded_sequence_batch_first", lambda m, x: m.nn.utils.rnn.pack_padded_sequence(
    x, m.tensor([1, 3]), batch_first=True, enforce_sorted=False).data,
    lambda g: [g.u(2, 3, 2)])

# ---- 3-d pooling, channel shuffle ----------------------------------------------------------
add("max_pool3d", _F("max_pool3d", (2, 2, 3), stride=(1, 2, 2), padding=(1, 0, 1)),
    lambda g: [g.u(1, 2, 3, 4, 5)])
add("avg_pool3d", _F("avg_pool3d", 2, stride=(1, 2, 2), padding=1, count_include_pad=False),
    lambda g: [g.u(1, 2, 3, 4, 4)])
add("adaptive_avg_pool3d", _F("adaptive_avg_pool3d", (2, 3, 2)), lambda g: [g.u(1, 2, 3, 4, 5)])
add("adaptive_max_pool3d", _F("adaptive_max_pool3d", (2, 2, 3)), lambda g: [g.u(2, 1, 3, 4, 5)])
_UNPOOL3_IDX = np.array([[[[[0, 7], [21, 26]]]], [[[[13, 3], [20, 31]]]]])
add("max_unpool3d", lambda m, x: m.nn.functional.max_unpool3d(
    x, m.tensor(_UNPOOL3_IDX), 2, output_size=(2, 4, 4)), lambda g: [g.u(2, 1, 1, 2, 2)])
add("channel_shuffle", _F("channel_shuffle", 2), lambda g: [g.u(2, 4, 3)])

# ---- pdist (PdistBackward0; no double backward nor forward AD, as PyTorch) -----------------
add("pdist", _F("pdist"), lambda g: [g.u(4, 3)], gradgrad=False)
add("pdist_p1_5", _F("pdist", 1.5), lambda g: [g.u(5, 2)], gradgrad=False)
add("pdist_p3", _F("pdist", 3), lambda g: [g.u(3, 4)], gradgrad=False)

# ---- fractional max pooling (fixed samples: the draws are tested in test_nn_layers) ------
_FRAC2 = np.array([[[0.3, 0.8], [0.55, 0.1]]])
_FRAC3 = np.array([[[0.3, 0.8, 0.2]], [[0.9, 0.05, 0.6]]])
add("fractional_max_pool2d", lambda m, x: m.nn.functional.fractional_max_pool2d(
    x, (2, 3), output_size=(3, 3), _random_samples=m.tensor(_FRAC2).to(x.dtype)),
    lambda g: [g.u(1, 2, 5, 7)])
add("fractional_max_pool3d", lambda m, x: m.nn.functional.fractional_max_pool3d(
    x, 2, output_size=(2, 3, 2), _random_samples=m.tensor(_FRAC3).to(x.dtype)),
    lambda g: [g.u(2, 1, 4, 5, 4)])

# ---- nll_loss over more dims (NllLoss2DBackward0, aten's nll_loss_nd) ------------------------
add("nll_loss2d", lambda m, x, t: m.nn.functional.nll_loss(x, t, reduction="sum"),
    lambda g: [g.u(2, 3, 2, 2), np.array([[[0, 2], [1, 1]], [[2, 0], [0, 1]]])])
add("nll_loss_3d_none", lambda m, x, t: m.nn.functional.nll_loss(x, t, reduction="none"),
    lambda g: [g.u(2, 3, 4), np.array([[0, 2, 1, 1], [2, 0, 0, 1]])])
add("nll_loss_1d", lambda m, x, t: m.nn.functional.nll_loss(x, t), lambda g: [g.u(4), np.array(2)])

# ---- conv_tbc (one ConvTbcBackward0 entry: Note [conv_tbc]; no forward AD in PyTorch) ------
add("conv_tbc", lambda m, x, w, b: m.conv_tbc(x, w, b, 1),
    lambda g: [g.u(5, 2, 3), g.u(3, 3, 4), g.u(4)])
add("conv_tbc_crop", lambda m, x, w, b: m.nn.functional.conv_tbc(x, w, b, pad=-1),
    lambda g: [g.u(6, 2, 3), g.u(2, 3, 2), g.u(2)])

# ---- grid_sampler_2d / _3d (Note [grid_sampler entries]; no forward AD in PyTorch) ----------
_GS = lambda **kw: (lambda m, x, g: m.nn.functional.grid_sample(x, g, **kw))  # noqa: E731
add("grid_sample_bilinear", _GS(align_corners=False),
    lambda g: [g.u(2, 2, 4, 5), g.u(2, 3, 2, 2, lo=-1.2, hi=1.2)])
add("grid_sample_nearest_border", _GS(mode="nearest", padding_mode="border", align_corners=True),
    lambda g: [g.u(1, 2, 3, 4), g.u(1, 2, 3, 2, lo=-1.3, hi=1.3)])
add("grid_sample_bicubic_reflection", _GS(mode="bicubic", padding_mode="reflection",
                                          align_corners=False),
    lambda g: [g.u(1, 2, 3, 4), g.u(1, 2, 2, 2, lo=-1.3, hi=1.3)])
add("grid_sample_3d_reflection", _GS(padding_mode="reflection", align_corners=True),
    lambda g: [g.u(1, 2, 3, 3, 4), g.u(1, 2, 2, 1, 3, lo=-1.3, hi=1.3)])
add("grid_sample_3d_nearest", _GS(mode="nearest", align_corners=False),
    lambda g: [g.u(2, 1, 2, 3, 3), g.u(2, 1, 2, 2, 3, lo=-1.1, hi=1.1)])

# ---- binary_cross_entropy_with_logits (one BinaryCrossEntropyWithLogitsBackward0 entry) -----
add("bce_with_logits", lambda m, x, t: m.nn.functional.binary_cross_entropy_with_logits(x, t),
    lambda g: [g.u(3, 4), g.u(3, 4, lo=0.0, hi=1.0)])
add("bce_with_logits_weighted_none", lambda m, x, t, w, p:
    m.nn.functional.binary_cross_entropy_with_logits(x, t, w, reduction="none", pos_weight=p),
    lambda g: [g.u(3, 4), g.u(3, 4, lo=0.0, hi=1.0), g.pos(3, 4), g.pos(4)],
    grad=(True, True, False, False))
add("bce_with_logits_aten_sum", lambda m, x, t, p:
    m.binary_cross_entropy_with_logits(x, t, None, p, 2),
    lambda g: [g.u(2, 3), g.u(2, 3, lo=0.0, hi=1.0), g.pos(3)], grad=(True, True, False))

# ---- group_norm (one NativeGroupNormBackward0 entry) ---------------------------------------
add("group_norm", lambda m, x, w, b: m.nn.functional.group_norm(x, 2, w, b),
    lambda g: [g.u(2, 4, 3, 2), g.u(4), g.u(4)])
add("group_norm_plain_3d", lambda m, x: m.group_norm(x, 3, None, None, 1e-3),
    lambda g: [g.u(3, 6, 4)])
