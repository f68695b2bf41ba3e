"""Café content from the floor, against a damaged or hostile floor (#42.4): items and manifests capped in size,
file names matched whole (a newline is no file name), and a blob that does not match its hash refused alone:
the other items still apply and later manifests still sync. The tablet's ContentSync with the broker's side
played by hand; the floor's own caps on FloorContent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from floor import cases, topics
from floor.sync import ContentSync
from tests.floor.test_content import FORM


class Wire:
    def __init__(self, tmp: Path) -> None:
        self.reports: list[dict[str, Any]] = []
        self.subscribed: set[str] = set()
        self.applied = ""
        self.sync = ContentSync(tmp, "t01", self._publish, self.subscribed.add, self.subscribed.discard,
                                lambda: self.applied, self._set)

    def _publish(self, topic: str, payload: Any, retain: bool = False, key: str = "") -> None:
        self.reports.append(payload)

    def _set(self, digest: str) -> None:
        self.applied = digest

    def manifest(self, items: list[dict[str, Any]]) -> dict[str, Any]:
        m = cases.manifest(items)
        self.sync.on_manifest(m, len(topics.encode(m)))
        return m


def send(wire: Wire, sha: str, data: bytes) -> None:
    """A file as the broker hands it over: its retained parts, last first (any order will do)."""
    for i in reversed(range(topics.blob_parts(len(data)))):
        wire.sync.on_blob(topics.blob_part(sha, i), data[i * topics.CHUNK:(i + 1) * topics.CHUNK])


def item(number: int, wav: bool = False) -> tuple[dict[str, Any], dict[str, bytes]]:
    from tests.floor.test_content import wav_bytes

    case = cases.parse_form({**FORM, "number": str(number)})
    files = cases.item_files(case, wav_bytes() if wav else None)
    entries = [{"path": p, "sha256": cases.sha256(d), "size": len(d)} for p, d in files.items()]
    return {"id": case.id, "title": {"ko": case.title_ko}, "files": entries}, files


def test_a_blob_that_does_not_match_is_refused_alone_and_later_syncs_go_on(tmp_path: Path) -> None:
    wire = Wire(tmp_path)
    good, good_files = item(31)
    bad, bad_files = item(32, wav=True)
    m = wire.manifest([good, bad])
    assert len(wire.subscribed) == 3
    for entry, data in [*zip(good["files"], good_files.values(), strict=True),
                        *zip(bad["files"], bad_files.values(), strict=True)]:
        forged = data[:-4] + b"\x00\x00\x00\x00" if entry["path"].endswith(".wav") else data
        assert topics.blob_parts(len(data)) == 1 or entry["path"].endswith(".wav")
        send(wire, entry["sha256"], forged)
    report = wire.reports[-1]
    assert report["state"] == "waiting" and "cafe_box_32" in report["message"] and "hash" in report["message"]
    assert wire.subscribed == set()  # nothing left waiting (the old code waited for ever)
    assert wire.sync.apply()
    assert (tmp_path / "content/games/watson_holmes/cases/cafe_box_31.yaml").exists()
    assert not (tmp_path / "content/games/watson_holmes/cases/cafe_box_32.yaml").exists()
    assert wire.applied == m["hash"]
    # the floor fixes it: a new manifest syncs (the old code's stalled queue never moved again)
    fixed, fixed_files = item(33)
    wire.manifest([good, fixed])
    for entry, data in zip(fixed["files"], fixed_files.values(), strict=True):
        send(wire, entry["sha256"], data)
    assert wire.reports[-1]["state"] == "waiting" and wire.sync.apply()
    assert (tmp_path / "content/games/watson_holmes/cases/cafe_box_33.yaml").exists()


@pytest.mark.parametrize("path", ["content/games/watson_holmes/cases/x.yaml\n",
                                  "content/games/watson_holmes/cases/x.yaml\nrecordings/ko/wh.x.intro.wav",
                                  "content/games/watson_holmes/cases/../../../x.yaml", "/etc/x.yaml"])
def test_a_file_name_that_is_not_a_plain_item_path_is_refused(tmp_path: Path, path: str) -> None:
    assert not cases.safe_path(path)
    assert cases.validate({path: b"id: x\n"}) != []
    wire = Wire(tmp_path)
    good, _ = item(34)
    wire.manifest([{**good, "files": [{**good["files"][0], "path": path}]}])
    assert wire.reports[-1]["state"] == "refused" and wire.subscribed == set()
    assert not any(p.is_file() for p in tmp_path.rglob("*x.yaml*"))


def test_items_and_manifests_over_their_caps_are_refused_before_a_byte_is_fetched(tmp_path: Path) -> None:
    wire = Wire(tmp_path)
    big, _ = item(35)
    big["files"][0]["size"] = 60 * 1024 * 1024
    wire.manifest([big])
    assert wire.reports[-1]["state"] == "refused" and "more than an item may hold" in wire.reports[-1]["message"]
    assert wire.subscribed == set()
    many = [{**item(36)[0], "id": f"cafe_box_{i}"} for i in range(cases.MAX_ITEMS + 1)]
    wire.manifest(many)
    assert "too large" in wire.reports[-1]["message"] and wire.subscribed == set()


def test_the_floor_keeps_no_item_over_its_cap(tmp_path: Path) -> None:
    from floor.content_floor import FloorContent

    class Board:
        on_connected: list[Any] = []

    content = FloorContent(tmp_path / "content", Board())  # type: ignore[arg-type]
    path = "recordings/ko/wh.cafe_box_37.intro.wav"
    with pytest.raises(ValueError, match="more than an item may hold"):
        content.add("cafe_box_37", {"ko": "x"}, {path: b"\0" * (cases.MAX_ITEM_BYTES + 1)})
    with pytest.raises(ValueError, match="file name"):
        content.add("cafe_box_37", {"ko": "x"}, {path + "\n": b"RIFF"})
    assert content.items == [] and list((tmp_path / "content/blobs").iterdir()) == []


def test_a_file_in_many_parts_arrives_whole_and_a_stray_part_spoils_only_its_file(tmp_path: Path) -> None:
    from tests.floor.test_content import wav_bytes

    wire = Wire(tmp_path)
    case = cases.parse_form({**FORM, "number": "38"})
    files = cases.item_files(case, wav_bytes(seconds=20.0))  # 640 KB: three parts
    entries = [{"path": p, "sha256": cases.sha256(d), "size": len(d)} for p, d in files.items()]
    wav = next(e for e in entries if e["path"].endswith(".wav"))
    assert topics.blob_parts(wav["size"]) == 3
    wire.manifest([{"id": case.id, "title": {"ko": case.title_ko}, "files": entries}])
    wire.sync.on_blob(topics.blob_part(wav["sha256"], 7), b"x")  # a part number the file does not have
    for e, data in zip(entries, files.values(), strict=True):
        if e is not wav:
            send(wire, e["sha256"], data)
    assert wire.reports[-1]["state"] == "refused" and "does not match" in wire.reports[-1]["message"]
    assert wire.subscribed == set()
    wire2 = Wire(tmp_path / "again")
    wire2.manifest([{"id": case.id, "title": {"ko": case.title_ko}, "files": entries}])
    for e, data in zip(entries, files.values(), strict=True):
        send(wire2, e["sha256"], data)
    assert wire2.reports[-1]["state"] == "waiting" and wire2.sync.apply()
    assert (tmp_path / "again/recordings/ko/wh.cafe_box_38.intro.wav").read_bytes() == files[wav["path"]]
