from django.apps import AppConfig


def extractor_warm_up() -> str:
    """Load the configured extractor (spaCy by default) in a starting worker; its name for the log."""
    from apps.ingestion.extraction import ExtractionFailed, default_extractor

    try:
        return default_extractor().name
    except ExtractionFailed as exc:  # a misconfigured LLM extractor fails its jobs, not the worker
        return f"no extractor ({exc})"


class IngestionConfig(AppConfig):
    name = "apps.ingestion"
    label = "ingestion"

    def ready(self):
        from apps.tenants.memory_parts import MemoryPart, memory_part_register
        from memoryproject.celery import worker_warm_up_register

        # What tenancy shows and counts of this app (apps/tenants/memory_parts.py).
        memory_part_register(
            MemoryPart(
                app=self.label,
                counts=(
                    ("documents", "COUNT { MATCH (n:Document {tenant: $tenant}) }"),
                    ("chunks", "COUNT { MATCH (n:Chunk {tenant: $tenant}) }"),
                ),
                job_labels=(
                    ("document_ingest", "Document ingestion"),
                    ("document_delete", "Document deletion"),
                ),
                dashboard_card="ingestion/partials/dashboard_jobs.html",
                dashboard_card_job_kinds=("document_ingest",),
            )
        )
        worker_warm_up_register(extractor_warm_up)
