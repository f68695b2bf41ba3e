"""Journey tests use the `driver` fixture from tests/kiosk/conftest.py."""
