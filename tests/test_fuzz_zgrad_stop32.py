"""Stop 32, helper zgrad32: PyTorch's ZeroTensor gradients in reverse mode (Note [Zero-tensor
gradients] in autotensor/_zero_grad.py; tests/fuzz/OPEN_FINDINGS.md "Stop 32 (zero-tensor
gradients; helper zgrad32)"). sgn's backward of a real input is ``_efficientzerotensor``;
mul/div/add/sub and views keep it, every other kernel materializes it, a write into it
raises. Each scenario runs on both libraries (x = [0, -1, 2] mostly, so log's 0 and NaN meet
the zero tensor) and compares the gradients' values with their sign bits, whether each is a
zero tensor, and error messages."""

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402


def _vals(g):
    """The values with sign bits (NaN as a string, whose sign is not compared), read from
    a clone (which materializes a zero tensor: torch's numpy(force=True) of an offset view
    of one crashes)."""
    v = np.asarray(g.detach().clone().numpy(), np.float64).reshape(-1).tolist()
    return [("nan", None) if math.isnan(a) else (a, math.copysign(1.0, a)) for a in v]


def _desc(g):
    return None if g is None else (bool(g._is_zerotensor()), _vals(g))


def _outcome(fn, lib):
    try:
        return ("ok", fn(lib))
    except Exception as e:  # noqa: BLE001  (the error is part of the behaviour compared)
        return ("raised", type(e).__name__, str(e))


def _same(fn):
    theirs = _outcome(fn, torch)
    ours = _outcome(fn, autotensor)
    assert ours == theirs


def _leaf(L, values=(0.0, -1.0, 2.0), dtype="float64"):
    return L.tensor(list(values), dtype=getattr(L, dtype), requires_grad=True)


