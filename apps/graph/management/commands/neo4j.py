"""`manage.py neo4j start|stop|status|restart`: the local Neo4j the project runs itself."""

import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.graph import local_neo4j


class Command(BaseCommand):
    help = "Start, stop, restart or report the local Neo4j (data and logs in the project data dir)."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["start", "stop", "status", "restart", "fetch"])
        parser.add_argument("--json", action="store_true", help="print the status as JSON")

    def handle(self, *args, action, **options):
        if settings.NEO4J_BOLT_URL and action != "status":
            raise CommandError(
                f"NEO4J_BOLT_URL is set ({settings.NEO4J_BOLT_URL}): the service uses that Neo4j, "
                "not the local one."
            )
        try:
            if action == "fetch":
                self.stdout.write(f"Neo4j jars in {local_neo4j.fetch_jars()}")
                return
            if action in ("stop", "restart"):
                was_running = local_neo4j.stop()
                self.stdout.write("Neo4j stopped." if was_running else "Neo4j was not running.")
            if action in ("start", "restart"):
                local_neo4j.start()
        except local_neo4j.LocalNeo4jError as exc:
            raise CommandError(str(exc)) from exc
        self._report(local_neo4j.status_dict(), as_json=options["json"])

    def _report(self, status: dict, as_json: bool) -> None:
        if as_json:
            self.stdout.write(json_dumps(status))
            return
        state = f"running (pid {status['pid']})" if status["running"] else "stopped"
        self.stdout.write(f"Neo4j {status['version']} {state}")
        if status["running"]:
            vectorized = {True: "yes", False: "no (no jdk.incubator.vector)", None: "unknown"}
            self.stdout.write(f"  java: {status['java'] or 'unknown'}")
            self.stdout.write(f"  vector search vectorized: {vectorized[status['vectorized']]}")
            self.stdout.write(f"  gds: {status['gds'] or 'unknown'}")
        for key in ("bolt_url", "data_dir", "logs_dir", "launcher_log", "jars_dir"):
            self.stdout.write(f"  {key}: {status[key]}")


def json_dumps(value) -> str:
    return json.dumps(value, indent=2)
