"""Each request is one unit for the graph: its reads see its own earlier writes, also when a
routed Neo4j cluster sends them to a follower (apps.graph.cypher.read_your_writes). Jobs get the
same from their Celery task class (memoryproject.celery)."""

from __future__ import annotations

from apps.graph.cypher import read_your_writes


class ReadYourWritesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with read_your_writes():
            return self.get_response(request)
