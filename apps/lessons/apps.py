from django.apps import AppConfig


class LessonsConfig(AppConfig):
    name = "apps.lessons"
    label = "lessons"

    def ready(self):
        from apps.tenants.memory_parts import MemoryPart, memory_part_register

        # What tenancy shows and counts of this app (apps/tenants/memory_parts.py).
        memory_part_register(
            MemoryPart(
                app=self.label,
                counts=(
                    ("episodes", "COUNT { MATCH (n:Episode {tenant: $tenant}) }"),
                    ("lessons", "COUNT { MATCH (n:Lesson {tenant: $tenant}) }"),
                    ("playbooks", "COUNT { MATCH (n:Playbook {tenant: $tenant}) }"),
                ),
            )
        )
