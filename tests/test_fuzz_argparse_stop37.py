"""Wrong-typed, missing and extra arguments to the public functions and Tensor methods:
PyTorch's PythonArgParser errors (type and exact message), never an internal error and
never a silent result (Note [Argument errors on the exception path] in autotensor/_argparse.py).

Each case is a call (function x bad-argument pattern) evaluated on torch and on autotensor.
"""
import importlib
import warnings

import pytest

torch = pytest.importorskip("torch")

# (callable, positional argument tokens, keyword argument tokens) of a good call: the
# patterns below break one thing in it
GOOD = [
    ("torch.add", ["x", "y"], {}), ("x.add", ["y"], {}), ("torch.mul", ["x", "y"], {}),
    ("x.mul", ["y"], {}), ("torch.sub", ["x", "y"], {}), ("x.sub", ["y"], {}),
    ("torch.exp", ["x"], {}), ("x.exp", [], {}), ("torch.sin", ["x"], {}),
    ("x.tanh", [], {}), ("torch.sigmoid", ["x"], {}), ("x.abs", [], {}),
    ("torch.sum", ["x", "0"], {}), ("x.sum", ["0"], {}), ("torch.sum", ["x"], {}),
    ("torch.mean", ["x", "0"], {"keepdim": "True"}), ("x.mean", ["0"], {}),
    ("torch.max", ["x", "0"], {}), ("x.max", ["0"], {}), ("torch.min", ["x", "1"], {}),
    ("x.min", ["1"], {}), ("torch.std", ["x", "0"], {}), ("x.var", ["1"], {}),
    ("torch.prod", ["x", "0"], {}), ("torch.argmax", ["x", "1"], {}), ("x.amax", ["0"], {}),
    ("torch.cumsum", ["x", "0"], {}), ("x.logsumexp", ["0"], {}),
    ("x.view", ["6"], {}), ("x.view", ["3", "2"], {}), ("torch.reshape", ["x", "(6,)"], {}),
    ("x.reshape", ["3", "2"], {}), ("torch.permute", ["x", "(1, 0)"], {}),
    ("x.permute", ["1", "0"], {}), ("torch.transpose", ["x", "0", "1"], {}),
    ("x.transpose", ["0", "1"], {}), ("torch.squeeze", ["x", "0"], {}), ("x.squeeze", ["0"], {}),
    ("torch.unsqueeze", ["x", "0"], {}), ("x.unsqueeze", ["1"], {}),
    ("x.expand", ["2", "2", "3"], {}), ("x.repeat", ["2", "1"], {}),
    ("torch.flatten", ["x"], {}), ("torch.cat", ["[x, y]"], {}), ("torch.stack", ["[x, y]"], {}),
    ("torch.cat", ["(x, y)", "1"], {}),
    ("torch.index_select", ["x", "1", "i"], {}), ("x.index_select", ["1", "i"], {}),
    ("torch.gather", ["x", "1", "j"], {}), ("x.gather", ["1", "j"], {}),
    ("x.scatter", ["1", "j", "y"], {}), ("x.scatter_add", ["1", "j", "y"], {}),
    ("torch.matmul", ["x", "m"], {}), ("x.matmul", ["m"], {}), ("torch.mm", ["x", "m"], {}),
    ("x.mm", ["m"], {}), ("torch.bmm", ["b", "b"], {}),
    ("torch.zeros", ["2", "3"], {}), ("torch.ones", ["(2, 3)"], {"dtype": "torch.float64"}),
    ("torch.empty", ["2"], {}), ("torch.full", ["(2,)", "1.5"], {}), ("torch.rand", ["2"], {}),
    ("torch.randn", ["2", "3"], {}), ("torch.arange", ["5"], {}),
    ("torch.arange", ["1", "5", "2"], {}), ("x.to", ["torch.float64"], {}),
    ("torch.clamp", ["x", "0.5"], {}), ("x.clamp", ["0.5", "1.5"], {}),
    ("x.clamp", [], {"min": "0.5"}),
    ("torch.where", ["c", "x", "y"], {}), ("x.softmax", ["0"], {}),
    ("torch.softmax", ["x", "1"], {}), ("torch.log_softmax", ["x", "1"], {}),
    ("torch.maximum", ["x", "y"], {}), ("x.masked_fill", ["c", "0.5"], {}),
    ("torch.narrow", ["x", "1", "0", "2"], {}), ("x.select", ["1", "0"], {}),
    ("torch.topk", ["x", "2"], {}), ("x.sort", ["1"], {}),
    ("F.linear", ["x", "w"], {}), ("F.bilinear", ["x", "x", "w3"], {}),
    ("F.prelu", ["x", "p"], {}), ("F.cosine_similarity", ["x", "y"], {}),
    ("F.pairwise_distance", ["x", "y"], {}), ("F.one_hot", ["i"], {}), ("F.pdist", ["x"], {}),
    ("F.relu", ["x"], {}),
]

SETUP = """
x = torch.ones(2, 3); y = torch.full((2, 3), 2.0); m = torch.ones(3, 3)
b = torch.ones(2, 3, 3); i = torch.tensor([0, 1]); j = torch.tensor([[0, 1], [1, 0]])
c = x > 0; w = torch.ones(4, 3); w3 = torch.ones(4, 3, 3); p = torch.tensor([0.25])
F = torch.nn.functional
"""

