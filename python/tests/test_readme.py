"""The documentation's Python examples are real sessions: the ```pycon blocks of a page run as
doctests, in order, in one namespace (as one interpreter session would). docs/python.md holds
the package's examples; the README has a short one of its own."""

import doctest
import re
from pathlib import Path
from typing import Any, Dict, List

import pytest

from conftest import REPO

# Each page, with the least number of blocks and of examples it holds: a page that lost its
# examples (or a pattern that no longer finds them) fails rather than passing on nothing.
PAGES = [
    (REPO / "README.md", 1, 5),
    (REPO / "docs" / "python.md", 5, 31),
]


def blocks(page: Path) -> List[str]:
    return re.findall(r"```pycon\n(.*?)```", page.read_text(), re.S)


@pytest.mark.parametrize(
    "page, least_blocks, least_examples", PAGES, ids=[page.name for page, _, _ in PAGES]
)
def test_the_documented_python_examples_match_real_output(
    page: Path, least_blocks: int, least_examples: int
) -> None:
    found = blocks(page)
    assert len(found) >= least_blocks, page
    namespace: Dict[str, Any] = {}
    report: List[str] = []
    session = "\n".join(found)
    test = doctest.DocTestParser().get_doctest(session, namespace, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    results = runner.run(test, out=report.append)
    assert results.attempted >= least_examples, page
    assert results.failed == 0, "".join(report)


def test_the_modules_docstring_examples() -> None:
    import Othello
    import othello

    for module in (othello, Othello):
        results = doctest.testmod(module)
        assert results.attempted > 0 and results.failed == 0, module.__name__
