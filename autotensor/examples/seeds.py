"""Run every code example of the seed documents and print the autograd graphs they build.

    python -m autotensor.examples.seeds            # runs them with autotensor
    python -m autotensor.examples.seeds --torch    # the same code on real PyTorch
    python -m autotensor.examples.seeds --draw DIR # their graphs as SVG pictures (viz)

The seeds (``shared/seeds/*.txt``) are articles on PyTorch's autograd.  Each snippet is kept
here verbatim, as a string, and executed with ``exec`` in a fresh namespace in which
``torch`` -- and ``import torch``, ``import torch.nn as nn`` inside the snippet -- means the
module under test.  So the very same text runs on autotensor and on PyTorch, and the tests
(``tests/test_seed_examples.py``) compare what the two print.

Before each snippet ``torch.manual_seed(0)`` is called; after it, the graph of every tensor
the snippet left in its namespace that has a ``grad_fn`` is printed by
``autograd.graph.format_graph``'s walker (Note [Graph text]), and the ``.grad`` of every
leaf that got one.  A snippet that raises prints ``TypeName: message``
and the run goes on with the next one.

Left out, on purpose, because they are not runnable code:

* seed 000's ``// CopySlices`` comment: pseudo-code quoted from PyTorch's C++ sources
  (``t`` is never defined);
* seed 003's ``torch.autograd.backward(tensors, grad_tensors=None, ...)`` block: an API
  signature (``tensors`` is never defined), not a call;
* the program outputs the articles print after their snippets (``>>> ...``, ``输出``).

Seed 004's sympy snippet is run only if ``sympy`` is importable; its training-step fragment
uses ``model``, ``criterion``... that the article never defines, so a small set-up (marked as
ours, printed under the heading) defines them first.
"""
from __future__ import annotations

import builtins
import contextlib
import importlib
import importlib.util
import sys
from typing import NamedTuple

from ..autograd.graph_text import graph_lines


class Example(NamedTuple):
    """One snippet: the seed file's number, a title naming its section, the code verbatim."""

    seed: str
    title: str
    code: str


# --------------------------------------------------------------------------------------
# seed 000: 自动微分与张量操作 (in-place ops, views, CopySlices)
# --------------------------------------------------------------------------------------
_S000 = [
    Example("000", "§1 the autograd graph: y = x ** 2, z = y * 2", """\
x = torch.randn(8, requires_grad=True)
y = x ** 2
z = y * 2
"""),
    Example("000", "§1 a mutation: y.mul_(2)", """\
x = torch.randn(8, requires_grad=True)
y = x ** 2
y.mul_(2)
"""),
    Example("000", "§1 the pure program y.mul_(2) stands for", """\
x = torch.randn(8, requires_grad=True)
y = x ** 2
y2 = y * 2
# 假设 y 没有其他别名，现在将所有对 y 的使用替换为 y2
"""),
    Example("000", "§2 aliasing a base tensor: v = y[0]; v.mul_(2)", """\
x = torch.randn((8, 8), requires_grad=True)
y = x ** 2
v = y[0]
v.mul_(2)
"""),
    Example("000", "§3 several aliases: v1 = y[0,:], v2 = y[:,0]", """\
x = torch.randn((8, 8), requires_grad=True)
y = x ** 2
v1 = y[0,:]
v2 = y[:,0]
v1.mul_(2)
"""),
]

