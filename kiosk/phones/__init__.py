"""The Kivy side of the phones: the seats panel and the set-up's phone step (the server is `phones/`)."""
