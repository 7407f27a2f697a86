"""The day kits: one folder per day (see ARCHITECTURE.md)."""
