"""What the command line shares with the app; never imports Textual."""
