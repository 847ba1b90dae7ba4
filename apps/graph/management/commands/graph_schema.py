from django.core.management.base import BaseCommand

from apps.graph.schema import schema_install


class Command(BaseCommand):
    help = "Install the graph's constraints, full-text and vector indexes (idempotent)."

    def handle(self, *args, **options):
        result = schema_install()
        self.stdout.write(
            f"Graph schema ready: {result['constraints']} constraints, {result['indexes']} indexes "
            f"({result['created']} created now)."
        )
