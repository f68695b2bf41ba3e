"""The tablet's side of café content from the floor: fetch what the retained manifest names (each file by its
SHA-256, from its retained blob topic), check every hash, let the content loader validate the files over
this tablet's own content, then apply them at the next table turnover (never under a game in progress).
A file that fails is refused with the loader's message, reported to the floor page.

The report (retained, `tablehost/table/<id>/content`): {"hash", "state": waiting|applied|refused, "message"}."""

from __future__ import annotations

import logging
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.floor import cases, topics

log = logging.getLogger(__name__)


class ContentSync:
    def __init__(self, data_dir: Path, table: str, publish: Callable[..., None],
                 subscribe: Callable[[str], None], unsubscribe: Callable[[str], None],
                 applied: Callable[[], str], set_applied: Callable[[str], None]) -> None:
        self.data_dir = data_dir
        self.blobs = data_dir / "floor" / "blobs"
        self.blobs.mkdir(parents=True, exist_ok=True)
        self.table = table
        self.publish = publish
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
        self.applied = applied  # the manifest hash this tablet runs
        self.set_applied = set_applied
        self.manifest: dict[str, Any] | None = None
        self.pending: dict[str, Any] | None = None  # validated, waiting for the turnover
        self.refused = ""
        self._wanted: dict[str, str] = {}  # sha256 → blob topic subscribed
        self._lock = threading.RLock()

    # ------------------------------------------------------------ from the broker (worker thread)
    def on_manifest(self, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("items"), list) or not data.get("hash"):
            return
        with self._lock:
            if data["hash"] == self.applied() or (self.pending and self.pending["hash"] == data["hash"]):
                return
            self.manifest, self.pending, self.refused = data, None, ""
            for sha in self._files(data):
                if not (self.blobs / sha).exists() and sha not in self._wanted:
                    self._wanted[sha] = topics.blob(sha)
                    self.subscribe(self._wanted[sha])
            self._check()

    def on_blob(self, topic: str, payload: bytes) -> None:
        sha = topic.rsplit("/", 1)[-1]
        with self._lock:
            if sha not in self._wanted:
                return
            if cases.sha256(payload) != sha:
                log.error("floor content: blob %s does not match its hash; ignored", sha)
                return
            (self.blobs / sha).write_bytes(payload)
            self.unsubscribe(self._wanted.pop(sha))
            self._check()

    @staticmethod
    def _files(manifest: dict[str, Any]) -> dict[str, str]:
        out: dict[str, str] = {}
        for item in manifest["items"]:
            for f in item.get("files", []):
                out[str(f["sha256"])] = str(f["path"])
        return out

    def _check(self) -> None:
        m = self.manifest
        if m is None or self._wanted:
            return
        files = {path: (self.blobs / sha).read_bytes() for sha, path in self._files(m).items()}
        problems = cases.validate(files, base=self.data_dir)
        if problems:
            self.refused = "\n".join(problems)
            log.error("floor content %s refused: %s", m["hash"], self.refused)
            self._report(m["hash"], "refused", self.refused)
            self.manifest = None
            return
        self.pending = m
        self._report(m["hash"], "waiting")

    def _report(self, digest: str, state: str, message: str = "") -> None:
        self.publish(topics.content_report(self.table), {"hash": digest, "state": state, "message": message},
                     retain=True, key="content")

    # ------------------------------------------------------------ at the turnover (UI thread)
    def apply(self) -> bool:
        """Put the validated files in place; True when the library must be reloaded."""
        with self._lock:
            m = self.pending
            if m is None:
                return False
            for sha, path in self._files(m).items():
                target = self.data_dir / path
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.with_suffix(target.suffix + ".tmp")
                shutil.copyfile(self.blobs / sha, tmp)
                tmp.replace(target)
            self.pending = None
            self.set_applied(m["hash"])
            self._report(m["hash"], "applied")
            return True
