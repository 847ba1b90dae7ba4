from django.apps import AppConfig


class KnowledgeConfig(AppConfig):
    name = "apps.knowledge"
    label = "knowledge"

    def ready(self):
        from apps.tenants.memory_parts import MemoryPart, memory_part_register

        # What tenancy shows and counts of this app (apps/tenants/memory_parts.py).
        memory_part_register(
            MemoryPart(
                app=self.label,
                job_labels=(("knowledge_promote", "Knowledge promotion"),),
                # The ticker queues a promotion for every tenant on a clock; an empty
                # tenant's finds nothing, so these jobs put no memory in a tenant.
                housekeeping_job_kinds=("knowledge_promote",),
            )
        )
