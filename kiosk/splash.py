"""Start-up with a splash from the very first frame: our mark, the name and a progress bar are drawn before the
heavy imports, the content and the screens, and stay until the attract screen is up. `start_kiosk` is the one
start-up path (`tablehost run` and bench/startup.py). Call after kiosk.env.configure() and apply_config()."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kiosk.typeface import register_fonts

CATALOGS = Path(__file__).resolve().parents[1] / "content" / "i18n"


def _texts(data_dir: Path) -> dict[str, str]:
    """The splash's strings in the saved language (content/i18n/<lang>/splash.yaml), read without the full
    catalogs: those load after the first frame."""
    import yaml

    lang = "ko"
    try:
        lang = str(json.loads((data_dir / "settings.json").read_text(encoding="utf-8")).get("lang", "ko"))
    except (OSError, ValueError, AttributeError):
        pass
    path = CATALOGS / (lang if lang in ("ko", "en") else "ko") / "splash.yaml"
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return {k: str(v) for k, v in yaml.load(path.read_text(encoding="utf-8"), Loader=loader)["splash"].items()}
    except (OSError, KeyError, TypeError, yaml.YAMLError):
        return {}


class Splash:
    """Drawn straight on the Window's canvas (no layout pass needed), flipped by hand between start-up steps."""

    def __init__(self, texts: dict[str, str]) -> None:
        from kivy.core.window import Window
        from kivy.graphics import Color, InstructionGroup, Rectangle

        from kiosk.widgets import theme

        self.texts, self.window, self.theme = texts, Window, theme
        self.group = InstructionGroup()
        w, h = Window.size
        self.group.add(Color(*theme.BG))
        self.group.add(Rectangle(pos=(0, 0), size=(w, h)))
        self._mark(w / 2, h * 0.62, min(w, h) * 0.13)
        self._text(texts.get("title", "TableHost"), theme.HEADLINE, theme.TEXT, w / 2, h * 0.40, bold=True)
        self.bar_w = w * 0.4
        self.group.add(Color(*theme.PANEL_HI))
        self.group.add(Rectangle(pos=(w / 2 - self.bar_w / 2, h * 0.29), size=(self.bar_w, 10)))
        self.group.add(Color(*theme.ACCENT))
        self.bar = Rectangle(pos=(w / 2 - self.bar_w / 2, h * 0.29), size=(0, 10))
        self.group.add(self.bar)
        self.status_color = Color(*theme.MUTED)
        self.group.add(self.status_color)
        self.status = Rectangle(pos=(0, 0), size=(0, 0))
        self.group.add(self.status)
        Window.canvas.after.add(self.group)
        self.fraction = 0.0

    def _mark(self, cx: float, cy: float, r: float) -> None:
        """The TableHost mark (kiosk.widgets.art)."""
        from kiosk.widgets.art import table_mark

        for ins in table_mark(cx, cy, r):
            self.group.add(ins)

    def _texture(self, text: str, size: str, bold: bool = False) -> Any:
        from kivy.core.text import Label as CoreLabel
        from kivy.metrics import sp

        label = CoreLabel(text=text, font_size=sp(float(size.removesuffix("sp"))), bold=bold)
        label.refresh()
        return label.texture

    def _text(self, text: str, size: str, color: Any, cx: float, cy: float, bold: bool = False) -> None:
        from kivy.graphics import Color, Rectangle

        tex = self._texture(text, size, bold)
        self.group.add(Color(*color))
        self.group.add(Rectangle(texture=tex, size=tex.size, pos=(cx - tex.width / 2, cy - tex.height / 2)))

    def step(self, fraction: float, key: str) -> None:
        """Show progress and a line saying what loads now, and put it on the screen at once."""
        w, h = self.window.size
        self.fraction = fraction
        self.bar.size = (self.bar_w * fraction, 10)
        text = self.texts.get(key, "")
        if text:
            tex = self._texture(text, self.theme.BODY)
            self.status.texture, self.status.size = tex, tex.size
            self.status.pos = (w / 2 - tex.width / 2, h * 0.20)
        self.flip()

    def flip(self) -> None:
        self.window.dispatch("on_draw")
        self.window.dispatch("on_flip")

    def close(self) -> None:
        if self.group is not None:
            self.window.canvas.after.remove(self.group)
            self.group = None


def start_kiosk(data_dir: Path) -> Any:
    """Splash first, then the app (settings, catalogs, the attract screen) with progress; returns the app, not yet running. The splash
    goes once the app's first screen is drawn (TableHostApp.on_start)."""
    import kivy.core.window  # noqa: F401  (the Window: the bare minimum for a first frame)

    register_fonts()
    splash = Splash(_texts(data_dir))
    splash.step(0.15, "code")
    from kiosk.app import TableHostApp

    splash.step(0.6, "screens")  # the games' content loads after the attract screen is up (TableHostApp)
    app = TableHostApp(data_dir=data_dir, defer_content=True)
    app.splash = splash
    return app
