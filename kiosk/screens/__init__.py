"""One module (+ one .kv) per screen."""
