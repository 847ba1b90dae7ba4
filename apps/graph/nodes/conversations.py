"""Conversations: sessions of a user, messages in order, summaries, reasoning traces."""

SCHEMA: list[str] = []