# f(L, x) -> y; the scenario backpropagates y.sgn().sum() and records the gradient y
# receives (always a zero tensor), the one x receives (tensor hook) and x.grad
CHAINS = {
    "cos": lambda L, x: x.cos(),
    "log": lambda L, x: x.log(),
    "log_neg": lambda L, x: -x.log(),
    "log_sum": lambda L, x: x.log().sum(),
    "log_sum_keepdim": lambda L, x: x.log().sum(0, keepdim=True),
    "log_mean": lambda L, x: x.log().mean(),
    "log_mul_scalar": lambda L, x: x.log() * 2,
    "log_div_scalar": lambda L, x: x.log() / 3,
    "log_exp": lambda L, x: x.log().exp(),
    "log_pow2": lambda L, x: x.log().pow(2),
    "log_view_t": lambda L, x: x.log().view(3, 1).t(),
    "log_permute": lambda L, x: x.log().view(3, 1).permute(1, 0),
    "log_squeeze": lambda L, x: x.log().view(1, 3).squeeze(0),
    "log_unsqueeze": lambda L, x: x.log().unsqueeze(0),
    "log_slice": lambda L, x: x.log()[1:],
    "log_select": lambda L, x: x.log()[0],
    "log_index": lambda L, x: x.log()[[0, 2]],
    "log_expand": lambda L, x: x.log().expand(2, 3),
    "log_abs": lambda L, x: x.log().abs(),
    "log_clone": lambda L, x: x.log().clone(),
    "log_tanh": lambda L, x: x.log().tanh(),
    "log_sigmoid": lambda L, x: x.log().sigmoid(),
    "log_relu": lambda L, x: x.log().relu(),
    "log_gelu": lambda L, x: L.nn.functional.gelu(x.log()),
    "log_elu": lambda L, x: L.nn.functional.elu(x.log()),
    "log_silu": lambda L, x: L.nn.functional.silu(x.log()),
    "log_mish": lambda L, x: L.nn.functional.mish(x.log()),
    "log_logsigmoid": lambda L, x: L.nn.functional.logsigmoid(x.log()),
    "log_softplus": lambda L, x: L.nn.functional.softplus(x.log()),
    "log_hardtanh": lambda L, x: L.nn.functional.hardtanh(x.log()),
    "log_leaky_relu": lambda L, x: L.nn.functional.leaky_relu(x.log()),
    "log_hardswish": lambda L, x: L.nn.functional.hardswish(x.log()),
    "log_hardsigmoid": lambda L, x: L.nn.functional.hardsigmoid(x.log()),
    "log_threshold": lambda L, x: L.nn.functional.threshold(x.log(), 0.1, 2.0),
    "log_logit": lambda L, x: x.log().logit(),
    "log_softmax": lambda L, x: x.log().softmax(0),
    "log_log_softmax": lambda L, x: x.log().log_softmax(0),
    "log_mse": lambda L, x: L.nn.functional.mse_loss(x.log(), L.zeros(3, dtype=L.float64)),
    "log_l1": lambda L, x: L.nn.functional.l1_loss(x.log(), L.zeros(3, dtype=L.float64)),
    "log_smooth_l1": lambda L, x: L.nn.functional.smooth_l1_loss(
        x.log(), L.zeros(3, dtype=L.float64)),
    "log_huber": lambda L, x: L.nn.functional.huber_loss(x.log(), L.zeros(3, dtype=L.float64)),
    "log_div_x": lambda L, x: x.log() / x,
    "x_div_log": lambda L, x: x / x.log(),
    "log_mul_log": lambda L, x: x.log() * x.log(),
    "log_add_x": lambda L, x: x.log() + x,
    "log_sub_x": lambda L, x: x.log() - x,
    "x_sub_log": lambda L, x: x - x.log(),
    "rsub_log": lambda L, x: 1 - x.log(),
    "log_reciprocal": lambda L, x: x.log().reciprocal(),
    "log_sqrt": lambda L, x: x.log().sqrt(),
    "log_rsqrt": lambda L, x: x.log().rsqrt(),
    "log_sin": lambda L, x: x.log().sin(),
    "log_log": lambda L, x: x.log().log(),
    "log_erf": lambda L, x: x.log().erf(),
    "log_atan2_x": lambda L, x: L.atan2(x.log(), x),
    "log_maximum_x": lambda L, x: L.maximum(x.log(), x),
    "log_hypot_x": lambda L, x: L.hypot(x.log(), x),
    "log_pow_x": lambda L, x: x.log().pow(x),
    "log_xlogy_x": lambda L, x: L.xlogy(x.log(), x),
    "log_where": lambda L, x: L.where(x > 0, x.log(), 0.0),
    "log_clamp": lambda L, x: x.log().clamp(-1, 1),
    "log_cumsum": lambda L, x: x.log().cumsum(0),
    "log_prod": lambda L, x: x.log().prod(),
    "log_norm": lambda L, x: x.log().norm(),
    "log_var": lambda L, x: x.log().var(),
    "log_amax": lambda L, x: x.log().amax(),
    "log_sort": lambda L, x: x.log().sort()[0],
    "log_flip": lambda L, x: x.log().flip(0),
    "log_repeat": lambda L, x: x.log().repeat(2),
    "log_cat_x": lambda L, x: L.cat([x.log(), x]),
    "log_stack_x": lambda L, x: L.stack([x.log(), x]),
    "log_matmul": lambda L, x: x.log().view(1, 3) @ L.ones(3, 2, dtype=L.float64),
    "log_to_float32": lambda L, x: x.log().to(L.float32),
    "log_sgn": lambda L, x: x.log().sgn(),
    "float32_log": lambda L, x: x.float().log(),
    "sign_log": lambda L, x: x.log().sign() + x.log(),
    "diag": lambda L, x: x.log().diag(),
    "cross": lambda L, x: L.linalg.cross(x.log(), L.tensor([1.0, -2.0, 0.5], dtype=L.float64)),
    "complex_abs": lambda L, x: L.complex(x.log(), x).abs(),
    "real_of_complex": lambda L, x: L.complex(x, x.log()).real,
}


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_zero_tensor_through_a_backward_formula(name):
    """The zero tensor sgn's backward gives reaches y; y's formula keeps it (a composition of
    mul/div/add/sub/views) or materializes it (a fused kernel: tanh's 0 * (1 - y * y) is NaN
    where y is), and x.grad is either the zero tensor itself or materialized values."""
    def scenario(L):
        x = _leaf(L)
        seen = {}
        y = CHAINS[name](L, x)
        y.register_hook(lambda g: seen.__setitem__("y", _desc(g)))
        x.register_hook(lambda g: seen.__setitem__("x", _desc(g)))
        y.sgn().sum().backward()
        return seen, _desc(x.grad)
    _same(scenario)


