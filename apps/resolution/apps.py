from django.apps import AppConfig


class ResolutionConfig(AppConfig):
    name = "apps.resolution"
    label = "resolution"

    def ready(self):
        from apps.tenants.memory_parts import MemoryPart, memory_part_register

        # What tenancy shows and counts of this app (apps/tenants/memory_parts.py).
        memory_part_register(
            MemoryPart(
                app=self.label,
                counts=(
                    (
                        "entities",
                        "COUNT { MATCH (n:Entity {tenant: $tenant}) WHERE n.status = 'active' }",
                    ),
                    ("relations", "COUNT { MATCH (:Entity {tenant: $tenant})-[r:RELATED_TO]->() }"),
                ),
                job_labels=(
                    ("match_model.learn", "Match model learning"),
                    ("auto_merges.rescore", "Automatic merges re-scored"),
                ),
            )
        )
