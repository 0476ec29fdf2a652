"""nn modules against torch: construction with the same seed gives bit-equal weights, the
same repr, forward values and gradients (of the input and of every parameter)."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)


def _arr(*shape, dtype=np.float32, positive=False):
    a = RNG.standard_normal(shape).astype(dtype)
    return np.abs(a) + 0.1 if positive else a


X4 = _arr(3, 4)
IMG = _arr(2, 3, 5, 5)
SEQ = _arr(2, 3, 6)

# (id, constructor taking the library, inputs as arrays (float inputs require grad))
CASES = [
    ("Identity", lambda m: m.nn.Identity(3, unused=1), [X4]),
    ("Linear", lambda m: m.nn.Linear(4, 5), [X4]),
    ("Linear-nobias", lambda m: m.nn.Linear(4, 2, bias=False), [X4]),
    ("Linear-f64", lambda m: m.nn.Linear(4, 3, dtype=m.float64), [X4.astype(np.float64)]),
    ("Bilinear", lambda m: m.nn.Bilinear(4, 6, 2), [X4, _arr(3, 6)]),
    ("Flatten", lambda m: m.nn.Flatten(), [IMG]),
    ("Flatten-0", lambda m: m.nn.Flatten(0, 2), [IMG]),
    ("Unflatten", lambda m: m.nn.Unflatten(1, (2, 2)), [X4]),
    ("ReLU", lambda m: m.nn.ReLU(), [X4]),
    ("Tanh", lambda m: m.nn.Tanh(), [X4]),
    ("Sigmoid", lambda m: m.nn.Sigmoid(), [X4]),
    ("LeakyReLU", lambda m: m.nn.LeakyReLU(0.2), [X4]),
    ("ELU", lambda m: m.nn.ELU(0.7), [X4]),
    ("CELU", lambda m: m.nn.CELU(1.3), [X4]),
    ("SELU", lambda m: m.nn.SELU(), [X4]),
    ("GELU", lambda m: m.nn.GELU(), [X4]),
    ("GELU-tanh", lambda m: m.nn.GELU("tanh"), [X4]),
    ("SiLU", lambda m: m.nn.SiLU(), [X4]),
    ("Mish", lambda m: m.nn.Mish(), [X4]),
    ("Softplus", lambda m: m.nn.Softplus(2.0, 1.0), [X4]),
    ("LogSigmoid", lambda m: m.nn.LogSigmoid(), [X4]),
    ("Hardtanh", lambda m: m.nn.Hardtanh(-0.5, 0.5), [X4]),
    ("ReLU6", lambda m: m.nn.ReLU6(), [X4 * 4]),
    ("Hardsigmoid", lambda m: m.nn.Hardsigmoid(), [X4 * 4]),
    ("Hardswish", lambda m: m.nn.Hardswish(), [X4 * 4]),
    ("Softsign", lambda m: m.nn.Softsign(), [X4]),
    ("Tanhshrink", lambda m: m.nn.Tanhshrink(), [X4]),
    ("Softshrink", lambda m: m.nn.Softshrink(0.3), [X4]),
    ("Hardshrink", lambda m: m.nn.Hardshrink(0.3), [X4]),
    ("Threshold", lambda m: m.nn.Threshold(0.1, 20.0), [X4]),
    ("GLU", lambda m: m.nn.GLU(), [X4]),
    ("PReLU", lambda m: m.nn.PReLU(), [X4]),
    ("PReLU-3", lambda m: m.nn.PReLU(3), [IMG]),
    ("Softmax", lambda m: m.nn.Softmax(1), [X4]),
    ("Softmin", lambda m: m.nn.Softmin(1), [X4]),
    ("LogSoftmax", lambda m: m.nn.LogSoftmax(-1), [X4]),
    ("Softmax2d", lambda m: m.nn.Softmax2d(), [IMG]),
    ("RReLU-eval", lambda m: m.nn.RReLU().eval(), [X4]),
    ("Dropout", lambda m: m.nn.Dropout(0.3), [_arr(4, 50)]),
    ("Dropout-eval", lambda m: m.nn.Dropout(0.3).eval(), [X4]),
    ("Dropout1d", lambda m: m.nn.Dropout1d(0.5), [SEQ]),
    ("Dropout2d", lambda m: m.nn.Dropout2d(0.5), [IMG]),
    ("Embedding", lambda m: m.nn.Embedding(10, 3), [np.array([[1, 2, 4], [4, 3, 9]])]),
    ("Embedding-pad", lambda m: m.nn.Embedding(10, 3, padding_idx=2),
     [np.array([[1, 2, 4], [2, 3, 9]])]),
    ("Embedding-freq", lambda m: m.nn.Embedding(10, 3, padding_idx=-1, scale_grad_by_freq=True),
     [np.array([[1, 9, 4], [4, 4, 9]])]),
    ("Embedding-maxnorm", lambda m: m.nn.Embedding(10, 3, max_norm=1.0),
     [np.array([[1, 2, 4], [4, 3, 2]])]),
    ("LayerNorm", lambda m: m.nn.LayerNorm(6), [SEQ]),
    ("LayerNorm-2d", lambda m: m.nn.LayerNorm([3, 6], elementwise_affine=False), [SEQ]),
    ("GroupNorm", lambda m: m.nn.GroupNorm(1, 3), [IMG]),
    ("RMSNorm", lambda m: m.nn.RMSNorm(6), [SEQ]),
    ("CosineSimilarity", lambda m: m.nn.CosineSimilarity(), [X4, _arr(3, 4)]),
    ("PairwiseDistance", lambda m: m.nn.PairwiseDistance(), [X4, _arr(3, 4)]),
    ("L1Loss", lambda m: m.nn.L1Loss(), [X4, _arr(3, 4)]),
    ("MSELoss-sum", lambda m: m.nn.MSELoss(reduction="sum"), [X4, _arr(3, 4)]),
    ("SmoothL1Loss", lambda m: m.nn.SmoothL1Loss(beta=0.5), [X4, _arr(3, 4)]),
    ("HuberLoss", lambda m: m.nn.HuberLoss(reduction="none", delta=0.5), [X4, _arr(3, 4)]),
    ("BCELoss", lambda m: m.nn.BCELoss(), [1 / (1 + np.exp(-X4)), (X4 > 0).astype(np.float32)]),
    ("BCEWithLogitsLoss", lambda m: m.nn.BCEWithLogitsLoss(),
     [X4 * 5, (X4 > 0.3).astype(np.float32)]),
    ("KLDivLoss", lambda m: m.nn.KLDivLoss(reduction="batchmean"),
     [np.log(_arr(3, 4, positive=True)), _arr(3, 4, positive=True)]),
    ("SoftMarginLoss", lambda m: m.nn.SoftMarginLoss(), [X4, np.sign(_arr(3, 4))]),
    ("CrossEntropyLoss", lambda m: m.nn.CrossEntropyLoss(label_smoothing=0.1),
     [X4, np.array([0, 3, 1])]),
    ("NLLLoss", lambda m: m.nn.NLLLoss(reduction="sum"), [X4, np.array([0, 3, 1])]),
    ("Sequential", lambda m: m.nn.Sequential(m.nn.Linear(4, 8), m.nn.ReLU(),
                                             m.nn.Linear(8, 2)), [X4]),
]


# issue 12 layers: padding, pixel shuffle, upsampling, fold / unfold, adaptive max pooling
CASES += [
    ("ZeroPad2d", lambda m: m.nn.ZeroPad2d((1, 2, 0, 1)), [IMG]),
    ("ZeroPad1d", lambda m: m.nn.ZeroPad1d(2), [SEQ]),
    ("ConstantPad1d", lambda m: m.nn.ConstantPad1d((3, 1), 0.5), [SEQ]),
    ("ConstantPad2d", lambda m: m.nn.ConstantPad2d(1, -1.0), [IMG]),
    ("ReflectionPad1d", lambda m: m.nn.ReflectionPad1d((2, 3)), [SEQ]),
    ("ReflectionPad2d", lambda m: m.nn.ReflectionPad2d(2), [IMG]),
    ("ReplicationPad1d", lambda m: m.nn.ReplicationPad1d((4, 1)), [SEQ]),
    ("ReplicationPad2d", lambda m: m.nn.ReplicationPad2d((1, 0, 3, 2)), [IMG]),
    ("CircularPad1d", lambda m: m.nn.CircularPad1d(2), [SEQ]),
    ("CircularPad2d", lambda m: m.nn.CircularPad2d((1, 2, 2, 0)), [IMG]),
    ("PixelShuffle", lambda m: m.nn.PixelShuffle(2), [_arr(2, 8, 3, 2)]),
    ("PixelUnshuffle", lambda m: m.nn.PixelUnshuffle(2), [_arr(2, 1, 4, 6)]),
    ("Upsample", lambda m: m.nn.Upsample(scale_factor=2), [IMG]),
    ("Upsample-size", lambda m: m.nn.Upsample(size=(7, 3)), [IMG]),
    ("Upsample-exact", lambda m: m.nn.Upsample(size=9, mode="nearest-exact"), [SEQ]),
    ("Upsample-linear", lambda m: m.nn.Upsample(scale_factor=1.5, mode="linear"), [SEQ]),
    ("Upsample-bilinear", lambda m: m.nn.Upsample(size=(8, 6), mode="bilinear"), [IMG]),
    ("Upsample-bilinear-ac", lambda m: m.nn.Upsample(scale_factor=(0.6, 1.4), mode="bilinear",
                                                      align_corners=True), [IMG]),
    ("Upsample-bicubic", lambda m: m.nn.Upsample(scale_factor=1.6, mode="bicubic"), [IMG]),
    ("Upsample-area", lambda m: m.nn.Upsample(size=(3, 2), mode="area"), [IMG]),
    ("Upsample-area-1d", lambda m: m.nn.Upsample(scale_factor=0.5, mode="area"), [SEQ]),
    ("Upsample-area-3d", lambda m: m.nn.Upsample(size=(2, 3, 4), mode="area"),
     [_arr(1, 2, 4, 5, 6)]),
    ("Upsample-trilinear", lambda m: m.nn.Upsample(scale_factor=1.5, mode="trilinear",
                                                   align_corners=True), [_arr(1, 2, 2, 3, 4)]),
    ("UpsamplingNearest2d", lambda m: m.nn.UpsamplingNearest2d(scale_factor=3), [IMG]),
    ("UpsamplingBilinear2d", lambda m: m.nn.UpsamplingBilinear2d(size=(4, 7)), [IMG]),
    ("Unfold", lambda m: m.nn.Unfold((2, 3), padding=1, stride=2), [IMG]),
    ("Fold", lambda m: m.nn.Fold((4, 5), 2, dilation=(1, 2)), [_arr(2, 12, 9)]),
    ("AdaptiveMaxPool2d", lambda m: m.nn.AdaptiveMaxPool2d((2, 3)), [IMG]),
    ("AdaptiveMaxPool2d-none", lambda m: m.nn.AdaptiveMaxPool2d((None, 2)), [IMG]),
    ("AdaptiveMaxPool1d", lambda m: m.nn.AdaptiveMaxPool1d(4), [SEQ]),
]


# issue 12: conv padding modes, normalisation, embedding bags, losses
CASES += [
    ("ConvTranspose3d", lambda m: m.nn.ConvTranspose3d(2, 4, (2, 1, 3), stride=(2, 1, 1),
                                                       padding=(0, 1, 1), groups=2),
     [_arr(2, 2, 3, 2, 4)]),
    ("MaxPool3d", lambda m: m.nn.MaxPool3d((2, 3, 2), stride=(1, 2, 2), padding=(1, 1, 0)),
     [_arr(2, 2, 4, 5, 4)]),
    ("MaxPool3d-dil-ceil-unbatched", lambda m: m.nn.MaxPool3d(2, dilation=2, ceil_mode=True),
     [_arr(2, 5, 6, 5)]),
    ("AvgPool3d", lambda m: m.nn.AvgPool3d((2, 2, 3), stride=2, padding=1), [_arr(2, 2, 4, 5, 6)]),
    ("AvgPool3d-nopad-ceil", lambda m: m.nn.AvgPool3d(2, ceil_mode=True,
                                                      count_include_pad=False, padding=1),
     [_arr(1, 2, 3, 5, 4)]),
    ("AvgPool3d-divisor", lambda m: m.nn.AvgPool3d(2, divisor_override=3), [_arr(2, 4, 4, 4)]),
    ("AdaptiveAvgPool3d", lambda m: m.nn.AdaptiveAvgPool3d((2, None, 3)), [_arr(2, 2, 5, 4, 7)]),
    ("AdaptiveAvgPool3d-1", lambda m: m.nn.AdaptiveAvgPool3d(1), [_arr(2, 2, 3, 4, 2)]),
    ("AdaptiveMaxPool3d", lambda m: m.nn.AdaptiveMaxPool3d((3, 2, 2)), [_arr(2, 2, 5, 4, 3)]),
    ("LPPool1d", lambda m: m.nn.LPPool1d(2, 3, 2), [SEQ]),
    ("LPPool2d", lambda m: m.nn.LPPool2d(1.5, (2, 3), ceil_mode=True), [IMG]),
    ("LPPool3d", lambda m: m.nn.LPPool3d(3, 2), [_arr(1, 2, 4, 4, 5)]),
    ("ChannelShuffle", lambda m: m.nn.ChannelShuffle(3), [_arr(2, 6, 3, 2)]),
    ("Dropout3d", lambda m: m.nn.Dropout3d(0.4), [_arr(3, 4, 2, 2, 3)]),
    ("FeatureAlphaDropout", lambda m: m.nn.FeatureAlphaDropout(0.3), [_arr(3, 4, 2, 5)]),
    ("CrossMapLRN2d", lambda m: m.nn.CrossMapLRN2d(3, alpha=0.2, beta=0.6, k=1.5), [IMG]),
    ("SyncBatchNorm", lambda m: m.nn.SyncBatchNorm(3, momentum=None), [SEQ]),
    ("SyncBatchNorm-eval", lambda m: m.nn.SyncBatchNorm(3).eval(), [IMG]),
    ("NLLLoss2d", lambda m: m.nn.NLLLoss2d(ignore_index=1),
     [_arr(2, 3, 2, 2), np.array([[[0, 1], [2, 0]], [[1, 1], [2, 2]]])]),
    ("Conv2d-reflect", lambda m: m.nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect"), [IMG]),
    ("Conv1d-circular", lambda m: m.nn.Conv1d(3, 2, 3, padding=2, padding_mode="circular"),
     [SEQ]),
    ("Conv2d-replicate-same", lambda m: m.nn.Conv2d(3, 2, (2, 3), padding="same",
                                                    padding_mode="replicate"), [IMG]),
]
_IDX = np.array([1, 2, 4, 5, 4, 3, 2, 9])
_OFF = np.array([0, 2, 2, 5])
CASES += [
    ("InstanceNorm1d", lambda m: m.nn.InstanceNorm1d(3), [SEQ]),
    ("InstanceNorm1d-unbatched", lambda m: m.nn.InstanceNorm1d(3, affine=True), [SEQ[0]]),
    ("InstanceNorm2d-affine", lambda m: m.nn.InstanceNorm2d(3, affine=True), [IMG]),
    ("InstanceNorm2d-stats", lambda m: m.nn.InstanceNorm2d(3, momentum=0.3,
                                                           track_running_stats=True), [IMG]),
    ("InstanceNorm2d-eval", lambda m: m.nn.InstanceNorm2d(3, track_running_stats=True).eval(),
     [IMG]),
    ("LocalResponseNorm", lambda m: m.nn.LocalResponseNorm(3, alpha=0.1, k=2.0), [IMG]),
    ("LocalResponseNorm-1d", lambda m: m.nn.LocalResponseNorm(2), [SEQ]),
    ("EmbeddingBag", lambda m: m.nn.EmbeddingBag(10, 3), [_IDX, _OFF]),
    ("EmbeddingBag-sum-pad", lambda m: m.nn.EmbeddingBag(10, 3, mode="sum", padding_idx=2),
     [_IDX, _OFF]),
    ("EmbeddingBag-max", lambda m: m.nn.EmbeddingBag(10, 3, mode="max"), [_IDX, _OFF]),
    ("EmbeddingBag-2d", lambda m: m.nn.EmbeddingBag(10, 3, max_norm=1.0),
     [np.array([[1, 2], [4, 1], [9, 9]])]),
    ("MultiMarginLoss", lambda m: m.nn.MultiMarginLoss(), [X4, np.array([0, 3, 1])]),
    ("MultiMarginLoss-p2", lambda m: m.nn.MultiMarginLoss(p=2, margin=0.5, reduction="none"),
     [X4, np.array([2, 3, 1])]),
    ("MultiLabelMarginLoss", lambda m: m.nn.MultiLabelMarginLoss(),
     [X4, np.array([[0, 3, -1, 0], [1, -1, 2, 2], [0, 1, 2, 3]])]),
    ("MultiLabelSoftMarginLoss", lambda m: m.nn.MultiLabelSoftMarginLoss(),
     [X4, (X4 > 0).astype(np.float32)]),
    ("CosineEmbeddingLoss", lambda m: m.nn.CosineEmbeddingLoss(0.2),
     [X4, _arr(3, 4), np.array([1, -1, -1])]),
    ("TripletMarginLoss", lambda m: m.nn.TripletMarginLoss(swap=True),
     [X4, X4 + 0.5 * _arr(3, 4), _arr(3, 4)]),
    ("TripletMarginWithDistanceLoss", lambda m: m.nn.TripletMarginWithDistanceLoss(margin=2.0),
     [X4, X4 + 0.5 * _arr(3, 4), _arr(3, 4)]),
    ("GaussianNLLLoss", lambda m: m.nn.GaussianNLLLoss(full=True),
     [X4, _arr(3, 4), _arr(3, 1, positive=True)]),
    ("CTCLoss", lambda m: m.nn.CTCLoss(),
     [np.log(RNG.dirichlet(np.ones(5), size=(7, 2))).astype(np.float32),
      np.array([[1, 2, 2], [3, 1, 0]]), np.array([7, 6]), np.array([3, 2])]),
    ("CTCLoss-none", lambda m: m.nn.CTCLoss(blank=4, reduction="none"),
     [np.log(RNG.dirichlet(np.ones(5), size=(7, 2))).astype(np.float32),
      np.array([1, 2, 2, 3, 1]), np.array([7, 6]), np.array([3, 2])]),
    ("CTCLoss-sum-zero_infinity", lambda m: m.nn.CTCLoss(reduction="sum", zero_infinity=True),
     [np.log(RNG.dirichlet(np.ones(5), size=(7, 2))).astype(np.float32),
      np.array([[1, 1, 1, 1], [3, 1, 0, 0]]), np.array([5, 6]), np.array([4, 2])]),
    ("MarginRankingLoss", lambda m: m.nn.MarginRankingLoss(0.1),
     [X4[0], X4[1], np.sign(X4[2])]),
    ("HingeEmbeddingLoss", lambda m: m.nn.HingeEmbeddingLoss(), [X4, np.sign(_arr(3, 4))]),
    ("PoissonNLLLoss", lambda m: m.nn.PoissonNLLLoss(full=True),
     [X4, _arr(3, 4, positive=True) * 3]),
]


# Composed from primitive ops (Note [Composed functionals] in nn/functional.py): values and
# gradients are torch's, the node at the output is not (yet) torch's fused one.
COMPOSED = {"Conv1d-circular",
            "MarginRankingLoss", "HingeEmbeddingLoss", "PoissonNLLLoss",
            "CircularPad1d", "CircularPad2d", "PReLU", "PReLU-3", "GroupNorm", "PairwiseDistance",
            "SmoothL1Loss", "HuberLoss", "BCELoss", "BCEWithLogitsLoss", "SoftMarginLoss"}


def _build(m, ctor, seed=0):
    m.manual_seed(seed)
    return ctor(m)


def _inputs(m, arrays, first_only=False):
    out = []
    for i, a in enumerate(arrays):
        t = m.tensor(a)
        if a.dtype.kind == "f" and not (first_only and i):
            t.requires_grad_(True)
        out.append(t)
    return out


def _np(t):
    return t.detach().numpy()


@pytest.mark.parametrize("name,ctor,arrays", CASES, ids=[c[0] for c in CASES])
def test_module_matches_torch(name, ctor, arrays):
    ours, theirs = _build(autotensor, ctor), _build(torch, ctor)
    assert repr(ours) == repr(theirs)
    sd_o, sd_t = ours.state_dict(), theirs.state_dict()
    assert list(sd_o) == list(sd_t)
    for k in sd_t:
        assert sd_o[k].dtype.itemsize == sd_t[k].dtype.itemsize
        np.testing.assert_array_equal(_np(sd_o[k]), _np(sd_t[k]), err_msg=k)  # bit-equal
    # the same draws after construction (dropout masks), so reseed both
    autotensor.manual_seed(1)
    torch.manual_seed(1)
    loss = name.endswith("Loss") or "Loss-" in name
    xo, xt = _inputs(autotensor, arrays, loss), _inputs(torch, arrays, loss)
    yo, yt = ours(*xo), theirs(*xt)
    tol = dict(rtol=1e-5, atol=1e-6) if yt.dtype == torch.float32 else dict(rtol=1e-12,
                                                                             atol=1e-12)
    np.testing.assert_allclose(_np(yo), _np(yt), **tol)
    if not yt.requires_grad:
        return
    if name not in COMPOSED and yt.grad_fn is not None:
        assert yo.grad_fn.name() == yt.grad_fn.name()
    g = RNG.standard_normal(tuple(yt.shape)).astype(_np(yt).dtype)
    yo.backward(autotensor.tensor(g))
    yt.backward(torch.tensor(g))
    for a, b in zip(xo, xt):
        if b.grad is not None:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), **tol)
    for (k, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        if q.grad is not None:
            np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), err_msg=k, **tol)
    assert autotensor.get_rng_state().numpy().tobytes() == \
        torch.get_rng_state().numpy().tobytes()


def test_dropout_mask_and_generator_state_match_torch():
    for p in (0.1, 0.5, 0.9):
        autotensor.manual_seed(3)
        torch.manual_seed(3)
        xo = autotensor.ones(7, 33)
        xt = torch.ones(7, 33)
        yo = autotensor.nn.functional.dropout(xo, p)
        yt = torch.nn.functional.dropout(xt, p)
        np.testing.assert_array_equal(yo.numpy(), yt.numpy())
        assert autotensor.get_rng_state().numpy().tobytes() == \
            torch.get_rng_state().numpy().tobytes()


@pytest.mark.parametrize("fn_name,args", [
    ("uniform_", (-0.3, 0.7)), ("normal_", (0.5, 2.0)), ("constant_", (0.25,)),
    ("ones_", ()), ("zeros_", ()), ("eye_", ()), ("xavier_uniform_", (1.5,)),
    ("xavier_normal_", ()), ("kaiming_uniform_", ()), ("kaiming_normal_", (0, "fan_out")),
    ("kaiming_uniform_", (0.1, "fan_in", "relu")), ("trunc_normal_", ()),
    ("trunc_normal_", (0.0, 1.0, 0.5, 0.6)), ("orthogonal_", ()), ("sparse_", (0.5,)),
])
@pytest.mark.parametrize("shape", [(5, 7), (8, 3)])
def test_init_matches_torch_bit_for_bit(fn_name, args, shape):
    res = []
    for m in (autotensor, torch):
        m.manual_seed(11)
        t = m.empty(*shape)
        getattr(m.nn.init, fn_name)(t, *args)
        res.append((t.numpy().copy(), m.get_rng_state().numpy().tobytes()))
    if fn_name == "orthogonal_":   # LAPACK builds may differ in the last bits
        np.testing.assert_allclose(res[0][0], res[1][0], rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_array_equal(res[0][0], res[1][0])
    assert res[0][1] == res[1][1]


def test_dirac_and_gain():
    for m in (autotensor, torch):
        t = m.empty(4, 2, 3, 3)
        m.nn.init.dirac_(t, 2)
    a, b = autotensor.empty(4, 2, 3, 3), torch.empty(4, 2, 3, 3)
    autotensor.nn.init.dirac_(a, 2)
    torch.nn.init.dirac_(b, 2)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    for nl, p in [("linear", None), ("tanh", None), ("relu", None), ("leaky_relu", 0.2),
                  ("selu", None), ("conv2d", None)]:
        assert autotensor.nn.init.calculate_gain(nl, p) == torch.nn.init.calculate_gain(nl, p)
    with pytest.raises(ValueError, match="Unsupported nonlinearity gelu"):
        autotensor.nn.init.calculate_gain("gelu")
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed"):
        autotensor.nn.init.xavier_uniform_(autotensor.empty(3))


def test_embedding_from_pretrained():
    w = np.arange(12, dtype=np.float32).reshape(4, 3)
    outs = []
    for m in (autotensor, torch):
        e = m.nn.Embedding.from_pretrained(m.tensor(w), freeze=False, padding_idx=1)
        y = e(m.tensor([[0, 1], [3, 1]]))
        y.sum().backward()
        outs.append((y.detach().numpy(), e.weight.grad.numpy(), repr(e),
                     e.weight.requires_grad))
    np.testing.assert_array_equal(outs[0][0], outs[1][0])
    np.testing.assert_array_equal(outs[0][1], outs[1][1])
    assert outs[0][2:] == outs[1][2:]


def test_linear_on_non_contiguous_input_matches_torch():
    x = RNG.standard_normal((3, 4, 5)).astype(np.float32)
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        lin = m.nn.Linear(5, 2)
        xt = m.tensor(x, requires_grad=True)
        y = lin(xt.transpose(0, 1))
        y.sum().backward()
        res.append((y.detach().numpy(), xt.grad.numpy(), y.grad_fn.name()))
    np.testing.assert_allclose(res[0][0], res[1][0], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(res[0][1], res[1][1], rtol=1e-6, atol=1e-6)
    assert res[0][2] == res[1][2] == "AddBackward0"


def test_max_unpool_matches_torch():
    res = []
    for m in (autotensor, torch):
        x = m.tensor(IMG, requires_grad=True)
        pool, unpool = m.nn.MaxPool2d(2, return_indices=True), m.nn.MaxUnpool2d(2)
        y, idx = pool(x)
        z = unpool(y, idx, output_size=x.size())
        z1 = m.nn.MaxUnpool1d(2)(*m.nn.MaxPool1d(2, return_indices=True)(x[0]))
        (z * z).sum().backward()
        res.append((z.detach().numpy(), z1.detach().numpy(), x.grad.numpy(), repr(unpool),
                    z.grad_fn.name()))
    for a, b in zip(res[0][:3], res[1][:3]):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    assert res[0][3:] == res[1][3:]


@pytest.mark.parametrize("output_size", [None, (5, 5, 7)])
def test_max_unpool3d_matches_torch(output_size):
    vol = _arr(2, 2, 4, 4, 6)
    res = []
    for m in (autotensor, torch):
        x = m.tensor(vol, requires_grad=True)
        pool, unpool = m.nn.MaxPool3d(2, return_indices=True), m.nn.MaxUnpool3d(2)
        y, idx = pool(x)
        z = unpool(y, idx, output_size=output_size)
        (z * z).sum().backward()
        bad = idx.clone()
        bad.view(-1)[3] = 500          # one invalid index (torch scans in parallel)
        with pytest.raises(RuntimeError) as info:
            m.nn.functional.max_unpool3d(y, bad, 2)
        res.append((z.detach().numpy(), x.grad.numpy(), idx.numpy(), repr(unpool),
                    z.grad_fn.name(), str(info.value)))
    for a, b in zip(res[0][:3], res[1][:3]):
        np.testing.assert_array_equal(a, b)
    assert res[0][3:] == res[1][3:]


@pytest.mark.parametrize("call", [
    lambda m: m.nn.functional.max_pool3d(m.ones(2, 2, 2), 2),
    lambda m: m.nn.functional.avg_pool3d(m.ones(2, 2, 2), 2),
    lambda m: m.nn.functional.adaptive_avg_pool3d(m.ones(2, 2), 2),
    lambda m: m.nn.functional.adaptive_max_pool3d(m.ones(2, 2), 2),
    lambda m: m.nn.functional.max_pool3d(m.ones(1, 1, 4, 4, 4), 3, padding=2),
    lambda m: m.nn.functional.avg_pool3d(m.ones(1, 1, 4, 4, 4), 2, divisor_override=0),
    lambda m: m.nn.functional.channel_shuffle(m.ones(2, 6), 2),
    lambda m: m.nn.functional.channel_shuffle(m.ones(2, 6, 2), 4),
    lambda m: m.nn.functional.feature_alpha_dropout(m.ones(3), 0.5, True),
    lambda m: m.nn.functional.feature_alpha_dropout(m.ones(3), 1.5, True),
])
def test_pooling_dropout_errors_match_torch(call):
    res = []
    for m in (autotensor, torch):
        with pytest.raises(Exception) as info:
            call(m)
        res.append((type(info.value).__name__, str(info.value)))
    assert res[0] == res[1]


def test_container_and_convert_sync_batchnorm_match_torch():
    res = []
    for m in (autotensor, torch):
        m.manual_seed(0)
        c = m.nn.Container(a=m.nn.Linear(4, 2), b=m.nn.ReLU())
        dp = m.nn.DataParallel(m.nn.Linear(4, 2))
        net = m.nn.Sequential(m.nn.Conv2d(3, 3, 1), m.nn.BatchNorm2d(3, affine=False),
                              m.nn.Sequential(m.nn.BatchNorm1d(3)))
        net[1].running_mean.fill_(0.5)
        conv = m.nn.SyncBatchNorm.convert_sync_batchnorm(net)
        y = conv[:2](m.tensor(IMG))
        res.append((repr(c), list(c.state_dict()), repr(conv), list(conv.state_dict()),
                    conv[1].running_mean is net[1].running_mean, repr(dp), dp.device_ids,
                    list(dp.state_dict()), tuple(dp(m.ones(3, 4)).shape), _np(y)))
    assert res[0][:9] == res[1][:9]
    np.testing.assert_allclose(res[0][9], res[1][9], rtol=1e-5, atol=1e-6)