BINARY = {
    "mul": lambda L, a, b: a * b,
    "div": lambda L, a, b: a / b,
    "add": lambda L, a, b: a + b,
    "sub": lambda L, a, b: a - b,
    "add_alpha": lambda L, a, b: L.add(a, b, alpha=2),
    "sub_alpha": lambda L, a, b: L.sub(a, b, alpha=2),
    "atan2": lambda L, a, b: L.atan2(a, b),
    "pow": lambda L, a, b: a.pow(b),
    "maximum": lambda L, a, b: L.maximum(a, b),
    "hypot": lambda L, a, b: L.hypot(a, b),
    "xlogy": lambda L, a, b: L.xlogy(a, b),
    "lerp": lambda L, a, b: L.lerp(a, b, 0.3),
    "mse_loss": lambda L, a, b: L.nn.functional.mse_loss(a, b),
    "where": lambda L, a, b: L.where(a > 0, a, b),
    "mm": lambda L, a, b: a.view(3, 1) @ b.view(1, 3),
    "addcdiv": lambda L, a, b: L.addcdiv(a, b, b + 3, value=2),
    "mul_broadcast": lambda L, a, b: a.view(3, 1) * b.view(1, 3),
    "add_broadcast": lambda L, a, b: a.view(3, 1) + b.view(1, 3),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_zero_tensor_into_a_binary_op(name):
    """Both inputs' gradients of a binary op whose output y meets sgn (sub's other: -grad,
    materialized -0.0; add's: the zero tensor itself)."""
    def scenario(L):
        a = _leaf(L, (0.5, -1.0, 2.0))
        b = _leaf(L, (0.0, 3.0, -0.5))
        seen = {}
        y = BINARY[name](L, a, b)
        y.register_hook(lambda g: seen.__setitem__("y", _desc(g)))
        a.register_hook(lambda g: seen.__setitem__("a", _desc(g)))
        b.register_hook(lambda g: seen.__setitem__("b", _desc(g)))
        y.sgn().sum().backward()
        return seen, _desc(a.grad), _desc(b.grad)
    _same(scenario)


def _sgn_grad(L, dtype="float64"):
    x = _leaf(L, dtype=dtype)
    x.sgn().sum().backward()
    return x


SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


@scenario
def fin_repro_006(L):
    """pending_stop31/fin_repro_006: log of a negative 0-d float32, sgn, backward: the
    leaf's gradient is the zero tensor (+0.0; ours was -0.0 from 0 / x)."""
    v1 = L.tensor(np.array(-0.052000001072883606, dtype="float32").reshape(()),
                  requires_grad=True)
    v1.log().sgn().backward()
    return _desc(v1.grad)


@scenario
def accumulate_grad(L):
    """AccumulateGrad's ``grad += new`` into a .grad that is a zero tensor raises; into a
    stored .grad it adds materialized zeros (-0.0 becomes +0.0)."""
    def into_zero(_):
        x = _sgn_grad(L)
        first = _desc(x.grad)
        try:
            x.sgn().sum().backward()
        except RuntimeError as e:
            return first, str(e), _desc(x.grad)

    def into_stored(_):
        x = _leaf(L)
        (x * -0.0).sum().backward()
        before = _desc(x.grad)
        x.sgn().sum().backward()
        y = _leaf(L)
        y.sum().backward()
        y.sgn().sum().backward()
        return before, _desc(x.grad), _desc(y.grad)
    return _outcome(into_zero, L), _outcome(into_stored, L)


@scenario
def grad_returns_the_zero_tensor(L):
    x = _leaf(L)
    g, = L.autograd.grad(x.log().sgn().sum(), x)
    return _desc(g), g.requires_grad


@scenario
def grad_create_graph_div(L):
    x = _leaf(L)
    g, = L.autograd.grad(x.log().sgn().sum(), x, create_graph=True)
    return _desc(g), type(g.grad_fn).__name__, g.requires_grad


@scenario
def grad_create_graph_mul(L):
    x = _leaf(L)
    g, = L.autograd.grad(x.cos().sgn().sum(), x, create_graph=True)
    return _desc(g), type(g.grad_fn).__name__


@scenario
def grad_create_graph_sgn(L):
    x = _leaf(L)
    g, = L.autograd.grad(x.sgn().sum(), x, create_graph=True)
    return _desc(g), g.grad_fn, g.requires_grad


@scenario
def grad_create_graph_materialized(L):
    """tanh_backward materializes under create_graph too; the quotient records DivBackward0
    (y's gradient, a zero tensor, was seen by the hook)."""
    x = _leaf(L)
    y = x.log().tanh()
    seen = []
    y.register_hook(lambda g: seen.append(_desc(g)))
    g, = L.autograd.grad(y.sgn().sum(), x, create_graph=True)
    return seen, _desc(g), type(g.grad_fn).__name__


@scenario
def retain_grad_is_materialized(L):
    """retain_grad's hook stores a clone: materialized, while x.grad is the zero tensor."""
    x = _leaf(L)
    y = x.log()
    y.retain_grad()
    y.sgn().sum().backward()
    return _desc(y.grad), _desc(x.grad)


@scenario
def retain_grad_twice(L):
    x = _leaf(L)
    y = x.log()
    y.retain_grad()
    s = y.sgn().sum()
    s.backward(retain_graph=True)
    retained = _desc(y.grad)
    s.backward()
    return retained


@scenario
def hook_holding_the_gradient(L):
    """A gradient a hook keeps is not stolen into .grad: the copy is materialized."""
    x = _leaf(L)
    kept = []
    x.register_hook(kept.append)
    x.sgn().sum().backward()
    return _desc(kept[0]), _desc(x.grad)


@scenario
def hook_returning_a_product(L):
    x = _leaf(L)
    x.register_hook(lambda g: g * 2)
    x.log().sgn().sum().backward()
    return _desc(x.grad)


@scenario
def hook_returning_a_sum(L):
    x = _leaf(L)
    x.register_hook(lambda g: g + 1)
    x.log().sgn().sum().backward()
    return _desc(x.grad)


@scenario
def buffer_sums(L):
    """A buffer no one else holds gets the zero tensor added in place (materialized:
    -0.0 + 0.0 is +0.0); a zero tensor buffer plus a gradient is that gradient's copy
    (-0.0 kept); a captured (autograd.grad) buffer likewise."""
    x = _leaf(L)
    (x.sgn().sum() + (x * -0.0).sum()).backward()
    w = _leaf(L)
    ((w * -0.0).sum() + w.sgn().sum()).backward()
    v = _leaf(L).view(3)
    g1, = L.autograd.grad((v * -0.0).sum() + v.sgn().sum(), v)
    y = _leaf(L) * 1.0
    g2, = L.autograd.grad((-y).sgn().sum() + y.sgn().sum() + (y * -1.0).sum(), y)
    return _desc(x.grad), _desc(w.grad), _desc(g1), _desc(g2)


@scenario
def custom_function_receives_it(L):
    seen = []

    class Twice(L.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1.0

        @staticmethod
        def backward(ctx, g):
            seen.append(_desc(g))
            return g * 3

    x = _leaf(L)
    Twice.apply(x).sgn().sum().backward()
    return seen, _desc(x.grad)


@scenario
def copy_slices(L):
    x = _leaf(L)
    y = x * 1.0
    y[1:] = x[:2].log()
    seen = []
    y.register_hook(lambda g: seen.append(_desc(g)))
    y.sgn().sum().backward()
    return seen, _desc(x.grad)


@scenario
def in_place_sgn(L):
    x = _leaf(L)
    y = x.log()
    y.sgn_()
    y.sum().backward()
    return _desc(x.grad)


@scenario
def float32_leaf(L):
    x = _leaf(L, dtype="float32")
    x.log().sgn().sum().backward()
    return _desc(x.grad), str(x.grad.dtype)


@scenario
def zero_dim_leaf(L):
    x = L.tensor(-0.5, dtype=L.float64, requires_grad=True)
    x.log().sgn().backward()
    return _desc(x.grad)


@scenario
def two_leaves_of_a_product(L):
    x, w = _leaf(L), _leaf(L, (1.0, -2.0, 0.0))
    (x * w).sgn().sum().backward()
    return _desc(x.grad), _desc(w.grad)


@scenario
def non_contiguous_leaf(L):
    """A zero tensor does not obey a transposed leaf's layout: .grad is a materialized
    copy (clone_obey_contract), not the zero tensor."""
    x = L.tensor([[0.0, -1.0], [2.0, 3.0]], dtype=L.float64).t().requires_grad_()
    y = x.log()
    seen = []
    y.register_hook(lambda g: seen.append(_desc(g)))
    y.sgn().sum().backward()
    return seen, _desc(x.grad), x.grad.stride()


@scenario
def reshape_of_a_transposed_zero_tensor(L):
    """PyTorch's reshape clones what it cannot view: the copy is materialized."""
    x = _leaf(L, (0.5, -1.0, 2.0, 3.0))
    y = x.view(2, 2)
    seen = []
    y.register_hook(lambda g: seen.append(_desc(g)))
    y.t().reshape(4).sgn().sum().backward()
    return seen, _desc(x.grad)


@scenario
def backward_inputs(L):
    x = _leaf(L)
    y = x.log()
    seen = []
    y.register_hook(lambda g: seen.append(_desc(g)))
    y.sgn().sum().backward(inputs=[y])
    return seen, _desc(y.grad)


@scenario
def ops_on_the_zero_grad(L):
    g = _sgn_grad(L).grad
    return [_desc(v) for v in (g * 2, g + 1, -g, g / g, L.ones(3, dtype=L.float64) / g,
                               g.sum(), g.view(3, 1), g[1:], g[0], g.clone(), g.float(),
                               g.double(), g.detach(), g.exp(), g.t(), g.expand(2, 3))]


@scenario
def what_reads_it(L):
    """tolist() and numpy() refuse (no storage), numpy(force=True), printing and item()
    of a one-element view read zeros."""
    g = _sgn_grad(L).grad
    reads = (lambda _: g.tolist(), lambda _: g.numpy(), lambda _: np.asarray(g),
             lambda _: g.numpy(force=True).tolist(), lambda _: g.item(),
             lambda _: g.sum().item(), lambda _: g[0].item(), lambda _: str(g),
             lambda _: repr(g))
    return [_outcome(f, L) for f in reads]


@scenario
def optimizer_step(L):
    x = _leaf(L)
    opt = L.optim.SGD([x], lr=0.1)
    x.sgn().sum().backward()
    opt.step()
    return _vals(x), _desc(x.grad)


@scenario
def half_precision_and_empty(L):
    out = []
    for dt in ("float16", "bfloat16"):
        x = _leaf(L, dtype=dt)
        x.log().sgn().sum().backward()
        out.append((x.grad._is_zerotensor(), _vals(x.grad.float()), str(x.grad.dtype)))
    e = L.zeros(0, dtype=L.float64, requires_grad=True)
    e.log().sgn().sum().backward()
    return out, _desc(e.grad)


@scenario
def double_backward(L):
    """A zero tensor with history (DivBackward0 under create_graph) backpropagated again;
    and the second-order gradient of a first-order zero tensor (MulBackward0's saved
    operands)."""
    x = _leaf(L, (0.5, -1.0, 2.0))
    g, = L.autograd.grad(x.log().sgn().sum(), x, create_graph=True)
    g.sum().backward()
    w = _leaf(L, (0.5, -1.0, 2.0))
    h, = L.autograd.grad(w.cos().sgn().sum(), w, create_graph=True)
    h2, = L.autograd.grad(h.sum(), w)
    return _desc(g), _desc(x.grad), _desc(h), _desc(h2)


@scenario
def grad_entry_points(L):
    """grad_outputs given, materialize_grads (an unused input's zeros are stored), and an
    nn.Linear whose output meets sgn (mm and sum keep or materialize it as torch's)."""
    x = _leaf(L, (0.5, -1.0, 2.0))
    g1, = L.autograd.grad(x.log().sgn(), x,
                          grad_outputs=L.tensor([1.0, -0.0, 2.0], dtype=L.float64))
    unused = L.tensor([1.0], dtype=L.float64, requires_grad=True)
    g2 = L.autograd.grad(x.log().sgn().sum(), (x, unused), materialize_grads=True)
    lin = L.nn.Linear(3, 2).double()
    with L.no_grad():
        lin.weight.copy_(L.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, -1.0]], dtype=L.float64))
        lin.bias.zero_()
    lin(L.tensor([[0.5, -1.0, 2.0]], dtype=L.float64)).sgn().sum().backward()
    return (_desc(g1), [_desc(v) for v in g2], _desc(lin.weight.grad),
            _desc(lin.bias.grad))