# --------------------------------------------------------------------------------------
# seed 001: PyTorch Autograd引擎的动态图追踪 (V-P graph, propagation, memory)
# --------------------------------------------------------------------------------------
_S001 = [
    Example("001", "§1 a dynamic graph: out = (3 * (x + 2) ** 2).mean()", """\
import torch

x = torch.randn(2, 2, requires_grad=True) #requires_grad=True 表示需要计算梯度
y = x + 2
z = y * y * 3
out = z.mean()
print(out)
"""),
    Example("001", "§2 the V-P graph: grad_fn of x, y, z, out", """\
import torch

x = torch.randn(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()

print("x.grad_fn:", x.grad_fn)  # x是叶子节点，grad_fn为None
print("y.grad_fn:", y.grad_fn)  # y由AddBackward创建
print("z.grad_fn:", z.grad_fn)  # z由MulBackward创建
print("out.grad_fn:", out.grad_fn) # out 由MeanBackward创建
"""),
    Example("001", "§3 backward and .grad", """\
import torch

x = torch.randn(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()

out.backward()  # 开始反向传播

print("x.grad:", x.grad)  # 查看x的梯度
print("y.grad:", y.grad)  # 查看y的梯度 (y.grad 默认是None,backward传播不会计算中间tensor的梯度,除非创建时就设置requires_grad=True)
"""),  # noqa: E501
    Example("001", "§4.1 gradient accumulation (nn.Linear, MSELoss, optim.SGD)", """\
import torch
import torch.nn as nn
import torch.optim as optim

# 假设有一个简单的模型
class SimpleModel(nn.Module):
    def __init__(self):
        super(SimpleModel, self).__init__()
        self.linear = nn.Linear(10, 1)

    def forward(self, x):
        return self.linear(x)

model = SimpleModel()
optimizer = optim.SGD(model.parameters(), lr=0.01)
criterion = nn.MSELoss()

# 假设有64个样本，但我们想使用更大的有效批量大小（例如256）
effective_batch_size = 256
input_size = 10
num_samples = 64

# 模拟数据加载器
def data_loader(num_samples, input_size):
  for i in range(num_samples):
    yield torch.randn(1, input_size), torch.randn(1, 1) # 每次返回一个样本

data_gen = data_loader(num_samples, input_size)

# 梯度累积的步骤数
accumulation_steps = effective_batch_size // num_samples if effective_batch_size > num_samples else 1

# 训练循环
model.train()
optimizer.zero_grad() # 初始时清零梯度
for i in range(num_samples):
    input, target = next(data_gen)

    # 前向传播
    output = model(input)
    loss = criterion(output, target)

    # 反向传播
    loss.backward()

    # 梯度累积
    if (i + 1) % accumulation_steps == 0:
        # 更新模型参数
        optimizer.step()
        optimizer.zero_grad() # 清零梯度
"""),  # noqa: E501
    Example("001", "§4.2 an in-place operation: y.add_(1)", """\
import torch

x = torch.randn(2, 2, requires_grad=True)
y = x + 2
y.add_(1) #原地操作
z = y * y * 3
out = z.mean()

out.backward() # 可能会报错
print(x.grad)
"""),
    Example("001", "§4.3 keeping a non-leaf gradient: retain_grad()", """\
import torch

x = torch.randn(2, 2, requires_grad=True)
y = x + 2
y.retain_grad() # 保留y的梯度
z = y * y * 3
out = z.mean()

out.backward()

print("y.grad:", y.grad) # 现在可以访问y的梯度了
"""),
    Example("001", "§4.4 torch.no_grad() and torch.enable_grad()", """\
import torch

x = torch.randn(2, 2, requires_grad=True)

with torch.no_grad():
    y = x + 2 # 在这个上下文中，不会追踪y的梯度

z = y * y * 3 # 即使y参与了后续计算，也不会追踪梯度
out = z.mean()

# out.backward() # 会报错，因为out没有grad_fn
"""),
    Example("001", "§4.5 torch.autograd.grad()", """\
import torch

x = torch.randn(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()

# 计算out对x的梯度，但不会修改x.grad
grad_x = torch.autograd.grad(out, x)
print(grad_x[0])

# 也可以计算多个输出对多个输入的梯度
a = torch.randn(2, 2, requires_grad=True)
b = a * a
c = b.mean()
d = b.sum()

grads = torch.autograd.grad([c, d], [a])
print(grads[0])
"""),
]

