from django.apps import AppConfig


class GraphConfig(AppConfig):
    """Configures neomodel from settings. (django-neomodel fails to import with neomodel 7.)"""

    name = "apps.graph"
    label = "graph"

    def ready(self) -> None:
        # The connection is made lazily by apps.graph.connection on the first query, so that
        # management commands (like `neo4j start`) work while Neo4j is down.
        from neomodel import get_config

        from apps.graph import nodes  # noqa: F401 - registers the node classes with neomodel
        from apps.graph.connection import graph_url

        # For neomodel's own lazy connect (node class queries) when nothing connected yet.
        get_config().database_url = graph_url()