@scenario
def optimizers_and_clipping(L):
    """Optimizer steps read the zero tensor (add_/addcmul_ into their state: materialized);
    clip_grad_norm_/clip_grad_value_ write into .grad and raise, as torch's."""
    def one(what):
        x = _leaf(L)
        if what == "clip_norm":
            x.sgn().sum().backward()
            L.nn.utils.clip_grad_norm_([x], 1.0)
        elif what == "clip_value":
            x.sgn().sum().backward()
            L.nn.utils.clip_grad_value_([x], 1.0)
        else:
            opt = {"adam": lambda p: L.optim.Adam(p, lr=0.1),
                   "adamw": lambda p: L.optim.AdamW(p, lr=0.1),
                   "sgd_momentum": lambda p: L.optim.SGD(p, lr=0.1, momentum=0.9),
                   "rmsprop": lambda p: L.optim.RMSprop(p, lr=0.1)}[what]([x])
            for _ in range(2):
                opt.zero_grad()
                x.sgn().sum().backward()
                opt.step()
        return _vals(x), _desc(x.grad)
    return [_outcome(lambda _, w=w: one(w), L)
            for w in ("adam", "adamw", "sgd_momentum", "rmsprop", "clip_norm", "clip_value")]


@scenario
def optimizer_zero_grad_in_place(L):
    x = _leaf(L)
    opt = L.optim.SGD([x], lr=0.1)
    x.sgn().sum().backward()
    opt.zero_grad(set_to_none=False)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_zero_tensor_gradient_scenario(name):
    _same(SCENARIOS[name])


