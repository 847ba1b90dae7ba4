from django.apps import AppConfig


class TenantDataConfig(AppConfig):
    """The console's whole-tenant work (export, import, deletion) and the demo data: what has to
    know every memory app stands here, above them (docs/concepts/layers.md)."""

    name = "apps.tenant_data"
    label = "tenant_data"

    def ready(self):
        from apps.tenants.memory_parts import MemoryPart, memory_part_register

        # What tenancy shows and counts of this app (apps/tenants/memory_parts.py).
        memory_part_register(
            MemoryPart(
                app=self.label,
                job_labels=(
                    ("tenant_export", "Tenant export"),
                    ("tenant_import", "Tenant import"),
                ),
            )
        )
