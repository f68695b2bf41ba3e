"""The TableHost kiosk: session (game + journal), Kivy screens, staff mode, command line."""