WRITES = {
    "setitem_int": lambda L, z: z.__setitem__(0, 1.0),
    "setitem_int_tensor": lambda L, z: z.__setitem__(0, L.tensor(1.0, dtype=L.float64)),
    "setitem_mask": lambda L, z: z.__setitem__(L.tensor([True, False, True]), 1.0),
    "setitem_list": lambda L, z: z.__setitem__([0], 1.0),
    "setitem_slice": lambda L, z: z.__setitem__(slice(0, 2), 1.0),
    "setitem_ellipsis": lambda L, z: z.__setitem__(Ellipsis, 1.0),
    "fill_": lambda L, z: z.fill_(1),
    "zero_": lambda L, z: z.zero_(),
    "masked_fill_": lambda L, z: z.masked_fill_(z > 1, 1.0),
    "index_put_": lambda L, z: z.index_put_((L.tensor([0]),), L.tensor(1.0, dtype=L.float64)),
    "exp_": lambda L, z: z.exp_(),
    "clamp_": lambda L, z: z.clamp_(0, 1),
    "add_": lambda L, z: z.add_(1),
    "mul_": lambda L, z: z.mul_(2),
    "copy_": lambda L, z: z.copy_(L.ones(3, dtype=L.float64)),
    "view_add_": lambda L, z: z.view(3, 1).add_(1),
    "select_add_": lambda L, z: z[0].add_(1),
    "out": lambda L, z: L.add(L.ones(3, dtype=L.float64), 1, out=z),
    "no_writes": lambda L, z: (z.requires_grad_(False)._is_zerotensor(),
                               setattr(z, "data", L.ones(3, dtype=L.float64))),
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_write_into_a_zero_grad(name):
    """ZeroTensors are immutable: each write raises PyTorch's error (copy_'s wording or
    the fallback's); requires_grad_ and .data's replacement are no writes."""
    def scenario(L):
        z = _sgn_grad(L).grad
        return WRITES[name](L, z), _desc(z)
    _same(scenario)


COMPILED = {
    "log_plus_negative_zero": lambda x: x.log().sgn().sum() + (x * -0.0).sum(),
    "negative_zero_first": lambda x: (x * -0.0).sum() + x.sgn().sum(),
    "view_t": lambda x: x.log().view(3, 1).t().sgn().sum(),
    "tanh": lambda x: x.log().tanh().sgn().sum(),
    "relu": lambda x: x.log().relu().sgn().sum(),
    "square_twice": lambda x: (x * x).sgn().sum() + (x * x).sum() * -0.0,
}


def test_compiled_backward_as_torch_eager():
    """autotensor.compile's backward program (straight-line formulas) keeps, materializes
    (a fused kernel) and sums the zero tensor as the engine does: compared with torch's
    eager backward, on the traced call and on a replay."""
    def scenario(L):
        out = {}
        for name, fn in COMPILED.items():
            x = _leaf(L)
            f = autotensor.compile(fn) if L is autotensor else fn
            for _ in range(2):
                x.grad = None
                f(x).backward()
                out.setdefault(name, []).append(_desc(x.grad))
        return out
    _same(scenario)