_TENSORS = {"x", "y", "m", "b", "i", "j", "c", "w", "w3", "p"}


def _call(f, args, kwargs):
    return f + "(" + ", ".join(list(args) + [f"{k}={v}" for k, v in kwargs.items()]) + ")"


def cases():
    out = []
    for f, args, kwargs in GOOD:
        for k in range(len(args)):  # each argument: a str, a list, a float, a tensor
            for bad in ("'a'", "[0]", "1.5", "x", "None"):
                if bad != args[k]:
                    out.append(_call(f, args[:k] + [bad] + args[k + 1:], kwargs))
        for k in range(len(args)):  # missing arguments
            out.append(_call(f, args[:k], kwargs))
        out.append(_call(f, args + ["1"], kwargs))  # an extra one
        out.append(_call(f, args + ["x", "x"], kwargs))
        out.append(_call(f, args, dict(kwargs, foo="1")))  # an unknown keyword
        for k in kwargs:
            out.append(_call(f, args, dict(kwargs, **{k: "'a'"})))
        for kw in ("dim", "keepdim", "dtype", "out", "alpha"):
            if kw not in kwargs:
                out.append(_call(f, args, dict(kwargs, **{kw: "'a'"})))
    out += [  # the lead's probe
        "torch.add(x, 'a')", "torch.exp('a')", "torch.exp(x, 1)", "x.exp(1)",
        "torch.sum(x, 'a')", "x.sum(dim='a')", "torch.matmul(x, 3)", "torch.cat(x)",
        "torch.cat([x, 1])", "torch.stack(x)", "x.view('a')", "x.reshape(2, 'a')",
        "x.permute(0)", "x.transpose(0)", "torch.zeros('a')", "torch.ones(2, dtype='float')",
        "x.to('float')", "x.clamp('a')", "F.relu('a')", "F.linear(x, 3)", "x.mul(x, x)",
        "torch.mul(x, other=x, alpha=2)", "torch.mean(x, dtype=1)", "x.max(1, 2, 3)",
        "torch.where(x)", "x.index_select(0, [0])", "x.gather(0, [[0]])",
        "torch.tensor(x, foo=1)", "x.squeeze('a')", "x.expand('a')", "x.repeat('a')",
        "torch.randn('a')", "torch.arange('a')", "x.norm(p='x')", "x.sum(foo=1)",
        "torch.sum(x, dim=0, keepdim=1.5)", "x.mul(x, alpha=2)", "torch.add(x)", "x.add()",
        "torch.exp(2)", "x.sum(0, 1)", "x.mean(0, 1.0)", "x.add(2, y)", "x.clone().add_(1, 2)",
        "x.clone().sub_(2, y)", "torch.add(x, 3, y)", "torch.add(x, 3, y, out=torch.empty(0))",
    ]
    return list(dict.fromkeys(out))


# Cases PyTorch and autotensor still answer differently, with why (OPEN_FINDINGS Stop 37)
OPEN = {
    # a no-argument method given keywords: no **kwargs on the elementwise methods (a dict
    # per call)
    'x.exp(foo=1)': 'kw', "x.exp(dim='a')": 'kw', "x.exp(keepdim='a')": 'kw',
    "x.exp(dtype='a')": 'kw', "x.exp(out='a')": 'kw', "x.exp(alpha='a')": 'kw',
    'x.tanh(foo=1)': 'kw', "x.tanh(dim='a')": 'kw', "x.tanh(keepdim='a')": 'kw',
    "x.tanh(dtype='a')": 'kw', "x.tanh(out='a')": 'kw', "x.tanh(alpha='a')": 'kw',
    'x.abs(foo=1)': 'kw', "x.abs(dim='a')": 'kw', "x.abs(keepdim='a')": 'kw',
    "x.abs(dtype='a')": 'kw', "x.abs(out='a')": 'kw', "x.abs(alpha='a')": 'kw',
}


def outcome(mod_name, call):
    mod = importlib.import_module(mod_name)
    env = {"torch": mod}
    exec(SETUP, env)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval(call, env)
    except Exception as e:  # noqa: BLE001 (the type and message are what is compared)
        return type(e).__name__, str(e)
    return "ok", ""


CASES = cases()


@pytest.mark.parametrize("call", [c for c in CASES if c not in OPEN])
def test_argument_errors_match_torch(call):
    expected = outcome("torch", call)
    got = outcome("autotensor", call)
    if expected[0] == "ok":  # (values are other tests' concern: only that both compute)
        assert got[0] == "ok", got
        return
    assert got == expected


if __name__ == "__main__":  # (count the calls that differ: python tests/test_fuzz_...py)
    diff = [c for c in CASES if (lambda e, g: e[0] != g[0] or e[0] != "ok" and e != g)(
        outcome("torch", c), outcome("autotensor", c))]
    print(f"{len(diff)} of {len(CASES)} calls differ")
    for c in diff:
        print(" ", c, "|", outcome("torch", c), "|", outcome("autotensor", c))
