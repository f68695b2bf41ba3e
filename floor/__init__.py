"""The café floor: every table's tablet on one MQTT broker (mosquitto), and the staff's floor page.

Kivy-free core: `topics` (names, ids, payload codec), `outbox` (persisted QoS 1 queue), `client` (the tablet's
MQTT client on its own thread), `report` (status and events built from the table view only), `board` (the
floor's view of every table). `ui` is the kiosk's Kivy side (call button, settings); `server` the floor page.
The whole floor is optional: without a configured broker the tablet works exactly as before.
"""
