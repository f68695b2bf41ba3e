"""Game host UI tests use the `driver` fixture from tests/kiosk/conftest.py (see kiosk/HOSTING.md)."""
