"""The README's Python examples are real sessions: each ```pycon block runs as a doctest."""

import doctest
import re

import pytest

from conftest import REPO

BLOCKS = re.findall(r"```pycon\n(.*?)```", (REPO / "README.md").read_text(), re.S)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_readme_example(number: int, capsys: pytest.CaptureFixture[str]) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(BLOCKS[number], {}, f"README block {number + 1}", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=print)
    report = capsys.readouterr().out
    assert result.failed == 0, report
    assert result.attempted > 0