# --------------------------------------------------------------------------------------
# seed 003: autograd 計算圖 (requires_grad propagation, grad_tensors, autograd.grad)
# --------------------------------------------------------------------------------------
_S003 = [
    Example("003", "例子: requires_grad propagates (a = x + z)", """\
x = torch.randn(5, 5)
y = torch.randn(5, 5)
z = torch.randn((5, 5), requires_grad=True)
a = x + z
print(a.requires_grad)
"""),
    Example("003", "grad_tensors: backward of a non-scalar output", """\
x = torch.ones(2,requires_grad=True)
z = x + 2
z.backward()
"""),
    Example("003", "grad_tensors: z.sum().backward()", """\
x = torch.ones(2,requires_grad=True)
z = x + 2
z.sum().backward()
print(x.grad)
"""),
    Example("003", "grad_tensors: z.backward(torch.ones_like(z))", """\
x = torch.ones(2,requires_grad=True)
z = x + 2
z.backward(torch.ones_like(z)) # grad_tensors需要與輸入tensor大小一致
print(x.grad)
"""),
    Example("003", "grad_tensors: torch.mm and retain_graph=True", """\
x = torch.tensor([2., 1.], requires_grad=True).view(1, 2)
y = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
z = torch.mm(x, y)
print(f"z:{z}")
z.backward(torch.Tensor([[1., 0]]), retain_graph=True)
print(f"x.grad: {x.grad}")
print(f"y.grad: {y.grad}")
"""),
    Example("003", "自動求導機制實例: accumulation and grad.zero_()", """\
t1 = torch.randn(3, 3, requires_grad=True) # 定義一個(gè)3×3的張量
print(t1)
t2 = t1.pow(2).sum() # 計(jì)算張量的所有分量的平方和
t2.backward() # 反向傳播
print(t1.grad) # 梯度是原始分量的2倍
t2 = t1.pow(2).sum() # 再次計(jì)算張量的所有分量的平方和
t2.backward() # 再次反向傳播
print(t1.grad) # 梯度累積
print(t1.grad.zero_()) # 單個(gè)張量清零梯度的方法
"""),
    Example("003", "梯度函數的使用: torch.autograd.grad", """\
t1 = torch.randn(3, 3, requires_grad=True)
print(t1)
t2 = t1.pow(2).sum() 
print(torch.autograd.grad(t2, t1)) 
"""),  # noqa: W291 (the seed's trailing spaces, kept verbatim)
]

# --------------------------------------------------------------------------------------
# seed 004: 自动微分 (symbolic vs numeric vs AD, forward/reverse mode, higher order)
# --------------------------------------------------------------------------------------
_S004 = [
    Example("004", "符号微分: SymPy", """\
import sympy as sp

x = sp.symbols("x")
function = sp.sin(x) * sp.exp(x)
derivative = sp.diff(function, x)
"""),
    Example("004", "框架实现: a minimal Tensor class (pure Python)", """\
class Tensor:
    def __mul__(self, other):
        output = Tensor(self.data * other.data)
        output.parents = (self, other)

        def backward(grad_output):
            self.accumulate_grad(grad_output * other.data)
            other.accumulate_grad(grad_output * self.data)

        output.backward_fn = backward
        return output
"""),
    Example("004", "PyTorch Autograd: one training step", """\
optimizer.zero_grad(set_to_none=True)

prediction = model(features)
loss = criterion(prediction, labels)
loss.backward()

optimizer.step()
"""),
    Example("004", "PyTorch Autograd: backward of a non-scalar with [0.5, 3.0]", """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x**2
y.backward(torch.tensor([0.5, 3.0]))
"""),
    Example("004", "高阶导数: create_graph=True", """\
x = torch.tensor(2.0, requires_grad=True)
y = x**3

first, = torch.autograd.grad(y, x, create_graph=True)
second, = torch.autograd.grad(first, x)
"""),
]

EXAMPLES: list[Example] = _S000 + _S001 + _S003 + _S004

# Set-up code that is ours, not the seed's: the seed's fragment uses names it never defines.
SETUP: dict[tuple[str, str], str] = {
    ("004", "PyTorch Autograd: one training step"): """\
import torch
import torch.nn as nn
import torch.optim as optim
model = nn.Linear(3, 1)
criterion = nn.MSELoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)
features = torch.randn(4, 3)
labels = torch.randn(4, 1)
""",
}

# Snippets that need a module other than torch; skipped (with a line saying so) without it.
REQUIRES: dict[tuple[str, str], str] = {
    ("004", "符号微分: SymPy"): "sympy",
}

# Snippets the seeds show raising (PyTorch raises there too).  Every other snippet runs
# cleanly on PyTorch: seed 001's ``y.add_(1)`` ("可能会报错", "may raise") does not raise,
# because nothing saved ``y`` for backward before it was modified.
EXPECTED_ERRORS: dict[str, str] = {
    "003: grad_tensors: backward of a non-scalar output": "RuntimeError",
}

