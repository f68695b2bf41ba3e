"""Kivy's environment, set before `import kivy` (Kivy reads it at import time)."""

from __future__ import annotations

import os

from table.paths import data_dir

WIDTH, HEIGHT = 1280, 800  # a 10" landscape tablet, and the size screenshots are taken at


def configure(windowed: bool = False, headless: bool = False) -> None:
    """Call once, before anything imports kivy."""
    os.environ["KIVY_NO_ARGS"] = "1"  # Kivy must not parse our command line (e.g. "-m inspector")
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")  # leave stderr alone
    os.environ.setdefault("KIVY_HOME", str(data_dir() / "kivy"))
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1" if headless else "0")
    os.environ.setdefault("SDL_ENABLE_SCREEN_KEYBOARD", "0")  # the app has its own keyboard (widgets/keyboard.py)
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # not xclip/xsel: no subprocesses, nothing to install
    if headless:
        os.environ.pop("DISPLAY", None)  # SDL falls back to its offscreen driver and renders correctly
        os.environ.pop("WAYLAND_DISPLAY", None)
    os.environ["TABLEHOST_WINDOWED"] = "1" if (windowed or headless) else "0"


def apply_config() -> None:
    """Kivy Config for the kiosk: fullscreen borderless (unless windowed), 30 fps cap, no Esc exit."""
    from kivy.config import Config

    windowed = os.environ.get("TABLEHOST_WINDOWED") == "1"
    Config.set("graphics", "maxfps", "30")
    Config.set("graphics", "width", str(WIDTH))
    Config.set("graphics", "height", str(HEIGHT))
    Config.set("graphics", "fullscreen", "0" if windowed else "auto")
    Config.set("graphics", "borderless", "0" if windowed else "1")
    Config.set("graphics", "resizable", "1" if windowed else "0")
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("kivy", "keyboard_mode", "system")
    Config.set("input", "mouse", "mouse,disable_multitouch")  # no red multitouch dots on right click
    Config.set("kivy", "log_level", "info")
    # no debug module (inspector: Ctrl+E, monitor, recorder: F8, keybinding: F11/F12 …), even if KIVY_HOME's
    # config.ini lists one
    for name in Config.options("modules"):
        Config.remove_option("modules", name)
