"""YAML reading that remembers the line of every value, so validation errors can name it.

A café's overlay is untrusted input: a file is read only up to MAX_BYTES, and its node graph (aliases
expanded) only up to MAX_NODES values and MAX_DEPTH levels, so a 1 KB alias bomb is refused with a
clear message instead of running the loader out of memory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from engines.serial import Path as DataPath


class LinedYaml:
    """Parsed data plus a map from data path to 1-based line."""

    def __init__(self, data: Any, lines: dict[DataPath, int]) -> None:
        self.data = data
        self.lines = lines

    def line_of(self, path: DataPath) -> int:
        """The line of the deepest known prefix of `path`."""
        for n in range(len(path), -1, -1):
            line = self.lines.get(tuple(path[:n]))
            if line is not None:
                return line
        return 1


Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when the wheel has it
MAX_BYTES = 1_000_000  # the largest shipped file is ~23 KB
MAX_NODES = 200_000  # values after alias expansion (the largest shipped file has ~3,000)
MAX_DEPTH = 60


class YamlLimitError(yaml.YAMLError):  # type: ignore[misc]  # yaml: no stubs installed
    """The file is too big, too deep or expands (through aliases) to too many values."""

    def __init__(self, problem: str, line: int = 1) -> None:
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = yaml.Mark("", 0, line - 1, 0, None, None)


def read_yaml(path: Path) -> LinedYaml:
    """Parse a YAML file; raises yaml.YAMLError (with a mark) on syntax errors and on YamlLimitError."""
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise YamlLimitError(f"file too large: {size:,} bytes (limit {MAX_BYTES:,})")
    text = path.read_text(encoding="utf-8")
    _check_events(text)  # libyaml's composer recurses in C: 100,000 nested "[" (200 KB) segfault it
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return LinedYaml(None, {(): 1})
        lines: dict[DataPath, int] = {}
        _walk(node, (), lines, [0])
        data = loader.construct_document(node)
    finally:
        loader.dispose()
    return LinedYaml(data, lines)


def _check_events(text: str) -> None:
    """Depth and expanded size from the event stream (the parser keeps its own stack: no recursion)."""
    loader = Loader(text)
    expanded = 0
    anchors: dict[str, int] = {}  # anchor → values in its subtree
    open_at: list[tuple[str | None, int]] = []  # per open collection: its anchor, `expanded` when it opened
    try:
        while loader.check_event():
            event = loader.get_event()
            line = event.start_mark.line + 1
            if isinstance(event, yaml.AliasEvent):
                expanded += anchors.get(event.anchor or "", 1)
            elif isinstance(event, yaml.ScalarEvent):
                expanded += 1
                if event.anchor:
                    anchors[event.anchor] = 1
            elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                open_at.append((event.anchor, expanded))
                expanded += 1
                if len(open_at) > MAX_DEPTH:
                    raise YamlLimitError(f"nested more than {MAX_DEPTH} levels deep", line)
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)) and open_at:
                anchor, start = open_at.pop()
                if anchor:
                    anchors[anchor] = expanded - start
            if expanded > MAX_NODES:
                raise YamlLimitError(f"more than {MAX_NODES:,} values once aliases (*name) are expanded: "
                                     "an alias bomb or a runaway file", line)
    finally:
        loader.dispose()


def _walk(node: yaml.Node, path: DataPath, lines: dict[DataPath, int], count: list[int]) -> None:
    line = node.start_mark.line + 1
    count[0] += 1
    if count[0] > MAX_NODES:
        raise YamlLimitError(f"more than {MAX_NODES:,} values once aliases (*name) are expanded: "
                             "an alias bomb or a runaway file", line)
    if len(path) > MAX_DEPTH:
        raise YamlLimitError(f"nested more than {MAX_DEPTH} levels deep", line)
    lines[path] = line
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                raise YamlLimitError("a key must be a plain value, not a list or a mapping", key.start_mark.line + 1)
            child = path + (key.value,)
            _walk(value, child, lines, count)
            lines[child] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            _walk(value, path + (i,), lines, count)