def example_name(example: Example) -> str:
    """The name that selects an example in ``run_examples(names=...)``: ``"seed: title"``."""
    return f"{example.seed}: {example.title}"


def example_names() -> list[str]:
    return [example_name(e) for e in EXAMPLES]


# --------------------------------------------------------------------------------------
# Running a snippet with ``torch`` bound to the module under test
# --------------------------------------------------------------------------------------
def _make_builtins(torch_module) -> dict:
    """A copy of the builtins whose ``__import__`` maps ``torch`` to ``torch_module`` (and
    ``functorch`` to its ``functorch`` module).

    ``import torch`` binds the module; ``import torch.nn as nn`` imports
    ``<module>.nn`` (a real submodule import, so it works whether or not the package has
    already imported it) and lets Python's normal attribute lookup finish the job.
    """
    real_import = builtins.__import__
    base = torch_module.__name__

    def _import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            target = torch_module
            if name != "torch":
                target = importlib.import_module(base + name[len("torch"):])
            return target if fromlist else torch_module
        if level == 0 and name == "functorch" and base != "torch":
            # PyTorch's sibling package (its tutorials' ``import functorch as ft``)
            return importlib.import_module(base + ".functorch")
        return real_import(name, globals, locals, fromlist, level)

    namespace = dict(vars(builtins))
    namespace["__import__"] = _import
    return namespace


def _fresh_namespace(torch_module) -> dict:
    return {
        "__builtins__": _make_builtins(torch_module),
        "__name__": "__seed_example__",
        "torch": torch_module,
    }


def _describe(namespace, torch_module, out) -> None:
    """Print the graph of every tensor left in ``namespace`` with a grad_fn, and leaf grads."""
    tensor_type = getattr(torch_module, "Tensor", None)
    if not isinstance(tensor_type, type):
        return
    tensors = [(name, value) for name, value in namespace.items()
               if not name.startswith("__") and isinstance(value, tensor_type)]
    names_by_id = {}
    for name, value in tensors:
        names_by_id.setdefault(id(value), name)
    for name, value in tensors:
        grad_fn = value.grad_fn
        if grad_fn is not None:
            print(f"graph of {name}:", file=out)
            for line in graph_lines(grad_fn, names_by_id):
                print("  " + line, file=out)
    for name, value in tensors:
        if value.is_leaf and value.requires_grad and value.grad is not None:
            print(f"{name}.grad = {value.grad}", file=out)


def run_example(example: Example, torch_module, out=None,
                namespace=None) -> BaseException | None:
    """Run one snippet (with its set-up) and describe what it built.

    Returns the exception the snippet raised (after printing ``TypeName: message``), or
    None.  Never raises an ``Exception`` itself.  ``namespace``: a dict that receives the
    names the snippet left (to draw their graphs).
    """
    out = sys.stdout if out is None else out
    key = (example.seed, example.title)
    required = REQUIRES.get(key)
    if required is not None and importlib.util.find_spec(required) is None:
        print(f"(skipped: needs {required}, which is not installed)", file=out)
        return None
    fresh = _fresh_namespace(torch_module)
    if namespace is None:
        namespace = fresh
    else:
        namespace.update(fresh)
    error = None
    with contextlib.redirect_stdout(out):
        try:
            torch_module.manual_seed(0)
            setup = SETUP.get(key)
            if setup is not None:
                exec(compile(setup, f"<setup for seed {example.seed}>", "exec"), namespace)
            exec(compile(example.code, f"<seed {example.seed}>", "exec"), namespace)
        except Exception as e:  # noqa: BLE001 -- the run reports every snippet's outcome
            error = e
            print(f"{type(e).__name__}: {e}")
    try:
        _describe(namespace, torch_module, out)
    except Exception as e:  # noqa: BLE001
        print(f"(could not describe the graph: {type(e).__name__}: {e})", file=out)
        error = error or e
    return error


def run_examples(torch_module, out=None, names=None) -> dict[str, BaseException | None]:
    """Run the seed examples in order (all, or those whose name is in ``names``).

    Each is printed under a heading naming the seed and section.  Returns, per example
    name, the exception it raised or None.
    """
    out = sys.stdout if out is None else out
    wanted = None if names is None else set(names)
    results: dict[str, BaseException | None] = {}
    for example in EXAMPLES:
        name = example_name(example)
        if wanted is not None and name not in wanted:
            continue
        print(f"==== seed {example.seed} · {example.title} ====", file=out)
        if (example.seed, example.title) in SETUP:
            print("(with a set-up of ours that defines the names the fragment uses)", file=out)
        results[name] = run_example(example, torch_module, out)
        print(file=out)
    return results


