"""What staff should know after damage was found and handled (a journal moved aside, a lost -wal file, a
read-only data folder, a damaged settings file): shown on the staff screen, written to the log. Kivy-free;
the text comes from the i18n catalogs (content/i18n/*/damage.yaml, key "damage.<key>")."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Notice:
    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.key} {dict(self.params)}"


def add(notices: list[Notice] | None, key: str, **params: Any) -> Notice:
    notice = Notice(key, params)
    log.error("damage: %s", notice)
    if notices is not None:
        notices.append(notice)
    return notice
