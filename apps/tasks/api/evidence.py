"""API of evidence: a finding, found pages, a synthesis, one evidence node; the SIMILAR_TO job."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.tasks import selectors
from apps.tasks.api.answers import EvidenceDetailOut
from apps.tasks.api.tasks import TASK_ID, WriteApi
from apps.tasks.services import evidence, page_ingest
from apps.tasks.similarity import similarity_sync_start
from apps.tenants.api import JobAcceptedOut, job_accepted
from apps.tenants.models import KeyScope
from memoryproject.api_errors import StrictSerializer
from memoryproject.request_inputs import body_checked, validated


class EvidenceIn(StrictSerializer):
    content = serializers.CharField(max_length=evidence.MAX_CONTENT_CHARS, trim_whitespace=False)
    source = serializers.CharField(max_length=evidence.MAX_SOURCE_CHARS)
    strength = serializers.FloatField(min_value=0.0, max_value=1.0)
    embed_text = serializers.CharField(required=False, max_length=evidence.MAX_EMBED_TEXT_CHARS)
    url = serializers.CharField(required=False, max_length=evidence.MAX_URL_CHARS)
    mentions = serializers.ListField(child=serializers.CharField(**TASK_ID), required=False,
                                     max_length=evidence.MAX_MENTIONS)  # fmt: skip


class PageIn(StrictSerializer):
    content = serializers.CharField(
        help_text="the page's text", max_length=page_ingest.MAX_PAGE_CHARS, trim_whitespace=False
    )
    url = serializers.CharField(
        help_text="where it was read", required=False, max_length=evidence.MAX_URL_CHARS
    )
    source = serializers.CharField(
        help_text="where it comes from, a name",
        required=False,
        max_length=evidence.MAX_SOURCE_CHARS,
    )


class PagesIn(StrictSerializer):
    pages = serializers.ListField(
        help_text="the pages, each kept as evidence of the task",
        child=PageIn(),
        min_length=1,
        max_length=page_ingest.MAX_PAGES,
    )


class SynthesisIn(StrictSerializer):
    task = serializers.CharField(help_text="the task (id) it answers", **TASK_ID)
    content = serializers.CharField(
        help_text="the summary, kept whole",
        max_length=evidence.MAX_CONTENT_CHARS,
        trim_whitespace=False,
    )
    sources = serializers.ListField(help_text="the evidence (ids) it summarizes", child=serializers.CharField(**TASK_ID), min_length=1,
                                    max_length=evidence.MAX_SOURCES)  # fmt: skip
    source = serializers.CharField(
        help_text="where it comes from, a name",
        required=False,
        max_length=evidence.MAX_SOURCE_CHARS,
    )
    strength = serializers.FloatField(
        help_text="how strongly it holds, 0-1", required=False, min_value=0.0, max_value=1.0
    )
    embed_text = serializers.CharField(
        help_text="the text embedded for similarity (default: content)",
        required=False,
        max_length=evidence.MAX_EMBED_TEXT_CHARS,
    )


class EvidenceOut(serializers.Serializer):
    id = serializers.CharField(help_text="The short id (e-7c0b) to quote")
    uid = serializers.CharField()


class EvidenceAddApi(WriteApi):
    refusal_kind = "evidence"

    @extend_schema(request=EvidenceIn, responses={201: EvidenceOut},
                   summary="Add a finding PRODUCED by an open task",
                   description="Kept whole (up to 100,000 characters, never cut) and immutable. "
                   "`mentions` names entities of the tenant by uid.")  # fmt: skip
    def post(self, request, task: str):
        data = validated(request, EvidenceIn)
        return Response(evidence.check_evidence_add(request.auth, task=task, **data), status=201)


class PagesApi(WriteApi):
    refusal_kind = "evidence_pages"

    @extend_schema(request=PagesIn, responses={202: JobAcceptedOut},
                   summary="Ingest found pages as evidence of a task, as a job",
                   description="The pages are checked and queued; the job (its URL in the "
                   "answer) counts pages done and ends with `created` and `skipped` chunks. "
                   "Chunked (100-500 characters), duplicates skipped by URL, content hash and "
                   "cosine >= 0.95; strength from goal alignment with the task (0.30 to 0.95, "
                   "low alignment lowers it, never drops the chunk).")  # fmt: skip
    def post(self, request, task: str):
        data = validated(request, PagesIn)
        job = page_ingest.check_pages_ingest_start(request.auth, task=task, pages=data["pages"])
        return job_accepted(job)


class SynthesisApi(WriteApi):
    refusal_kind = "evidence_synthesis"

    @extend_schema(request=SynthesisIn, responses={201: EvidenceOut},
                   summary="Write a summary evidence node that SUPERSEDES its sources",
                   description="The sources stay for provenance and leave the context.")  # fmt: skip
    def post(self, request):
        data = validated(request, SynthesisIn)
        return Response(evidence.check_evidence_synthesize(request.auth, **data), status=201)


class EvidenceDetailApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(responses=EvidenceDetailOut,
                   summary="One evidence node (uid or short id) with its provenance")  # fmt: skip
    def get(self, request, evidence_id: str):
        return Response(selectors.evidence_detail(request.auth, evidence=evidence_id))


class SimilaritySyncApi(WriteApi):
    refusal_kind = "similarity_sync"

    @extend_schema(request=None, responses={202: JobAcceptedOut},
                   summary="Sync SIMILAR_TO edges of tasks and evidence now, as a job",
                   description="Also runs by itself once writes have settled.")  # fmt: skip
    def post(self, request):
        body_checked(request)
        return job_accepted(similarity_sync_start(request.auth))
