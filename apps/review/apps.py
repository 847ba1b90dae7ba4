from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "apps.review"
    label = "review"

    def ready(self):
        from apps.tenants.memory_parts import MemoryPart, memory_part_register

        # What tenancy shows and counts of this app (apps/tenants/memory_parts.py).
        memory_part_register(
            MemoryPart(
                app=self.label,
                counts=(
                    (
                        "pending_reviews",
                        "COUNT { MATCH (:Entity {tenant: $tenant})-[r:SAME_AS {status: 'pending'}]->() }",
                    ),
                ),
                job_labels=(("resolution.reresolve", "Entities re-resolved"),),
            )
        )
