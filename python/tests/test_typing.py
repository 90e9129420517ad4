"""The stubs and py.typed marker let mypy --strict check code that uses the package."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def test_mypy_strict_accepts_typed_usage() -> None:
    if shutil.which("mypy") is None and subprocess.run(
        [sys.executable, "-m", "mypy", "--version"], capture_output=True
    ).returncode != 0:
        pytest.skip("mypy is not installed")
    usage = Path(__file__).with_name("typing_usage.py")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(usage)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_public_name_has_a_docstring() -> None:
    import Othello
    import othello

    for module in (othello, Othello):
        for name in module.__all__:
            value = getattr(module, name)
            assert value.__doc__, f"{module.__name__}.{name}"
            for attribute, member in vars(value).items() if isinstance(value, type) else []:
                if not attribute.startswith("_") or attribute in ("__init__",):
                    if callable(member) or isinstance(member, property):
                        assert getattr(member, "__doc__", None), f"{name}.{attribute}"
