"""The main job: train a small CNN on scikit-learn's 8x8 handwritten digits.

    pip install -e ".[demo]" && python -m autotensor.examples.digits
    python -m autotensor.examples.digits --epochs 20 --optimizer sgd --compare-torch

The data ship with scikit-learn (1,797 images, no download). A fixed split keeps 360
images for testing. The network -- Conv2d, BatchNorm2d, ReLU, MaxPool2d twice, then
Dropout and Linear -- trains with Adam (or SGD/AdamW) and a OneCycle learning-rate
schedule from a DataLoader that shuffles with the default generator. The program shows a
tqdm progress bar with the running loss and accuracy, then saves the weights (``save``, and
``.safetensors`` when the package is installed), writes a loss/accuracy plot (PNG) and
prints a summary.

The very same function trains the PyTorch model with ``--compare-torch``: the code below
only ever says ``m.nn``, ``m.optim``, ``m.utils.data`` for a library ``m``. Our random
numbers are PyTorch's, so both runs start from the same weights, see the same batches and
drop the same units; their loss curves agree to float32 rounding.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

import autotensor

SPLIT_SEED = 0          # the fixed train/test split
N_TEST = 360


def need(module, extra="demo"):
    """Import an optional package or exit with the extra that installs it."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError:
        sys.exit(f"autotensor.examples.digits needs {module}: "
                 f'pip install -e ".[{extra}]"  (or pip install {module})')


def load_digits():
    """Images scaled to [0, 1], as float32 (N, 1, 8, 8), and int64 labels; a fixed split."""
    datasets = need("sklearn.datasets")
    d = datasets.load_digits()
    x = (d.images / 16.0).astype(np.float32)[:, None]
    y = d.target.astype(np.int64)
    order = np.random.RandomState(SPLIT_SEED).permutation(len(y))
    test, train = order[:N_TEST], order[N_TEST:]
    return (x[train], y[train]), (x[test], y[test])


def build_model(m):
    nn = m.nn
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(0.25), nn.Linear(32 * 2 * 2, 10))


def make_optimizer(m, name, params, lr):
    if name == "adam":
        return m.optim.Adam(params, lr=lr)
    if name == "adamw":
        return m.optim.AdamW(params, lr=lr, weight_decay=1e-2)
    if name == "sgd":
        return m.optim.SGD(params, lr=lr, momentum=0.9, nesterov=True)
    raise ValueError(f"unknown optimizer {name!r}")


def evaluate(m, model, x, y, batch_size=512):
    model.eval()
    correct, total_loss = 0, 0.0
    with m.no_grad():
        for i in range(0, len(x), batch_size):
            xb, yb = x[i:i + batch_size], y[i:i + batch_size]
            out = model(xb)
            total_loss += float(m.nn.functional.cross_entropy(out, yb, reduction="sum"))
            correct += int((out.argmax(1) == yb).sum())
    model.train()
    return total_loss / len(x), correct / len(x)


