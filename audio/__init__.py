"""Sound in and out behind small interfaces; every device may be missing (see audio.status)."""
