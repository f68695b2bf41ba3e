"""The running table, without Kivy: the session (game + journal), storage, settings, staff PIN, notices."""
