from django.apps import AppConfig


class TimelineConfig(AppConfig):
    name = "apps.timeline"
    label = "timeline"

    def ready(self):
        from apps.tenants.memory_parts import MemoryPart, memory_part_register

        # What tenancy shows and counts of this app (apps/tenants/memory_parts.py).
        memory_part_register(
            MemoryPart(
                app=self.label,
                job_labels=(
                    ("rows_from_entries", "Rows from entries"),
                    ("kind_embed", "Text values embedded"),
                ),  # fmt: skip
            )
        )
