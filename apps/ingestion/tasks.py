"""Celery tasks of the ingestion app: thin, they load the job and call the service."""

from celery import shared_task

from apps.tenants.models import Job


@shared_task(name="ingestion.document_ingest", acks_late=True)
def document_ingest(job_uid: str) -> None:
    job = Job.objects.select_related("tenant").filter(uid=job_uid).first()
    if job is None:
        return
    from apps.ingestion.services import document_ingest_job_run

    document_ingest_job_run(job)


@shared_task(name="ingestion.document_delete", acks_late=True)
def document_delete(job_uid: str) -> None:
    job = Job.objects.select_related("tenant").filter(uid=job_uid).first()
    if job is None:
        return
    from apps.ingestion.document_deletion import document_delete_job_run

    document_delete_job_run(job)
