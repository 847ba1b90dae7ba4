"""Writes over a whole tenant: its archive format, export, import, deletion, and the demo data."""
