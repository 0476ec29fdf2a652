"""nn.Module machinery against torch: registration, iteration order, state dicts and their
errors, hooks, conversion, containers and repr."""
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")
LIBS = [autotensor, torch]


def both(fn):
    """Run ``fn(lib)`` for both libraries; return the two results."""
    return [fn(m) for m in LIBS]


def outcome(fn, m):
    try:
        return ("ok", fn(m))
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return (type(e).__name__, str(e))


def same(fn):
    a, b = [outcome(fn, m) for m in LIBS]
    assert a == b
    return a


def net(m):
    class Net(m.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = m.nn.Sequential(m.nn.Linear(3, 4), m.nn.ReLU())
            self.register_buffer("steps", m.zeros(1))
            self.register_buffer("scratch", m.ones(2), persistent=False)
            self.head = m.nn.Linear(4, 2)
            self.alpha = m.nn.Parameter(m.ones(1))
            self.shared = self.head

        def forward(self, x):
            return self.head(self.conv(x)) * self.alpha
    m.manual_seed(0)
    return Net()


def test_iteration_orders_and_names():
    same(lambda m: [n for n, _ in net(m).named_parameters()])
    same(lambda m: [n for n, _ in net(m).named_parameters(remove_duplicate=False)])
    same(lambda m: [n for n, _ in net(m).named_parameters(recurse=False)])
    same(lambda m: [n for n, _ in net(m).named_buffers()])
    same(lambda m: [n for n, _ in net(m).named_modules()])
    same(lambda m: [n for n, _ in net(m).named_modules(remove_duplicate=False)])
    same(lambda m: [n for n, _ in net(m).named_children()])
    same(lambda m: [type(c).__name__ for c in net(m).children()])
    same(lambda m: list(net(m).state_dict().keys()))
    same(lambda m: list(net(m).state_dict(prefix="model.").keys()))
    same(lambda m: [type(v).__name__ for v in net(m).state_dict(keep_vars=True).values()])
    same(lambda m: [v.requires_grad for v in net(m).state_dict(keep_vars=True).values()])
    same(lambda m: [v.requires_grad for v in net(m).state_dict().values()])
    same(lambda m: repr(net(m)))
    for m in LIBS:
        names = set(dir(net(m)))
        assert {"alpha", "steps", "scratch", "head", "conv", "forward"} <= names
        assert not any(n[0].isdigit() for n in dir(m.nn.Sequential(m.nn.ReLU())))


def test_get_submodule_parameter_buffer_errors():
    same(lambda m: repr(net(m).get_submodule("conv.0")))
    same(lambda m: net(m).get_submodule("conv.7"))
    same(lambda m: net(m).get_submodule("alpha"))
    same(lambda m: tuple(net(m).get_parameter("conv.0.bias").shape))
    same(lambda m: net(m).get_parameter("steps"))
    same(lambda m: net(m).get_parameter("conv.nothing"))
    same(lambda m: tuple(net(m).get_buffer("steps").shape))
    same(lambda m: net(m).get_buffer("alpha"))


def test_registration_errors():
    same(lambda m: m.nn.Module().register_buffer("a.b", m.zeros(1)))
    same(lambda m: m.nn.Module().register_buffer("", m.zeros(1)))
    same(lambda m: m.nn.Module().register_buffer("x", 3))
    same(lambda m: m.nn.Module().register_buffer(1, m.zeros(1)))
    same(lambda m: m.nn.Module().register_parameter("w", m.zeros(1)))
    same(lambda m: m.nn.Module().register_parameter("w.x", None))
    same(lambda m: m.nn.Module().add_module("a.b", m.nn.ReLU()))
    same(lambda m: m.nn.Module().add_module("a", 3))
    same(lambda m: net(m).register_buffer("head", m.zeros(1)))
    same(lambda m: setattr(net(m), "alpha", m.zeros(1)))
    same(lambda m: setattr(net(m), "head", 3))
    same(lambda m: m.nn.Linear(2, 2).register_parameter(
        "w", m.nn.Parameter(m.ones(1)) * 2))

    def non_leaf(m):
        p = m.nn.Parameter(m.ones(2))
        q = m.nn.Parameter(p * 1)  # a Parameter made from a non-leaf is a leaf again
        mod = m.nn.Module()
        mod.q = q
        return q.is_leaf

    same(non_leaf)

    def before_init(m):
        class Bad(m.nn.Module):
            def __init__(self):
                self.w = m.nn.Parameter(m.ones(1))
        Bad()
    same(before_init)


def test_setattr_routing_and_delattr():
    def routing(m):
        mod = net(m)
        mod.steps = m.ones(1) * 5          # reassigning a buffer keeps it a buffer
        mod.head = None                    # a module slot may be set to None
        mod.extra = m.nn.Linear(1, 1)
        del mod.alpha
        mod.alpha = 3                      # plain attribute now
        mod.buf = m.nn.Buffer(m.zeros(2), persistent=False)
        return (list(mod.state_dict()), [n for n, _ in mod.named_buffers()], mod.alpha,
                repr(mod))
    same(routing)


def test_load_state_dict_results_and_errors():
    def roundtrip(m):
        a, b = net(m), net(m)
        with m.no_grad():
            for p in a.parameters():
                p.add_(1)
        r = b.load_state_dict(a.state_dict())
        return (repr(r), str(r), [p.detach().numpy().tolist() for p in b.parameters()])
    same(roundtrip)

    def errors(m, strict):
        sd = net(m).state_dict()
        sd.pop("head.bias")
        sd["conv.0.weight"] = m.zeros(5, 5)
        sd["bogus"] = m.zeros(1)
        sd["conv.9.weight"] = m.zeros(1)
        return net(m).load_state_dict(sd, strict=strict)
    same(lambda m: errors(m, True))
    same(lambda m: errors(m, False))

    def not_strict(m):
        sd = net(m).state_dict()
        sd.pop("head.bias")
        sd["bogus"] = m.zeros(1)
        r = net(m).load_state_dict(sd, strict=False)
        return (r.missing_keys, r.unexpected_keys, repr(r))
    same(not_strict)
    same(lambda m: net(m).load_state_dict([1, 2]))
    same(lambda m: net(m).load_state_dict({"alpha": 3}, strict=False))

    def assign(m):
        mod = net(m)
        sd = {k: v.clone() * 0 for k, v in mod.state_dict().items()}
        mod.load_state_dict(sd, assign=True)
        return (type(mod.alpha).__name__, mod.alpha.requires_grad,
                mod.alpha is sd["alpha"], type(mod.steps).__name__)
    same(assign)


def test_state_dict_hooks():
    def hooks(m):
        mod = net(m)
        calls = []
        mod.register_state_dict_pre_hook(lambda mod_, prefix, keep: calls.append(("pre",
                                                                                prefix)))
        mod.register_state_dict_post_hook(lambda mod_, sd, prefix, meta: calls.append(
            ("post", len(sd))))
        mod.head.register_load_state_dict_pre_hook(
            lambda mod_, sd, prefix, *rest: calls.append(("load_pre", prefix)))
        mod.register_load_state_dict_post_hook(
            lambda mod_, keys: calls.append(("load_post", list(keys.missing_keys))))
        sd = mod.state_dict()
        mod.load_state_dict(sd)
        return calls
    same(hooks)


def test_train_eval_requires_grad_zero_grad():
    def modes(m):
        mod = net(m)
        mod.eval()
        flags = [x.training for x in mod.modules()]
        mod.train()
        flags += [x.training for x in mod.modules()]
        mod.requires_grad_(False)
        flags += [p.requires_grad for p in mod.parameters()]
        return flags
    same(modes)
    same(lambda m: net(m).train("yes"))

    def zero_grad(m):
        mod = net(m)
        mod(m.ones(2, 3)).sum().backward()
        mod.zero_grad(set_to_none=False)
        kept = [p.grad.numpy().tolist() for p in mod.parameters()]
        mod.zero_grad()
        return kept, [p.grad for p in mod.parameters()]
    same(zero_grad)


def test_conversion_keeps_parameter_identity():
    def conv(m):
        mod = net(m)
        ids = [id(p) for p in mod.parameters()]
        mod.double()
        dtypes = [str(p.dtype) for p in mod.parameters()] + [str(b.dtype) for b in
                                                             mod.buffers()]
        same_ids = ids == [id(p) for p in mod.parameters()]
        mod.to(m.float32)
        mod.half()
        mod.float()
        mod.to("cpu")
        return dtypes, same_ids, [str(p.dtype) for p in mod.parameters()]
    same(conv)
    same(lambda m: net(m).to(m.int64))
    same(lambda m: type(net(m).apply(lambda x: None)).__name__)

    def apply_order(m):
        names = []
        net(m).apply(lambda x: names.append(type(x).__name__))
        return names
    same(apply_order)


def test_forward_hooks():
    def run(m):
        mod = m.nn.Linear(3, 2)
        log = []
        mod.register_forward_pre_hook(lambda mod_, args: log.append("pre") or (args[0] * 2,))
        mod.register_forward_pre_hook(
            lambda mod_, args, kwargs: log.append(("prekw", sorted(kwargs))) or None,
            with_kwargs=True)
        h = mod.register_forward_hook(lambda mod_, args, out: out + 1)
        mod.register_forward_hook(lambda mod_, args, kwargs, out: log.append(
            ("postkw", tuple(out.shape))), with_kwargs=True)
        mod.register_forward_hook(lambda mod_, args, out: log.append("first"), prepend=True)
        x = m.ones(1, 3)
        m.manual_seed(0)
        y1 = mod(x)
        h.remove()
        y2 = mod(x)
        return log, (y1 - y2).detach().numpy().tolist()
    m_a, m_b = [run(m) for m in LIBS]
    assert m_a == m_b

    def bad_pre(m):
        lin = m.nn.Linear(1, 1)
        lin.register_forward_pre_hook(lambda mod, a, k: 5, with_kwargs=True)
        return lin(m.ones(1))
    same(bad_pre)


def test_full_backward_hooks():
    def run(m):
        m.manual_seed(0)
        mod = m.nn.Sequential(m.nn.Linear(3, 3), m.nn.Tanh())
        log = []

        def hook(mod_, gin, gout):
            log.append(("hook", [None if g is None else np.round(g.numpy(), 5).tolist()
                                 for g in gin],
                        [np.round(g.numpy(), 5).tolist() for g in gout]))
            return (gin[0] * 2,)

        def pre(mod_, gout):
            log.append(("pre", [np.round(g.numpy(), 5).tolist() for g in gout]))
            return (gout[0] * 3,)
        mod[1].register_full_backward_hook(hook)
        mod[1].register_full_backward_pre_hook(pre)
        x = m.tensor([[0.1, -0.2, 0.3]], requires_grad=True)
        y = mod(x)
        names = y.grad_fn.name()
        y.sum().backward()
        return log, names, np.round(x.grad.numpy(), 5).tolist()
    same(run)

    def mixing(m):
        mod = m.nn.Linear(1, 1)
        mod.register_backward_hook(lambda *a: None)
        mod.register_full_backward_hook(lambda *a: None)
    same(mixing)


def test_module_forward_missing_and_call_errors():
    same(lambda m: m.nn.Module()(m.ones(1)))
    same(lambda m: m.nn.Module(3))
    same(lambda m: m.nn.ParameterList()(1))


def test_sequential_and_module_list():
    def seq(m):
        m.manual_seed(0)
        s = m.nn.Sequential(m.nn.Linear(2, 2), m.nn.ReLU(), m.nn.Linear(2, 1))
        out = [repr(s[1:]), repr(s[-1]), len(s)]
        s.append(m.nn.Sigmoid())
        s.insert(1, m.nn.Tanh())
        s.insert(-1, m.nn.Identity())
        out.append(repr(s))
        del s[0]
        out.append(list(s._modules))
        out.append(repr(s.pop(1)))
        out.append(repr(s + m.nn.Sequential(m.nn.ReLU())))
        out.append(repr(s * 2))
        od = m.nn.Sequential(OrderedDict([("a", m.nn.ReLU()), ("b", m.nn.Tanh())]))
        out.append(repr(od))
        return out
    same(seq)
    same(lambda m: m.nn.Sequential(m.nn.ReLU())[3])
    same(lambda m: m.nn.Sequential(m.nn.ReLU()).insert(5, m.nn.ReLU()))
    same(lambda m: m.nn.Sequential() + 1)

    def mlist(m):
        ml = m.nn.ModuleList([m.nn.ReLU(), m.nn.ReLU(), m.nn.Tanh(), m.nn.ReLU()])
        out = [repr(ml), repr(ml[1:3]), len(ml)]
        ml.insert(0, m.nn.Sigmoid())
        ml.extend([m.nn.Identity()])
        ml[2] = m.nn.Softsign()
        del ml[-1]
        out.append(repr(ml))
        out.append(repr(m.nn.ModuleList()))
        return out
    same(mlist)
    same(lambda m: m.nn.ModuleList([m.nn.ReLU()])[4])
    same(lambda m: m.nn.ModuleList().extend(3))

    def mdict(m):
        md = m.nn.ModuleDict({"b": m.nn.ReLU(), "a": m.nn.Tanh()})
        md["c"] = m.nn.Identity()
        md.update([("d", m.nn.Sigmoid())])
        out = [repr(md), list(md.keys()), "a" in md, len(md)]
        md.pop("a")
        out.append(list(md))
        return out
    same(mdict)
    same(lambda m: m.nn.ModuleDict().update(3))
    same(lambda m: m.nn.ModuleDict().update([("a",)]))


def test_parameter_list_and_dict():
    def plist(m):
        pl = m.nn.ParameterList([m.nn.Parameter(m.ones(2, 3)), m.zeros(4)])
        pl.append(m.ones(1, dtype=m.float64))
        out = [repr(pl), len(pl), [type(p).__name__ for p in pl],
               [n for n, _ in pl.named_parameters()]]
        pd = m.nn.ParameterDict({"b": m.ones(2), "a": m.nn.Parameter(m.zeros(3, 3))})
        pd["c"] = m.ones(1)
        out += [repr(pd), list(pd.keys()), [n for n, _ in pd.named_parameters()]]
        pd.pop("b")
        out.append(list(pd))
        return out
    same(plist)
    same(lambda m: m.nn.ParameterDict()[3])


def test_global_forward_hook():
    def run(m):
        log = []
        h = m.nn.modules.module.register_module_forward_hook(
            lambda mod, a, out: log.append(type(mod).__name__))
        try:
            m.nn.Sequential(m.nn.ReLU(), m.nn.Tanh())(m.ones(1))
        finally:
            h.remove()
        m.nn.ReLU()(m.ones(1))
        return log
    same(run)


def test_deep_module_repr_and_walk_do_not_recurse():
    mod = autotensor.nn.Identity()
    for _ in range(3000):
        outer = autotensor.nn.Module()
        outer.inner = mod
        mod = outer
    assert len(list(mod.named_modules())) == 3001
    assert len(mod.state_dict()) == 0
    mod = autotensor.nn.Identity()
    for _ in range(1100):   # past the recursion limit; the string itself grows as depth^2
        outer = autotensor.nn.Module()
        outer.inner = mod
        mod = outer
    assert repr(mod).count("Identity()") == 1


def test_parameter_repr():
    a, b = both(lambda m: repr(m.nn.Parameter(m.ones(2))))
    assert a == b
    a, b = both(lambda m: str(m.nn.Parameter(m.ones(2))))
    assert a == b


def test_no_warnings_on_plain_use():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        autotensor.nn.Linear(2, 2)(autotensor.ones(2))
