"""The notebook picture of a game: an SVG of the board."""

import xml.etree.ElementTree as ET

from othello import Game

SVG = "{http://www.w3.org/2000/svg}"


def circles(svg: str, kind: str) -> "list[str]":
    root = ET.fromstring(svg)
    return [
        element.get("data-square", "")
        for element in root.iter(SVG + "circle")
        if kind in element.get("class", "").split()
    ]


def test_picture_shows_board_discs_moves_and_last_move() -> None:
    game = Game()
    game.play("d3")
    svg = game._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert root.get("width") == str(2 * 20 + 8 * 40)
    rect = next(root.iter(SVG + "rect"))
    assert rect.get("fill") == "#2e7d32"
    assert sorted(circles(svg, "black")) == ["d3", "d4", "d5", "e4"]
    assert circles(svg, "white") == ["e5"]
    assert circles(svg, "legal") == game.legal_moves()
    assert circles(svg, "last") == ["d3"]
    labels = [text.text for text in root.iter(SVG + "text")]
    assert labels[:8] == list("abcdefgh") and labels[8:] == [str(n) for n in range(1, 9)]


def test_picture_of_a_new_and_a_large_board() -> None:
    svg = Game(16, 10)._repr_svg_()
    root = ET.fromstring(svg)
    assert root.get("height") == str(2 * 20 + 16 * 40)
    assert circles(svg, "last") == []
    assert len(circles(svg, "disc")) == 4
