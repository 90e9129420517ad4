"""The stubs and py.typed marker let mypy --strict check code that uses the package."""

import subprocess
import sys
from pathlib import Path


def test_mypy_strict_accepts_typed_usage() -> None:
    usage = Path(__file__).with_name("typing_usage.py")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(usage)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_public_name_has_a_docstring() -> None:
    import inspect

    import Othello
    import othello

    for module in (othello, Othello):
        assert module.__doc__
        for name in module.__all__:
            value = getattr(module, name)
            assert value.__doc__, f"{module.__name__}.{name}"
            if not isinstance(value, type):
                continue
            for attribute, member in vars(value).items():
                private = attribute.startswith("_") and not attribute.startswith("__")
                if private and attribute != "_repr_svg_":
                    continue
                if attribute in ("__module__", "__dict__", "__weakref__", "__hash__"):
                    continue
                if callable(member) or inspect.isdatadescriptor(member):
                    assert getattr(member, "__doc__", None), f"{name}.{attribute}"
