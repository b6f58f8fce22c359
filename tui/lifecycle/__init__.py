"""The app's life: the start, the first look, the loading, the quit and the exit."""
