"""Typed conversion between frozen dataclasses and JSON-safe data.

One mechanism serves engine state (`to_dict`/`from_dict`), actions, and content files: `to_jsonable`
turns dataclasses, tuples, frozensets, enums and mappings into lists/dicts/str/int/float/bool/None;
`from_jsonable` rebuilds a value of a given type hint and reports problems with the path where they
occurred (the content loader maps that path to a file line).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Union

Path = tuple[str | int, ...]


class SchemaError(ValueError):
    """Data that does not fit the expected type; `path` says where."""

    def __init__(self, path: Path, problem: str) -> None:
        self.path = path
        self.problem = problem
        where = ".".join(str(p) for p in path) or "(top)"
        super().__init__(f"{where}: {problem}")


def to_jsonable(value: Any) -> Any:
    """Convert a value built from dataclasses, tuples, frozensets, enums and mappings to JSON-safe data."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        wire = _wire(type(value))
        if wire is not None:
            return wire(value)
        return {name: to_jsonable(getattr(value, name)) for name in field_names(type(value))}
    if isinstance(value, Mapping):
        return {_key_to_str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted((to_jsonable(v) for v in value), key=_sort_key)
    if isinstance(value, (tuple, list)):
        return [to_jsonable(v) for v in value]
    raise TypeError(f"cannot convert {type(value).__name__} to JSON")


def _key_to_str(key: Any) -> str:
    if isinstance(key, enum.Enum):
        key = key.value
    if isinstance(key, (bool, int, float)) and not isinstance(key, str):
        return str(key)
    if isinstance(key, str):
        return key
    raise TypeError(f"mapping key {key!r} is not a string or number")


def _sort_key(v: Any) -> tuple[str, str]:
    return (type(v).__name__, repr(v))


@cache
def field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, in order (asked once per class: views and states convert many objects)."""
    return tuple(f.name for f in dataclasses.fields(cls))


@cache
def _wire(cls: type) -> Callable[[Any], Any] | None:
    """A dataclass's own JSON (its `to_wire` method: a key some views leave out), else None: field by field."""
    method = getattr(cls, "to_wire", None)
    return method if callable(method) else None


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_jsonable(hint: Any, data: Any, path: Path = ()) -> Any:
    """Rebuild a value of type `hint` from JSON-safe `data`; raise SchemaError naming the path."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return _freeze(data)
    if origin is typing.Literal:
        if data not in args:
            raise SchemaError(path, f"must be one of {', '.join(map(repr, args))}, not {data!r}")
        return data
    if origin in (Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return from_jsonable(arg, data, path)
            except SchemaError as exc:
                errors.append(exc.problem)
        raise SchemaError(path, " / ".join(errors) or "unexpected value")
    if hint is type(None):
        if data is not None:
            raise SchemaError(path, "must be empty")
        return None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint, data, path)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(data)
        except ValueError:
            choices = ", ".join(repr(m.value) for m in hint)
            raise SchemaError(path, f"must be one of {choices}, not {data!r}") from None
    if hint is bool:
        if not isinstance(data, bool):
            raise SchemaError(path, f"must be true or false, not {data!r}")
        return data
    if hint is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise SchemaError(path, f"must be a whole number, not {data!r}")
        return data
    if hint is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise SchemaError(path, f"must be a number, not {data!r}")
        return float(data)
    if hint is str:
        if not isinstance(data, str):
            raise SchemaError(path, f"must be text, not {data!r}")
        return data
    if origin is tuple:
        if not isinstance(data, (list, tuple)):
            raise SchemaError(path, f"must be a list, not {type(data).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_jsonable(args[0], v, path + (i,)) for i, v in enumerate(data))
        if len(args) != len(data):
            raise SchemaError(path, f"must have {len(args)} items, not {len(data)}")
        return tuple(from_jsonable(a, v, path + (i,)) for i, (a, v) in enumerate(zip(args, data, strict=True)))
    if origin in (frozenset, set):
        if not isinstance(data, (list, tuple, set, frozenset)):
            raise SchemaError(path, f"must be a list, not {type(data).__name__}")
        return frozenset(from_jsonable(args[0], v, path + (i,)) for i, v in enumerate(data))
    if origin in (dict, Mapping, typing.Mapping) or hint is dict:
        if not isinstance(data, Mapping):
            raise SchemaError(path, f"must be a mapping, not {type(data).__name__}")
        kt, vt = args if args else (Any, Any)
        out = {}
        for k, v in data.items():
            key = _key_from_str(kt, k, path)
            out[key] = from_jsonable(vt, v, path + (str(k),))
        return types.MappingProxyType(out) if origin is Mapping else out
    raise SchemaError(path, f"unsupported type {hint!r}")


def _key_from_str(kt: Any, k: Any, path: Path) -> Any:
    if kt is int and isinstance(k, str):
        try:
            return int(k)
        except ValueError:
            raise SchemaError(path, f"key {k!r} must be a whole number") from None
    return from_jsonable(kt, k, path + (str(k),))


def _dataclass(cls: type, data: Any, path: Path) -> Any:
    if not isinstance(data, Mapping):
        raise SchemaError(path, f"must be a mapping (fields of {cls.__name__}), not {type(data).__name__}")
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    unknown = [k for k in data if k not in fields]
    if unknown:
        raise SchemaError(path + (str(unknown[0]),), f"unknown field (expected one of: {', '.join(fields)})")
    kwargs = {}
    for name, f in fields.items():
        if name in data:
            kwargs[name] = from_jsonable(hints[name], data[name], path + (name,))
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise SchemaError(path + (name,), "missing required field")
    try:
        return cls(**kwargs)
    except (ValueError, TypeError) as exc:
        raise SchemaError(path, str(exc)) from None


def _freeze(data: Any) -> Any:
    if isinstance(data, list):
        return tuple(_freeze(v) for v in data)
    if isinstance(data, dict):
        return types.MappingProxyType({k: _freeze(v) for k, v in data.items()})
    return data
