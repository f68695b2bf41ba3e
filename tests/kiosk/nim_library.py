"""A content library holding only the tests' reference engine, for journal and session tests."""

from __future__ import annotations

import engines
from content.loader import Branch, Branches, Game, GameInfo, Library, Text
from tests.engines import reference

engines.register(reference.ENGINE)


def nim_library() -> Library:
    info = GameInfo(name=Text("비밀 님", "Secret Nim"), players=(2, 3), minutes=(5, 10), pitch=Text("시험용", "test"),
                    engine="secret_nim")
    game = Game("secret_nim", info, {}, "hash0", ())
    return Library({"secret_nim": game}, Branches((Branch("main", Text("본점")),), "main"), [])
