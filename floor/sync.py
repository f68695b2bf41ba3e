"""The tablet's side of café content from the floor: fetch what the retained manifest names (each file by its
SHA-256, from its retained parts `…/blob/<sha256>/<n>`), check every hash, let the content loader validate the files over
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

from floor import cases, schema, topics

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
        self.pending: dict[str, Any] | None = None  # validated items, waiting for the turnover
        self.refused = ""
        self._wanted: dict[str, int] = {}  # sha256 → its declared size, its parts subscribed
        self._parts: dict[str, dict[int, bytes]] = {}  # the parts of each wanted file received so far
        self._bad: set[str] = set()  # blobs that did not match their hash: each item using one is refused alone
        self._lock = threading.RLock()

    # ------------------------------------------------------------ from the broker (worker thread)
    def on_manifest(self, data: Any, size: int = 0) -> None:
        if not isinstance(data, dict) or not data.get("hash"):
            return
        with self._lock:
            if data["hash"] == self.applied() or (self.pending and self.pending["hash"] == data["hash"]):
                return
            self.manifest, self.pending, self.refused = None, None, ""
            self._bad.clear()  # a new manifest tries every blob again
            problem = cases.manifest_problem(data, size)
            wanted: dict[str, int] = {}
            if not problem:
                self.manifest = data
                for item in data["items"]:
                    if not cases.item_problem(item):
                        for f in item["files"]:
                            if not (self.blobs / f["sha256"]).exists() and f["sha256"] not in self._bad:
                                wanted[f["sha256"]] = f["size"]
            for sha in [s for s in self._wanted if s not in wanted]:  # an older manifest's blobs: not waited for
                self.unsubscribe(topics.blob(sha) + "/+")
                self._parts.pop(sha, None)
            for sha in [s for s in wanted if s not in self._wanted]:
                self.subscribe(topics.blob(sha) + "/+")
            self._wanted = wanted
            if problem:
                self.refused = problem
                log.error("floor content %s refused: %s", str(data["hash"])[:16], problem)
                digest = data["hash"] if schema.HASH.fullmatch(str(data["hash"])) else ""
                self._report(digest, "refused", problem)
                return
            self._check()

    def on_blob(self, topic: str, payload: bytes) -> None:
        """A part of a file (`…/blob/<sha256>/<index>`); the file is checked once every part came."""
        sha, _, index = topic.rpartition("/")
        sha = sha.rsplit("/", 1)[-1]
        with self._lock:
            if sha not in self._wanted or not index.isdigit():
                return
            size = self._wanted[sha]
            parts = self._parts.setdefault(sha, {})
            if int(index) >= topics.blob_parts(size) or len(payload) > topics.CHUNK:
                parts.clear()  # a part that cannot belong to it: the file is bad
                data = None
            else:
                parts[int(index)] = payload
                if len(parts) < topics.blob_parts(size):
                    return
                data = b"".join(parts[i] for i in range(len(parts)))
            del self._wanted[sha]
            self._parts.pop(sha, None)
            self.unsubscribe(topics.blob(sha) + "/+")
            if data is None or len(data) != size or cases.sha256(data) != sha:
                log.error("floor content: blob %s does not match its hash or size; its item is refused", sha)
                self._bad.add(sha)
            else:
                (self.blobs / sha).write_bytes(data)
            self._check()

    def _check(self) -> None:
        """Once no blob is awaited: each item is taken or refused on its own."""
        m = self.manifest
        if m is None or self._wanted:
            return
        good: list[dict[str, Any]] = []
        problems: list[str] = []
        for item in m["items"]:
            problem = cases.item_problem(item)
            bad = [f["path"] for f in item["files"] if f["sha256"] in self._bad] if not problem else []
            if bad:
                problem = f"{item['id']}: {bad[0]}: the file does not match its hash"
            if not problem:
                files = {f["path"]: (self.blobs / f["sha256"]).read_bytes() for f in item["files"]}
                found = cases.validate({**_files(good, self.blobs), **files}, base=self.data_dir)
                problem = "\n".join(found)
            if problem:
                problems.append(problem)
            else:
                good.append(item)
        self.refused = "\n".join(problems)
        if problems:
            log.error("floor content %s: refused %s", m["hash"], self.refused)
        if not good:
            self._report(m["hash"], "refused", self.refused)
            self.manifest = None
            return
        self.pending = {**m, "items": good}
        self._report(m["hash"], "waiting", self.refused)

    def _report(self, digest: str, state: str, message: str = "") -> None:
        self.publish(topics.content_report(self.table),
                     {"hash": digest, "state": state, "message": message[:schema.MAX_TEXT]},
                     retain=True, key="content")

    # ------------------------------------------------------------ at the turnover (UI thread)
    def apply(self) -> bool:
        """Put the validated files in place; True when the library must be reloaded."""
        with self._lock:
            m = self.pending
            if m is None:
                return False
            for sha, path in _pairs(m["items"]):
                if not cases.safe_path(path):
                    continue
                target = self.data_dir / path
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.with_suffix(target.suffix + ".tmp")
                shutil.copyfile(self.blobs / sha, tmp)
                tmp.replace(target)
            self.pending = None
            self.set_applied(m["hash"])
            self._report(m["hash"], "applied", self.refused)
            return True


def _pairs(items: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(str(f["sha256"]), str(f["path"])) for item in items for f in item["files"]]


def _files(items: list[dict[str, Any]], blobs: Path) -> dict[str, bytes]:
    return {path: (blobs / sha).read_bytes() for sha, path in _pairs(items)}
