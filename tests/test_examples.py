"""The programs in examples/ run and do what they say."""
import pathlib
import runpy

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_regression_example_fits_the_curve(capsys):
    runpy.run_path(str(ROOT / "examples" / "regression.py"), run_name="__main__")
    out = capsys.readouterr().out
    fit = float(out.split("distance to the true curve (mse):")[1].split()[0])
    assert fit < 0.05
