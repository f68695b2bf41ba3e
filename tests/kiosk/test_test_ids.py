"""A widget's test_id set in Python stays, whatever kv rules come later (kiosk/widgets/theme.py declares it)."""

from __future__ import annotations

from typing import Any


def test_an_id_set_in_python_survives_a_later_kv_rule_giving_a_stock_child_one(driver: Any) -> None:
    """The rule look-up's search field (an id set in Python) vanished from a full run's test once Mr. Jack's set-up
    form (a kv rule giving its TextInputs ids) was first built after it: Kivy made `test_id` a TextInput property
    then, and the property hid the field's own attribute."""
    from kivy.lang import Builder
    from kivy.uix.label import Label
    from kivy.uix.textinput import TextInput

    field, label = TextInput(), Label()
    field.test_id, label.test_id = "made_in_python", "label_in_python"
    Builder.load_string("""
<TestIdsLater@BoxLayout>:
    TextInput:
        test_id: 'made_by_kv'
    Label:
        test_id: 'label_by_kv'
""", filename="test_test_ids.kv")
    try:
        from kivy.factory import Factory

        later = Factory.TestIdsLater()
        assert [w.test_id for w in later.children[::-1]] == ["made_by_kv", "label_by_kv"]
        assert field.test_id == "made_in_python" and label.test_id == "label_in_python"
        assert TextInput().test_id == "" and Label().test_id == ""
    finally:
        Builder.unload_file("test_test_ids.kv")
