"""What the kiosk's parts (the table keeper, voice, the game host, the café floor's bridge, the start-up
services) need of the running app, kiosk/app.py's TableHostApp; they import this, never the app, so the app may
import them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from content.i18n_catalog import Translator
    from content.loader import Library
    from kiosk.content_load import ContentLoad
    from table.notices import Notice
    from table.settings import Settings
    from table.table import Table


class KioskApp(Protocol):
    lang: str
    data_dir: Path
    journal_dir: Path
    settings_path: Path
    settings_stamp: tuple[int, int] | None
    settings: Settings
    storage_error: str
    errors: list[str]
    sounds: list[str]
    notices: list[Notice]
    table: Table
    translator: Translator
    library: Library  # a property of the app: waits for the content while it loads
    content: ContentLoad
    now: Callable[[], float]
    sm: Any  # the ScreenManager
    root_layout: Any
    keyboard: Any
    keeper: Any
    narrator: Any
    narration: Any
    caption_bar: Any
    voice: Any
    phones: Any
    phones_server: Any
    floor: Any
    staff_mode: bool

    def library_ready(self) -> bool: ...

    def tr(self, key: str, *_bind: Any, **params: Any) -> str: ...

    def toast(self, text: str) -> None: ...

    def go(self, name: str) -> None: ...

    def host(self, game_id: str) -> None: ...

    def get_screen(self, name: str) -> Any: ...

    def set_lang(self, lang: str) -> None: ...

    def resume_game(self, announce: bool = True) -> bool: ...

    def dismiss_dialogs(self) -> None: ...

    def save_settings(self) -> None: ...

    def apply_audio_settings(self, start_voice: bool = True) -> None: ...

    def start_voice(self, controller: Any = None) -> None: ...

    def play_sound(self, name: str) -> None: ...

    def bind(self, **kw: Any) -> Any: ...  # Kivy's EventDispatcher

    def property(self, name: str, quiet: bool = False) -> Any: ...
