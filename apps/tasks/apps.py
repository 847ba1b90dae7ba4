from django.apps import AppConfig


class TasksConfig(AppConfig):
    name = "apps.tasks"
    label = "tasks"

    def ready(self):
        from apps.tenants.memory_parts import MemoryPart, memory_part_register

        # What tenancy shows and counts of this app (apps/tenants/memory_parts.py).
        memory_part_register(
            MemoryPart(
                app=self.label,
                job_labels=(
                    ("evidence_pages", "Pages read for a task"),
                    ("similarity_sync", "Similarity links"),
                ),
            )
        )
