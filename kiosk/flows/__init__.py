"""What the games' screens share beyond single widgets: how a screen reads the table and sends (screen.py), a
seat's private moments (private.py), the seats of a set-up form (seats.py)."""