def _slug(text: str) -> str:
    words = "".join(c if c.isascii() and c.isalnum() else " " for c in text.lower()).split()
    return "_".join(words)[:40].rstrip("_") or "example"


def draw_examples(directory, names=None, fmt="svg", out=None) -> list:
    """Write the graph of every seed example (run on autotensor) as pictures in
    ``directory``: ``*_graph.<fmt>`` (``viz.make_dot`` of every tensor with a grad_fn the
    snippet left, leaves named) and ``*_fwd_bwd.<fmt>`` (the forward ops beside the
    backward graph, seed 000's picture, from ``viz.trace``). Without the Graphviz ``dot``
    program (or the graphviz package) the DOT text is written instead (``.dot``).
    Returns the paths written."""
    import io
    import os
    import shutil
    import warnings

    import autotensor
    from autotensor import viz
    out = sys.stdout if out is None else out
    os.makedirs(directory, exist_ok=True)
    can_render = (importlib.util.find_spec("graphviz") is not None
                  and shutil.which("dot") is not None)
    if not can_render:
        print("(Graphviz is missing: writing .dot files; `pip install graphviz` and the "
              "`dot` program, e.g. `apt-get install graphviz`, render them)", file=out)
    wanted = None if names is None else set(names)
    written = []
    counters: dict = {}
    for example in EXAMPLES:
        counters[example.seed] = counters.get(example.seed, 0) + 1
        name = example_name(example)
        if wanted is not None and name not in wanted:
            continue
        ns: dict = {}
        with viz.trace() as tr, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the snippets' own warnings: the run shows them
            run_example(example, autotensor, out=io.StringIO(), namespace=ns)
        tensors = {k: v for k, v in ns.items()
                   if not k.startswith("__") and isinstance(v, autotensor.Tensor)}
        outputs = tuple(dict.fromkeys(v for v in tensors.values() if v.grad_fn is not None))
        if not outputs:
            print(f"{name}: no tensor with a graph to draw", file=out)
            continue
        params = {k: v for k, v in tensors.items() if v.is_leaf and v.requires_grad}
        model = ns.get("model")
        if hasattr(model, "named_parameters"):
            params.update(dict(model.named_parameters()))
        stem = os.path.join(directory, f"seed{example.seed}_{counters[example.seed]:02d}_"
                                       f"{_slug(example.title)}")
        pictures = {"graph": viz.make_dot(outputs[0] if len(outputs) == 1 else outputs,
                                          params=params),
                    "fwd_bwd": tr.make_dot(*outputs, names={**tensors, **params})}
        for kind, g in pictures.items():
            if can_render:
                path = g.render(f"{stem}_{kind}", format=fmt, cleanup=True)
            else:
                path = f"{stem}_{kind}.dot"
                with open(path, "w", encoding="utf-8") as f:
                    f.write(viz.dot_source(g))
            written.append(path)
            print(f"{name}: {path}", file=out)
    return written


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--draw" in argv:
        i = argv.index("--draw")
        if i + 1 >= len(argv):
            print("usage: python -m autotensor.examples.seeds --draw DIR [--png]")
            return 2
        paths = draw_examples(argv[i + 1], fmt="png" if "--png" in argv else "svg")
        print(f"{len(paths)} pictures written to {argv[i + 1]}")
        return 0
    module_name = "torch" if "--torch" in argv else "autotensor"
    torch_module = importlib.import_module(module_name)
    results = run_examples(torch_module)
    failed = [name for name, err in results.items()
              if err is not None and EXPECTED_ERRORS.get(name) != type(err).__name__]
    raised = [name for name, err in results.items() if err is not None and name not in failed]
    print(f"{len(results)} examples run with {module_name}: "
          f"{len(raised)} raised as the seeds show, {len(failed)} failed.")
    for name in failed:
        print(f"  failed: {name}: {type(results[name]).__name__}: {results[name]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