def train(m, data, epochs=12, batch_size=64, lr=None, optimizer="adam", seed=0,
          max_batches=None, progress=True, label="autotensor", checkpointing=False,
          compile=False):
    """Train on library ``m`` (autotensor or torch); returns the history and the model.
    ``checkpointing``: the forward runs as two checkpointed segments
    (``utils.checkpoint.checkpoint_sequential``, non-reentrant): activations inside a
    segment are recomputed in backward instead of kept (the same gradients; batch norm's
    running statistics see each batch twice, as in PyTorch). ``compile``: calls go through
    ``m.compile(model)`` (the same results, bit for bit)."""
    (xtr, ytr), (xte, yte) = data
    m.manual_seed(seed)
    model = build_model(m)
    run = m.compile(model) if compile else model
    xtr_t, ytr_t = m.tensor(xtr), m.tensor(ytr)
    xte_t, yte_t = m.tensor(xte), m.tensor(yte)
    loader = m.utils.data.DataLoader(m.utils.data.TensorDataset(xtr_t, ytr_t),
                                     batch_size=batch_size, shuffle=True)
    if lr is None:
        lr = 0.1 if optimizer == "sgd" else 0.01
    opt = make_optimizer(m, optimizer, model.parameters(), lr)
    steps = len(loader) if max_batches is None else min(max_batches, len(loader))
    sched = m.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, epochs=epochs,
                                            steps_per_epoch=steps)
    loss_fn = m.nn.CrossEntropyLoss()
    history = {"step_loss": [], "train_loss": [], "train_acc": [], "test_loss": [],
               "test_acc": [], "lr": []}
    bar = None
    if progress:
        tqdm = need("tqdm").tqdm
        bar = tqdm(total=epochs * steps, desc=f"{label} digits", unit="batch",
                   dynamic_ncols=True, leave=True)
    for _epoch in range(epochs):
        seen = correct = 0
        running = 0.0
        for i, (xb, yb) in enumerate(loader):
            if i >= steps:
                break
            if checkpointing:
                out = m.utils.checkpoint.checkpoint_sequential(model, 2, xb,
                                                               use_reentrant=False)
            else:
                out = run(xb)
            loss = loss_fn(out, yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            lv = loss.item()
            history["step_loss"].append(lv)
            n = len(yb)
            seen += n
            running += lv * n
            correct += int((out.argmax(1) == yb).sum())
            if bar is not None:
                bar.update(1)
                bar.set_postfix(loss=f"{running / seen:.4f}", acc=f"{correct / seen:.3f}")
        test_loss, test_acc = evaluate(m, run, xte_t, yte_t)
        history["train_loss"].append(running / seen)
        history["train_acc"].append(correct / seen)
        history["test_loss"].append(test_loss)
        history["test_acc"].append(test_acc)
        history["lr"].append(sched.get_last_lr()[0])
        if bar is not None:
            bar.set_postfix(loss=f"{running / seen:.4f}", acc=f"{correct / seen:.3f}",
                            test_acc=f"{test_acc:.3f}")
    if bar is not None:
        bar.close()
    return history, model


def save_weights(model, out_dir):
    """Our ``save`` (PyTorch's zip format: ``torch.load`` reads it), and ``.safetensors``
    when the safetensors package is installed."""
    state = model.state_dict()
    path = os.path.join(out_dir, "digits_cnn.pt")
    autotensor.save(state, path)
    paths = [path]
    try:
        from autotensor.safetensors import save_file
        st = os.path.join(out_dir, "digits_cnn.safetensors")
        save_file(state, st)
        paths.append(st)
    except ImportError:
        pass
    return paths


def plot(history, path, torch_history=None):
    """Training loss per step and train/test accuracy per epoch, side by side."""
    matplotlib = need("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.plot(history["step_loss"], lw=1, label="autotensor (per batch)")
    if torch_history is not None:
        ax1.plot(torch_history["step_loss"], lw=1, ls="--", label="PyTorch (per batch)")
    steps_per_epoch = len(history["step_loss"]) / max(1, len(history["train_loss"]))
    epochs_x = [(i + 1) * steps_per_epoch for i in range(len(history["test_loss"]))]
    ax1.plot(epochs_x, history["test_loss"], "o-", label="test (per epoch)")
    ax1.set_yscale("log")
    ax1.set_xlabel("batch")
    ax1.set_ylabel("cross-entropy loss")
    ax1.set_title("loss")
    ax1.legend()
    ep = range(1, len(history["train_acc"]) + 1)
    ax2.plot(ep, history["train_acc"], "o-", label="train")
    ax2.plot(ep, history["test_acc"], "s-", label="test")
    if torch_history is not None:
        ax2.plot(ep, torch_history["test_acc"], "x--", label="test (PyTorch)")
    lowest = min(history["train_acc"] + history["test_acc"])
    ax2.set_ylim(max(0.0, min(0.9, lowest) - 0.02), 1.005)
    ax2.set_xlabel("epoch")
    ax2.set_ylabel("accuracy")
    ax2.set_title(f"test accuracy {history['test_acc'][-1]:.1%}")
    ax2.grid(alpha=0.3)
    ax2.legend()
    fig.suptitle("autotensor: CNN on scikit-learn's 8x8 digits")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def compare_curves(ours, theirs):
    lines = ["epoch  autotensor loss   PyTorch loss    |diff|     autotensor acc  "
             "PyTorch acc"]
    for i, (a, b) in enumerate(zip(ours["train_loss"], theirs["train_loss"])):
        lines.append(f"{i + 1:5d}  {a:15.7f}  {b:13.7f}  {abs(a - b):9.2e}  "
                     f"{ours['test_acc'][i]:14.4f}  {theirs['test_acc'][i]:11.4f}")
    steps = np.abs(np.array(ours["step_loss"]) - np.array(theirs["step_loss"]))
    lines.append(f"largest per-batch loss difference: {steps.max():.2e} "
                 f"(relative {(steps / np.abs(theirs['step_loss'])).max():.2e})")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m autotensor.examples.digits",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--optimizer", choices=["adam", "adamw", "sgd"], default="adam")
    p.add_argument("--lr", type=float, default=None,
                   help="peak learning rate (default 0.01; 0.1 for sgd)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="digits_output", help="directory for weights and plot")
    p.add_argument("--compare-torch", action="store_true",
                   help="run the same training on PyTorch and print both loss curves")
    p.add_argument("--max-batches", type=int, default=None,
                   help="batches per epoch (a quick run)")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--checkpointing", action="store_true",
                   help="recompute activations in backward (utils.checkpoint)")
    p.add_argument("--compile", action="store_true",
                   help="run the model through autotensor.compile (training falls back to "
                        "eager: dropout draws random numbers)")
    args = p.parse_args(argv)

    data = load_digits()
    os.makedirs(args.out, exist_ok=True)
    kw = dict(epochs=args.epochs, batch_size=args.batch_size, lr=args.lr,
              optimizer=args.optimizer, seed=args.seed, max_batches=args.max_batches,
              progress=not args.no_progress, checkpointing=args.checkpointing)
    start = time.perf_counter()
    history, model = train(autotensor, data, compile=args.compile, **kw)
    seconds = time.perf_counter() - start
    torch_history = torch_seconds = None
    if args.compare_torch:
        try:
            import torch
        except ImportError:
            sys.exit("--compare-torch needs PyTorch installed")
        torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
        start = time.perf_counter()
        torch_history, _ = train(torch, data, label="PyTorch", **kw)
        torch_seconds = time.perf_counter() - start
    weights = save_weights(model, args.out)
    png = plot(history, os.path.join(args.out, "digits_training.png"), torch_history)
    n_params = sum(p.numel() for p in model.parameters())
    (_, _), (xte, _) = data
    print()
    print(model)
    print(f"parameters:     {n_params:,}")
    print(f"train images:   {len(data[0][1])}, test images: {len(xte)} (fixed split)")
    print(f"optimizer:      {args.optimizer}, OneCycleLR, batch size {args.batch_size}, "
          f"{args.epochs} epochs, seed {args.seed}")
    print(f"test accuracy:  {history['test_acc'][-1]:.2%} "
          f"(test loss {history['test_loss'][-1]:.4f})")
    print(f"training time:  {seconds:.1f} s")
    print(f"weights:        {', '.join(weights)}")
    print(f"plot:           {png}")
    if torch_history is not None:
        print(f"PyTorch:        test accuracy {torch_history['test_acc'][-1]:.2%}, "
              f"{torch_seconds:.1f} s")
        print(compare_curves(history, torch_history))
    return history


if __name__ == "__main__":
    main()
