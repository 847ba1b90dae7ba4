"""Agent API of the work graph: tasks (`api/tasks.py`), evidence, context."""
