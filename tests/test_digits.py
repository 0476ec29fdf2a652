"""The main job (``python -m autotensor.examples.digits``): a quick run writes its weights
and plot and follows PyTorch's loss curve; the full run (opt-in, about a minute on two
cores: AUTOTENSOR_SLOW=1) reaches 97% test accuracy."""
import os

import numpy as np
import pytest

import autotensor

pytest.importorskip("sklearn")
pytest.importorskip("matplotlib")
from autotensor.examples import digits  # noqa: E402


def test_quick_run_writes_weights_plot_and_summary(tmp_path, capsys):
    pytest.importorskip("tqdm")
    history = digits.main(["--epochs", "2", "--max-batches", "3", "--out", str(tmp_path),
                           "--no-progress"])
    assert len(history["step_loss"]) == 6 and len(history["test_acc"]) == 2
    assert all(np.isfinite(history["step_loss"]))
    out = capsys.readouterr().out
    assert "test accuracy:" in out and "parameters:     " in out
    state = autotensor.load(os.path.join(tmp_path, "digits_cnn.pt"))
    model = digits.build_model(autotensor)
    assert repr(model.load_state_dict(state)) == "<All keys matched successfully>"
    png = tmp_path / "digits_training.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_quick_run_follows_torch():
    torch = pytest.importorskip("torch")
    data = digits.load_digits()
    kw = dict(epochs=1, max_batches=4, progress=False)
    ours, _ = digits.train(autotensor, data, **kw)
    theirs, _ = digits.train(torch, data, **kw)
    np.testing.assert_allclose(ours["step_loss"], theirs["step_loss"], rtol=1e-5)
    assert ours["test_acc"] == theirs["test_acc"]


def test_saved_weights_load_in_torch(tmp_path):
    torch = pytest.importorskip("torch")
    autotensor.manual_seed(0)
    model = digits.build_model(autotensor)
    path = digits.save_weights(model, str(tmp_path))[0]
    torch.manual_seed(0)
    tmodel = digits.build_model(torch)
    tmodel.load_state_dict(torch.load(path))
    for k, v in tmodel.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), model.state_dict()[k].numpy())


@pytest.mark.skipif(not os.environ.get("AUTOTENSOR_SLOW"),
                    reason="the full training run takes about a minute: AUTOTENSOR_SLOW=1")
def test_full_run_reaches_97_percent(tmp_path):
    history = digits.main(["--out", str(tmp_path), "--no-progress"])
    assert history["test_acc"][-1] >= 0.97


def test_checkpointing_gives_the_same_steps_and_follows_torch():
    torch = pytest.importorskip("torch")
    data = digits.load_digits()
    kw = dict(epochs=1, max_batches=3, progress=False)
    plain, _ = digits.train(autotensor, data, **kw)
    ours, _ = digits.train(autotensor, data, checkpointing=True, **kw)
    theirs, _ = digits.train(torch, data, checkpointing=True, **kw)
    assert ours["step_loss"] == plain["step_loss"]     # recomputation changes no gradient
    np.testing.assert_allclose(ours["step_loss"], theirs["step_loss"], rtol=1e-5)
    assert ours["test_acc"] == theirs["test_acc"]
