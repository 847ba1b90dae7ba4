import os

from django.conf import settings
from django.core.management.base import BaseCommand

from apps.tenant_data.services.demo_data import demo_data_fill
from apps.tenants.services import api_key_issue, demo_setup


class Command(BaseCommand):
    help = "Create the demo tenant, its admin account and an API key (reuses what exists)."

    def add_arguments(self, parser):
        parser.add_argument("--new-key", action="store_true", help="issue another demo API key")
        # bin/run-local serves on HOST:PORT: a later `demo_setup --new-key` names the same URL.
        host, port = os.environ.get("HOST", "127.0.0.1"), os.environ.get("PORT", "8000")
        parser.add_argument("--url", default=f"http://{host}:{port}")
        parser.add_argument(
            "--with-data",
            action="store_true",
            help="fill the demo tenant with a small data set, once, if it has no memory yet",
        )

    def handle(self, *args, **options):
        demo = demo_setup()
        key = demo.api_key
        if key is None and options["new_key"]:
            _, key = api_key_issue(tenant=demo.tenant, name="demo agent")
        url = options["url"].rstrip("/")
        self.stdout.write(
            f"Demo tenant '{demo.tenant.slug}' ready. Log in at {url}/accounts/login/"
        )
        if demo.password:
            self.stdout.write(f"  user: {demo.username}  password: {demo.password}  (shown once)")
        else:
            self.stdout.write(
                f"  user: {demo.username} (exists; `manage.py changepassword {demo.username}`)"
            )
        if key:
            self.stdout.write(
                f"  API key: {key}  (shown once; header `Authorization: Api-Key ...`)"
            )
        else:
            self.stdout.write(
                "  API key: issued earlier (`manage.py demo_setup --new-key` for another)"
            )
        self.stdout.write(f"  API docs: {url}/api/docs/   data dir: {settings.DATA_DIR}")
        if options["with_data"]:
            self.stdout.write("  Demo data: checking (the first run writes a small data set)...")
            filled = demo_data_fill(tenant=demo.tenant)
            if filled["filled"]:
                self.stdout.write(
                    f"  Demo data: {filled['documents']} documents, "
                    f"{filled['pending_reviews']} pending reviews, a conversation with its "
                    f"summary, lesson '{filled['lesson']}' ({filled['seconds']:.0f} s)."
                )
            else:
                self.stdout.write("  Demo data: not written (the tenant has memory, or had it).")
