"""Content shipped with TableHost (YAML data) and the loader that validates it (content.loader)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent
