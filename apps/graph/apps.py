from django.apps import AppConfig


class GraphConfig(AppConfig):
    """Configures neomodel from settings. (django-neomodel fails to import with neomodel 7.)"""

    name = "apps.graph"
    label = "graph"

    def ready(self) -> None:
        from apps.graph.connection import graph_connect

        # Creates the driver object only; Bolt connects lazily on the first query.
        graph_connect()
        from apps.graph import nodes  # noqa: F401 - registers the node classes with neomodel
