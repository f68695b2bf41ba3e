"""A chain of cafés (#39.4): two branch brokers bridged over TLS (deploy/floor/bridge.conf, a CA made here) to
a head office's broker (deploy/floor/head.conf, a bridge user per branch in the ACL), all three configured by
deploy/floor/install.sh (--branch …, --head-office …). Both branches have a t01: the head office's floor keeps them apart (b1/t01, b2/t01), an
ack reaches its own branch's tablet only, the statistics count per branch and in total, and a call made while
the head office's broker is down arrives once it is back."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from floor.serve import Floor, FloorSetup
from tests.floor.broker import Broker, free_port
from tests.floor.helpers import tablet, wait_for
from tests.floor.test_floor_page import browser, shot, staff_page  # noqa: F401  (fixtures; skips without chromium)
from tests.phones.helpers import library

if TYPE_CHECKING:
    from playwright.sync_api import Browser

BRANCHES = ("b1", "b2")


def _certs(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True)
    ca, ca_key = folder / "ca.crt", folder / "ca.key"
    cert, key, csr = folder / "head.crt", folder / "head.key", folder / "head.csr"
    ext = folder / "san.ext"
    ext.write_text("subjectAltName=IP:127.0.0.1\n")
    for cmd in (
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=TableHost test CA",
         "-keyout", str(ca_key), "-out", str(ca)],
        ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(csr)],
        ["x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial", "-days", "2",
         "-extfile", str(ext), "-out", str(cert)],
    ):
        subprocess.run(["openssl", *cmd], check=True, capture_output=True, timeout=60)
    return {"ca": ca, "cert": cert, "key": key}


class Chain:
    """Every broker configured by deploy/floor/install.sh itself (dry runs into scratch roots)."""

    def __init__(self, folder: Path) -> None:
        certs = _certs(folder / "certs")
        self.tls_port = free_port()
        self.head = Broker(folder / "head", tables=1, extra=(
            "--head-office", "--tls-cert", str(certs["cert"]), "--tls-key", str(certs["key"]), "--tls-ca",
            str(certs["ca"]), "--tls-port", str(self.tls_port), "--bridge-user", "b1", "--bridge-user", "b2"))
        assert "TABLEHOST_FLOOR_CHAIN=1" in (self.head.root / "etc/tablehost/floor.env").read_text()
        self.branches = {b: Broker(folder / b, tables=2, extra=(
            "--branch", b, "--bridge-to", f"127.0.0.1:{self.tls_port}", "--bridge-password",
            self.head.passwords[f"bridge-{b}"], "--head-ca", str(certs["ca"]))) for b in BRANCHES}

    def start(self) -> None:
        self.head.start()
        for broker in self.branches.values():
            broker.start()

    def stop(self) -> None:
        for broker in (*self.branches.values(), self.head):
            broker.stop()


@pytest.fixture
def chain(tmp_path: Path) -> Iterator[Chain]:
    from tests.floor.conftest import MOSQUITTO  # noqa: F401  (skips with the broker fixture's reason)

    if subprocess.run(["which", "openssl"], capture_output=True).returncode != 0:
        pytest.skip("openssl is needed to make the test CA")
    c = Chain(tmp_path / "chain")
    c.start()
    yield c
    c.stop()


def test_two_branches_bridged_to_a_head_office(browser: Browser, chain: Chain, tmp_path: Path) -> None:  # noqa: F811
    office = Floor(FloorSetup(broker="127.0.0.1", broker_port=chain.head.port, password=chain.head.passwords["floor"],
                              listen="127.0.0.1", web_port=0, pin="2468", data_dir=tmp_path / "office", chain=True),
                   library=library())
    office.start()
    head, store = office.board, office.store
    acks: dict[str, list[Any]] = {b: [] for b in BRANCHES}
    tablets = {b: tablet(broker, "t01", tmp_path / b, on_ack=acks[b].append)
               for b, broker in chain.branches.items()}
    try:
        assert head.wait_connected(), head.last_error
        calls = {b: t.call("rules") for b, t in tablets.items()}
        def open_at(key: str) -> set[str]:
            state = head.tables.get(key)
            return set(state.calls) if state is not None else set()

        wait_for(lambda: all(calls[b]["id"] in open_at(f"{b}/t01") for b in BRANCHES), timeout=30,
                 what="both branches' calls at the head office")
        assert {v["table"] for v in head.snapshot()} >= {"b1/t01", "b2/t01"}  # two cards, not one merged t01
        assert "t01" not in head.tables
        # the head office acknowledges b1's call: b1's t01 hears it, b2's does not
        assert head.ack("b1/t01", calls["b1"]["id"])
        wait_for(lambda: acks["b1"], timeout=20, what="the ack at b1")
        assert tablets["b1"].open_calls() == [] and tablets["b2"].open_calls() != [] and acks["b2"] == []
        # faults: the head office's broker restarts; a call made meanwhile at b2 arrives when it is back
        chain.head.kill()
        late = tablets["b2"].call("order")
        chain.head.start()
        wait_for(lambda: late["id"] in open_at("b2/t01"), timeout=60,
                 what="the call made while the head office was down")
        assert head.ack("b2/t01")
        wait_for(lambda: acks["b2"], timeout=30, what="the acks at b2")
        wait_for(lambda: tablets["b2"].open_calls() == [], timeout=30, what="b2's calls closed")
        # a branch's broker restarts: its tablets and its bridge come back by themselves
        chain.branches["b1"].kill()
        chain.branches["b1"].start()
        again = tablets["b1"].call("new_game")
        wait_for(lambda: again["id"] in head.tables["b1/t01"].calls, timeout=60, what="b1's call after its restart")
        assert head.ack("b1/t01")
        wait_for(lambda: tablets["b1"].open_calls() == [], timeout=30, what="b1's ack after its restart")
        # statistics per branch and for all branches
        wait_for(lambda: store.count() >= 4, what="the events stored")
        text = store.csv_text({"branch": "지점", "all": "전체"})
        rows = [r.split(",") for r in text.lstrip("\ufeff").strip().split("\r\n")]
        assert rows[0][:2] == ["day", "지점"]
        calls_by_branch = {r[1]: int(r[9]) for r in rows[1:]}
        assert calls_by_branch == {"b1": 2, "b2": 2, "전체": 4}
        # the head office's page: every branch's tables apart, a line per branch and one for all
        from playwright.sync_api import expect

        tablets["b2"].call("problem")
        page = staff_page(browser)
        try:
            page.goto(office.server.url + "/")
            page.get_by_test_id("pin").fill("2468")
            page.get_by_test_id("login-go").click()
            expect(page.get_by_test_id("table-b1/t01")).to_be_visible()
            expect(page.get_by_test_id("table-b2/t01")).to_be_visible()
            expect(page.get_by_test_id("branch-b2")).to_have_text("b2 · 테이블 1 · 게임 중 0 · 호출 1")
            expect(page.get_by_test_id("branch-all")).to_have_text("전체 · 테이블 2 · 게임 중 0 · 호출 1")
            expect(page.locator("#tables article").first).to_have_attribute("data-testid", "table-b2/t01")
            shot(page, "head_office")
        finally:
            page.context.close()
    finally:
        for t in tablets.values():
            t.stop()
        office.stop()
