"""Staff mode without a floor: the same café-box form as the floor page, on the tablet (Kivy). It writes the
case file into this tablet's content folder after the content loader accepted it, and reloads the library;
the intro is then recorded in staff mode → 녹음 (the case's intro segment appears there)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from floor import cases
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.theme import BAR_CLEAR, DANGER_TEXT, LEAD, MUTED, PANEL, SMALL, TEXT, Panel, TButton

FLAGS = ("no_police", "no_watson", "locked")


def _input(test_id: str, text: str = "", **kw: Any) -> TextInput:
    ti = TextInput(text=text, multiline=False, font_size=SMALL, size_hint_y=None, height=dp(56),
                   padding=(dp(10), dp(14)), write_tab=False, **kw)
    ti.test_id = test_id
    return ti


def _label(text: str, **kw: Any) -> Label:
    lb = Label(text=text, color=MUTED, font_size=SMALL, halign="left", valign="middle", size_hint_y=None,
               height=dp(56), **kw)
    lb.bind(size=lambda w, s: setattr(w, "text_size", s))
    return lb


class CaseForm(OneUse):
    """Made for one use (kiosk.widgets.one_use): taken apart once closed."""

    def __init__(self, app: Any) -> None:
        super().__init__(size_hint=(0.96, 0.94), auto_dismiss=False, background_color=(0, 0, 0, 0.7), background="")
        self.app = app
        tr = app.tr
        box = Panel(orientation="vertical", bg=PANEL, padding=dp(16), spacing=dp(10))
        box.add_widget(Label(text=tr("floor.case.title"), color=TEXT, font_size=LEAD, size_hint_y=None,
                             height=dp(44)))
        self.fields: dict[str, TextInput] = {}
        top = GridLayout(cols=4, spacing=dp(10), size_hint_y=None, height=dp(4 * 56 + 30))
        for name, default in (("number", ""), ("difficulty", "2"), ("title_ko", ""), ("questions", "3"),
                              ("title_en", ""), ("persons", ""), ("layout", "")):
            top.add_widget(_label(tr(f"floor.case.{name}")))
            self.fields[name] = _input(f"case_{name}", default)
            top.add_widget(self.fields[name])
        top.add_widget(Label())
        box.add_widget(top)
        box.add_widget(_label(tr("floor.case.locations")))
        self.rows: list[tuple[TextInput, TextInput, dict[str, TButton]]] = []
        self.list = GridLayout(cols=1, spacing=dp(6), size_hint_y=None, padding=(0, 0, BAR_CLEAR, 0))
        self.list.bind(minimum_height=self.list.setter("height"))
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(self.list)
        box.add_widget(scroll)
        for _ in range(4):
            self.add_row()
        self.message = Label(text="", color=DANGER_TEXT, font_size=SMALL, size_hint_y=None, height=dp(54),
                             halign="left", valign="middle")
        self.message.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.message.test_id = "case_message"
        box.add_widget(self.message)
        bar = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(12))
        for text, test_id, kind, fn in ((tr("floor.case.add_location"), "case_add_location", "normal", self.add_row),
                                        (tr("common.cancel"), "case_cancel", "normal", self.dismiss),
                                        (tr("floor.case.save"), "case_save", "primary", self.save)):
            b = TButton(text=text, test_id=test_id, kind=kind)
            b.bind(on_release=lambda _w, fn=fn: fn())
            bar.add_widget(b)
        box.add_widget(bar)
        self.add_widget(box)

    def add_row(self) -> None:
        n = len(self.rows) + 1
        row = BoxLayout(size_hint_y=None, height=dp(58), spacing=dp(8))
        number = _input(f"case_loc_number_{n}", str(n), size_hint_x=0.12)
        name = _input(f"case_loc_name_{n}", hint_text=self.app.tr("floor.case.name"), size_hint_x=0.43)
        row.add_widget(number)
        row.add_widget(name)
        flags: dict[str, TButton] = {}
        for flag in FLAGS:
            b = TButton(text=self.app.tr(f"floor.case.{flag}"), test_id=f"case_loc_{flag}_{n}", font_size=SMALL,
                        size_hint_x=0.15)
            b.bind(on_release=lambda w: setattr(w, "selected", not w.selected))
            flags[flag] = b
            row.add_widget(b)
        self.rows.append((number, name, flags))
        self.list.add_widget(row)

    def form(self) -> dict[str, Any]:
        data: dict[str, Any] = {k: ti.text for k, ti in self.fields.items()}
        data["locations"] = [{"number": num.text, "ko": name.text, **{f: b.selected for f, b in flags.items()}}
                             for num, name, flags in self.rows]
        return data

    def save(self) -> None:
        app = self.app
        try:
            case = cases.parse_form(self.form())
            files = cases.item_files(case, None)
        except cases.FormError as exc:
            self.message.text = exc.en if app.lang == "en" else exc.ko
            return
        problems = cases.validate(files, base=app.data_dir)
        if problems:
            self.message.text = app.tr("floor.case.refused") + " " + " / ".join(problems)
            return
        for path, data in files.items():
            target = app.data_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        from content.loader import load_library

        app.library = load_library(overlay=app.data_dir / "content")
        self.dismiss()
        app.toast(app.tr("floor.case.saved", title=case.title_ko))
