"""Pages of the work graph (filled in by the pages slice)."""
