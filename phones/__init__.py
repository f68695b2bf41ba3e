"""Players' phones as private screens (issue 11): the kiosk serves a page on the café LAN; each seat joins
with its own QR code or short code and sees exactly its own view, live, and sends its own inputs.

- `channel.PhoneHub`: seats, passes, connections; pushes views, takes inputs (the kiosk's one hub).
- `server.PhoneServer`: aiohttp on a background thread, bound to the host and port it is given.
- `qr`: QR codes for the tablet (pure Python, no network).

Import the server from `phones.server` (it needs aiohttp; the hub does not).
"""
