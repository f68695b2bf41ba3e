"""The floor's side of café content: the form's cases, kept on the floor box and published to every tablet as
retained messages (each file once, by its SHA-256, in parts of topics.CHUNK, then the manifest naming them all).

`POST /content` (multipart, behind the floor PIN) takes the form: it becomes the case file, the loader checks
it, and only a case that loads is published; otherwise the loader's messages go back to the page."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

from aiohttp import web

from floor import cases, topics
from floor.board import FloorBoard
from floor.server import FloorServer

log = logging.getLogger(__name__)


class FloorContent:
    def __init__(self, folder: Path, board: FloorBoard) -> None:
        self.folder = folder
        self.board = board
        self.blobs = folder / "blobs"
        self.blobs.mkdir(parents=True, exist_ok=True)
        self.items_path = folder / "items.json"
        self._lock = threading.Lock()
        self.items: list[dict[str, Any]] = []
        if self.items_path.exists():
            try:
                self.items = list(json.loads(self.items_path.read_text(encoding="utf-8")))
            except (OSError, ValueError) as exc:
                log.error("floor content list %s unreadable: %s", self.items_path, exc)
        board.on_connected.append(self.publish)  # a broker that lost its retained messages gets them again

    def add(self, item_id: str, title: dict[str, str], files: dict[str, bytes]) -> dict[str, Any]:
        """Keep a checked item (replacing one with the same id) and publish the new manifest. An item or a
        manifest over its size caps, or a file name no item may write, raises ValueError (nothing kept)."""
        entries: list[dict[str, Any]] = [{"path": path, "sha256": cases.sha256(data), "size": len(data)}
                                         for path, data in files.items()]
        item = {"id": item_id, "title": title, "files": entries}
        problem = cases.item_problem(item)
        with self._lock:
            items = [i for i in self.items if i["id"] != item_id] + [item]
            m = cases.manifest(items)
            problem = problem or cases.manifest_problem(m, len(topics.encode(m)))
            if problem:
                raise ValueError(problem)
            for entry, data in zip(entries, files.values(), strict=True):
                (self.blobs / entry["sha256"]).write_bytes(data)
            self.items = items
            tmp = self.items_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.items, ensure_ascii=False, indent=1), encoding="utf-8")
            tmp.replace(self.items_path)
        return self.publish()

    def manifest(self) -> dict[str, Any]:
        with self._lock:
            return cases.manifest(list(self.items))

    def publish(self) -> dict[str, Any]:
        m = self.manifest()
        if not self.items:
            return m
        client = self.board.client
        for item in m["items"]:
            for f in item["files"]:
                data = (self.blobs / f["sha256"]).read_bytes()
                for i in range(topics.blob_parts(len(data))):
                    client.publish(topics.blob_part(f["sha256"], i), data[i * topics.CHUNK:(i + 1) * topics.CHUNK],
                                   qos=1, retain=True)
        client.publish(topics.MANIFEST, topics.encode(m), qos=1, retain=True)
        return m

    def state(self) -> dict[str, Any]:
        m = self.manifest()
        return {"hash": m["hash"], "items": [{"id": i["id"], "title": i["title"]} for i in m["items"]]}


def install(server: FloorServer, content: FloorContent) -> None:
    """Add the content form's route to the floor page and show the items on it."""
    server.content_state = content.state

    async def post(request: web.Request) -> web.Response:
        server.require(request)
        form = await request.post()
        audio = form.get("intro_audio")
        wav = audio.file.read() if isinstance(audio, web.FileField) else None
        try:
            data = json.loads(str(form.get("case", "{}")))
            case = cases.parse_form(data)
            files = cases.item_files(case, wav or None)
        except cases.FormError as exc:
            return web.json_response({"ok": False, "errors": [exc.ko], "errors_en": [exc.en]}, status=400)
        except ValueError:
            return web.json_response({"ok": False, "errors": ["bad form"]}, status=400)
        problems = cases.validate(files)
        if problems:
            return web.json_response({"ok": False, "errors": problems}, status=422)
        try:
            m = content.add(case.id, {"ko": case.title_ko, "en": case.title_en}, files)
        except ValueError as exc:
            return web.json_response({"ok": False, "errors": [str(exc)]}, status=413)
        server.push_now()
        return web.json_response({"ok": True, "id": case.id, "hash": m["hash"]})

    server.extra_routes.append(lambda app: app.router.add_post("/content", post))
