"""Reusable widgets: themed buttons and panels, dialogs, toast, pass-the-tablet, the game clock."""
