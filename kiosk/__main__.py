"""`python -m kiosk` starts the kiosk (same as `tablehost run`)."""

from kiosk.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["run", *__import__("sys").argv[1:]]))
