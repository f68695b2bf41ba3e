"""YAML reading that remembers the line of every value, so validation errors can name it."""

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


def read_yaml(path: Path) -> LinedYaml:
    """Parse a YAML file; raises yaml.YAMLError (with a mark) on syntax errors."""
    text = path.read_text(encoding="utf-8")
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return LinedYaml(None, {(): 1})
        data = loader.construct_document(node)
    finally:
        loader.dispose()
    lines: dict[DataPath, int] = {}
    _walk(node, (), lines)
    return LinedYaml(data, lines)


def _walk(node: yaml.Node, path: DataPath, lines: dict[DataPath, int]) -> None:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            k = key.value
            child = path + (k,)
            lines[child] = key.start_mark.line + 1
            _walk(value, child, lines)
            lines[child] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            _walk(value, path + (i,), lines)
