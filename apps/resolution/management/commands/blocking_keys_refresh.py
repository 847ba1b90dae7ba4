from django.core.management.base import BaseCommand, CommandError

from apps.graph.connection import graph_connect
from apps.graph.scope import Scope
from apps.resolution.keys_refresh import keys_refresh
from apps.tenants.models import Tenant


class Command(BaseCommand):
    help = (
        "Give every entity the blocking keys the current code makes (after an upgrade that "
        "adds a kind of key); a second run changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tenant", help="one tenant's slug (default: every tenant)")

    def handle(self, *args, **options):
        tenants = Tenant.objects.order_by("slug")
        if options["tenant"]:
            tenants = tenants.filter(slug=options["tenant"])
            if not tenants:
                raise CommandError(f"no tenant with slug '{options['tenant']}'")
        graph_connect()
        for tenant in tenants:
            scope = Scope(tenant=tenant.uid, actor="system:keys", actor_kind="system")
            read, changed = keys_refresh(
                scope,
                progress=lambda r, c, s=tenant.slug: self.stdout.write(
                    f"  {s}: {r} entities read, {c} given new keys"
                ),
            )
            self.stdout.write(f"{tenant.slug}: {read} entities, {changed} given new keys")
