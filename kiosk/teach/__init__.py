"""Staff-free teaching: the generic teaching player's logic (no Kivy here except in the *_view modules).

Content lives in `content/games/<game>/teach.yaml` (steps, set-up checklist, try-it scenarios, quiz) and
`content/games/<game>/teach/rules.yaml` (the rule pieces for look-up). A café adds teaching for another game
with these files alone; `validate_teaching()` checks them for `tablehost content check`.
"""

from kiosk.teach.loader import load_teaching, validate_teaching

__all__ = ["load_teaching", "validate_teaching"]
