from django.apps import AppConfig


class InsightsConfig(AppConfig):
    name = "apps.insights"
    label = "insights"

    def ready(self):
        from apps.tenants.memory_parts import MemoryPart, memory_part_register

        # What tenancy calls this app's jobs (apps/tenants/memory_parts.py).
        memory_part_register(
            MemoryPart(
                app=self.label,
                job_labels=(("communities_refresh", "Communities"),),
            )
        )
