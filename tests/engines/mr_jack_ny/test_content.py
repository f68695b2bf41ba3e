"""The game's content (characters.yaml, table.yaml) and the recorded AMBIGUOUS decisions."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from content import ROOT
from engines.mr_jack_ny import __doc__ as package_doc
from engines.mr_jack_ny.cards import CharacterSet, TableGuide
from engines.serial import SchemaError, from_jsonable
from tests.engines.conformance import HANGUL
from tests.engines.mr_jack_ny.helpers import ENGINE, PACK

FOLDER = Path(ROOT) / "games" / "mr_jack_ny"


def test_content_files_load_as_the_declared_types() -> None:
    """Covers JACK-04, JACK-16, JACK-17."""
    assert ENGINE.content_types == {"characters.yaml": CharacterSet, "table.yaml": TableGuide}
    chars = from_jsonable(CharacterSet, yaml.safe_load((FOLDER / "characters.yaml").read_text("utf-8")))
    table = from_jsonable(TableGuide, yaml.safe_load((FOLDER / "table.yaml").read_text("utf-8")))
    assert chars == PACK["characters"] and table == PACK["table"]
    for card in chars.characters:
        assert HANGUL.search(card.name.ko) and card.name.en and HANGUL.search(card.summary.ko)
        assert len(card.summary.ko) <= 120, card.id  # fits the card tile on the kiosk


def test_character_set_validation_names_the_problem() -> None:
    """Covers JACK-02, JACK-04: exactly 8 cards, each ability once."""
    data = yaml.safe_load((FOLDER / "characters.yaml").read_text("utf-8"))
    short = {"characters": data["characters"][:7]}
    with pytest.raises(SchemaError, match="8 character cards"):
        from_jsonable(CharacterSet, short)
    twice = {"characters": [*data["characters"][:7], {**data["characters"][0], "id": "clone"}]}
    with pytest.raises(SchemaError, match="each ability kind"):
        from_jsonable(CharacterSet, twice)
    bad = {"characters": [{**data["characters"][0], "ability": "fly"}, *data["characters"][1:]]}
    with pytest.raises(SchemaError):
        from_jsonable(CharacterSet, bad)


def test_table_rules_have_korean_reminders() -> None:
    """Covers JACK-05, JACK-20, JACK-22, JACK-25, JACK-26, JACK-27, JACK-29, JACK-32: the [table] rules the
    kiosk cannot see are shown as reminders."""
    guide = PACK["table"]
    reminders = {r.id: r.text for r in guide.reminders}
    assert set(reminders) == {"JACK-05", "JACK-20", "JACK-22", "JACK-25", "JACK-26", "JACK-27", "JACK-29",
                              "JACK-32"}
    for text in (*reminders.values(), guide.witness_rule, guide.escape_rule, guide.arrest_rule):
        assert HANGUL.search(text.ko) and text.en
    assert "지하철" in reminders["JACK-26"].ko and "1" in reminders["JACK-26"].ko
    assert "항구" in reminders["JACK-27"].ko and "길" in reminders["JACK-25"].ko
    assert "불가능" in guide.escape_rule.ko  # the kiosk answers only "not possible"


def test_every_ambiguous_item_has_a_recorded_decision() -> None:
    """Covers JACK-12, JACK-23, JACK-31, JACK-34, JACK-44, JACK-46."""
    doc = package_doc or ""
    for jid in ("JACK-12", "JACK-23", "JACK-31", "JACK-34", "JACK-44", "JACK-46"):
        bullet = next(b for b in doc.split("\n- ") if b.startswith(jid))
        assert "reading A" in bullet or jid == "JACK-46", bullet
