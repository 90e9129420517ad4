"""The README's Python examples are real sessions: its ```pycon blocks run as doctests, in
order, in one namespace (as one interpreter session would)."""

import doctest
import re
from typing import Any, Dict, List

from conftest import REPO

BLOCKS = re.findall(r"```pycon\n(.*?)```", (REPO / "README.md").read_text(), re.S)


def test_the_readme_python_examples_match_real_output() -> None:
    assert len(BLOCKS) >= 4
    namespace: Dict[str, Any] = {}
    report: List[str] = []
    session = "\n".join(BLOCKS)
    test = doctest.DocTestParser().get_doctest(session, namespace, "README", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    results = runner.run(test, out=report.append)
    assert results.attempted > 20
    assert results.failed == 0, "".join(report)


def test_the_modules_docstring_examples() -> None:
    import Othello
    import othello

    for module in (othello, Othello):
        results = doctest.testmod(module)
        assert results.attempted > 0 and results.failed == 0, module.__name__
