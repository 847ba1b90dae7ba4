from django.apps import AppConfig


class ConversationsConfig(AppConfig):
    name = "apps.conversations"
    label = "conversations"

    def ready(self):
        from apps.tenants.memory_parts import MemoryPart, memory_part_register

        # What tenancy shows and counts of this app (apps/tenants/memory_parts.py).
        memory_part_register(
            MemoryPart(
                app=self.label,
                counts=(
                    ("conversations", "COUNT { MATCH (n:Session {tenant: $tenant}) }"),
                    ("messages", "COUNT { MATCH (n:Message {tenant: $tenant}) }"),
                    ("traces", "COUNT { MATCH (n:ReasoningTrace {tenant: $tenant}) }"),
                ),
                job_labels=(
                    ("conversation_import", "Conversation import"),
                    ("conversation_erase", "Conversation erasure"),
                ),
                erasure_job_kinds=("conversation_erase",),
            )
        )
