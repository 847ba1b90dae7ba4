"""API of tasks: create (one or a batch), read, patch, the ready set, claim, release, finish."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.tasks import context, selectors
from apps.tasks.api.answers import ReadyOut, TaskDetailOut
from apps.tasks.services import claims
from apps.tasks.services.task_writes import (
    MAX_ANTIFOCUS_CHARS,
    MAX_DEPENDS_ON,
    MAX_DESCRIPTION_CHARS,
    MAX_EMBED_TEXT_CHARS,
    MAX_KIND_CHARS,
    MAX_OPS,
    MAX_PROMPT_CHARS,
    TaskCreate,
    TaskPatch,
    check_tasks_apply,
)
from apps.tenants.models import KeyScope
from memoryproject.api_errors import StrictSerializer
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import body_checked, query_params, validated

TASK_ID = {"max_length": 64}


def _ids(**kwargs) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.CharField(**TASK_ID), max_length=MAX_DEPENDS_ON, required=False,
        **kwargs,
    )  # fmt: skip


class TaskCreateIn(StrictSerializer):
    description = serializers.CharField(max_length=MAX_DESCRIPTION_CHARS)
    embed_text = serializers.CharField(required=False, max_length=MAX_EMBED_TEXT_CHARS)
    kind = serializers.CharField(required=False, max_length=MAX_KIND_CHARS)
    parent = serializers.CharField(required=False, **TASK_ID)
    depends_on = _ids()
    prepared_prompt = serializers.CharField(required=False, max_length=MAX_PROMPT_CHARS)
    antifocus = serializers.CharField(required=False, max_length=MAX_ANTIFOCUS_CHARS,
                                      help_text="What the task's context leaves out, by meaning")  # fmt: skip


class TaskPatchIn(StrictSerializer):
    description = serializers.CharField(
        help_text="what is to be done", required=False, max_length=MAX_DESCRIPTION_CHARS
    )
    embed_text = serializers.CharField(
        help_text="the text embedded for similarity (default: description)",
        required=False,
        max_length=MAX_EMBED_TEXT_CHARS,
    )
    kind = serializers.CharField(help_text="its queue", required=False, max_length=MAX_KIND_CHARS)
    parent = serializers.CharField(help_text="the parent task (id)", required=False, **TASK_ID)
    add_depends_on = _ids(help_text="tasks (ids) it now also waits for")
    prepared_prompt = serializers.CharField(
        help_text="the prompt the claimer starts from", required=False, max_length=MAX_PROMPT_CHARS
    )
    antifocus = serializers.CharField(required=False, max_length=MAX_ANTIFOCUS_CHARS,
                                      help_text="What the task's context leaves out, by meaning")  # fmt: skip


class TaskOpIn(StrictSerializer):
    op = serializers.ChoiceField(
        help_text="create a task, or patch one", choices=["create", "patch"]
    )
    ref = serializers.CharField(
        help_text="your name for a created task, for later ops of the batch",
        required=False,
        **TASK_ID,
    )
    task = serializers.CharField(
        help_text="the task (id or ref) a patch changes", required=False, **TASK_ID
    )
    description = serializers.CharField(
        help_text="what is to be done", required=False, max_length=MAX_DESCRIPTION_CHARS
    )
    embed_text = serializers.CharField(
        help_text="the text embedded for similarity (default: description)",
        required=False,
        max_length=MAX_EMBED_TEXT_CHARS,
    )
    kind = serializers.CharField(help_text="its queue", required=False, max_length=MAX_KIND_CHARS)
    parent = serializers.CharField(
        help_text="the parent task (id or ref)", required=False, **TASK_ID
    )
    depends_on = _ids(help_text="with create: tasks (ids or refs) it waits for")
    add_depends_on = _ids(help_text="with patch: tasks (ids or refs) it now also waits for")
    prepared_prompt = serializers.CharField(
        help_text="the prompt the claimer starts from", required=False, max_length=MAX_PROMPT_CHARS
    )
    antifocus = serializers.CharField(required=False, max_length=MAX_ANTIFOCUS_CHARS,
                                      help_text="What the task's context leaves out, by meaning")  # fmt: skip

    def validate(self, data):
        if data["op"] == "create" and ("description" not in data or "task" in data):
            raise serializers.ValidationError("create takes a description and no task.")
        if data["op"] == "patch" and ("task" not in data or "depends_on" in data):
            raise serializers.ValidationError("patch names its task and adds add_depends_on.")
        return data


class TaskBatchIn(StrictSerializer):
    ops = serializers.ListField(
        help_text="creates and patches, applied in order in one transaction",
        child=TaskOpIn(),
        min_length=1,
        max_length=MAX_OPS,
    )


@extend_schema_serializer(component_name="TaskReceiptOut")  # apps/timeline has a ReceiptOut
class ReceiptOut(serializers.Serializer):
    op = serializers.CharField()
    id = serializers.CharField(help_text="The short id (t-a3f1) to quote")
    uid = serializers.CharField()
    ref = serializers.CharField(allow_null=True)


class BatchOut(serializers.Serializer):
    results = ReceiptOut(many=True)


class ReadyFilters(StrictSerializer):
    kind = serializers.CharField(required=False, max_length=MAX_KIND_CHARS)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=selectors.MAX_READY)


class ClaimIn(StrictSerializer):
    kind = serializers.CharField(required=False, max_length=MAX_KIND_CHARS, default="default")
    lease_seconds = serializers.IntegerField(min_value=1, max_value=claims.MAX_LEASE_SECONDS)


class ClaimOut(serializers.Serializer):
    task = serializers.DictField(allow_null=True)


class FinishIn(StrictSerializer):
    result_summary = serializers.CharField(max_length=claims.MAX_RESULT_CHARS)


class StatusOut(serializers.Serializer):
    uid = serializers.CharField()
    id = serializers.CharField()
    status = serializers.CharField()


def _op(data: dict):
    op = data.pop("op")
    for name in ("depends_on", "add_depends_on"):
        if name in data:
            data[name] = tuple(data[name])
    return TaskCreate(**data) if op == "create" else TaskPatch(**data)


class WriteApi(RecordsRefusals, APIView):
    required_scope = KeyScope.MEMORY_WRITE


class TasksApi(WriteApi):
    refusal_kind = "tasks"

    @extend_schema(request=TaskCreateIn, responses={201: ReceiptOut}, summary="Create a task",
                   description="PENDING; ready once every task it depends on is DONE. parent "
                   "and depends_on name existing tasks by uid or short id.")  # fmt: skip
    def post(self, request):
        data = validated(request, TaskCreateIn)
        data["depends_on"] = tuple(data.get("depends_on", ()))
        return Response(check_tasks_apply(request.auth, ops=[TaskCreate(**data)])[0], status=201)


class TaskBatchApi(WriteApi):
    refusal_kind = "tasks"

    @extend_schema(request=TaskBatchIn, responses={200: BatchOut},
                   summary="Apply creates and patches in one transaction",
                   description="All or none: a batch that would make a SUBTASK_OF or DEPENDS_ON "
                   "cycle is refused (409, code `cycle`, the cycle in `cycle`). Operations may "
                   "name tasks created earlier in the batch by their `ref`.")  # fmt: skip
    def post(self, request):
        data = validated(request, TaskBatchIn)
        ops = [_op(dict(op)) for op in data["ops"]]
        return Response({"results": check_tasks_apply(request.auth, ops=ops)})


class TaskDetailApi(RecordsRefusals, APIView):
    refusal_kind = "tasks"

    @property
    def required_scope(self) -> str:
        method = getattr(getattr(self, "request", None), "method", "PATCH")
        return KeyScope.MEMORY_READ if method == "GET" else KeyScope.MEMORY_WRITE

    @extend_schema(responses=TaskDetailOut,
                   summary="One task (uid or short id) with edges, claims and evidence")  # fmt: skip
    def get(self, request, task: str):
        return Response(selectors.task_detail(request.auth, task=task))

    @extend_schema(request=TaskPatchIn, responses={200: ReceiptOut}, summary="Change an open task",
                   description="A DONE or FAILED task is a 409 (code `task_immutable`).")  # fmt: skip
    def patch(self, request, task: str):
        data = validated(request, TaskPatchIn)
        data["add_depends_on"] = tuple(data.get("add_depends_on", ()))
        receipt = check_tasks_apply(request.auth, ops=[TaskPatch(task=task, **data)])[0]
        return Response(receipt)


class ReadyApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(parameters=[ReadyFilters], responses=ReadyOut,
                   summary="The ready set: PENDING tasks whose dependencies are all DONE")  # fmt: skip
    def get(self, request):
        query = validated(request, ReadyFilters, data=query_params(request))
        rows = selectors.ready_set(request.auth, kind=query.get("kind"),
                                   limit=query.get("limit", 50))  # fmt: skip
        return Response({"results": rows})


class ClaimApi(WriteApi):
    refusal_kind = "task_claim"

    @extend_schema(request=ClaimIn, responses={200: ClaimOut},
                   summary="Claim the oldest free task of a kind, with a lease",
                   description="`task` is null when none is free. After the lease runs out "
                   "another agent may claim it; then the first can no longer finish it.")  # fmt: skip
    def post(self, request):
        data = validated(request, ClaimIn)
        return Response({"task": claims.check_task_claim(request.auth, **data)})


class ReleaseApi(WriteApi):
    refusal_kind = "task_release"

    @extend_schema(request=None, responses={200: StatusOut}, summary="Give a claimed task back")
    def post(self, request, task: str):
        body_checked(request)
        return Response(claims.check_task_release(request.auth, task=task))


class FinishApi(WriteApi):
    refusal_kind = "task_finish"
    status = "DONE"

    @extend_schema(request=FinishIn, responses={200: StatusOut},
                   summary="Finish a task the caller holds (DONE or FAILED, by route)")  # fmt: skip
    def post(self, request, task: str):
        data = validated(request, FinishIn)
        return Response(claims.check_task_finish(request.auth, task=task, status=self.status,
                                                 **data))  # fmt: skip


class FailApi(FinishApi):
    status = "FAILED"


class ContextIn(StrictSerializer):
    token_budget = serializers.IntegerField(required=False, min_value=1,
                                            max_value=context.MAX_TOKEN_BUDGET, default=4000)  # fmt: skip
    limit = serializers.IntegerField(required=False, min_value=1, max_value=context.MAX_ITEMS,
                                     default=30)  # fmt: skip


class ContextItemOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["task", "evidence"])
    id = serializers.CharField()
    uid = serializers.CharField()
    text = serializers.CharField()
    score = serializers.FloatField()
    tokens = serializers.IntegerField()
    strength = serializers.FloatField(allow_null=True)
    status = serializers.CharField(allow_null=True)
    source = serializers.CharField(allow_null=True)
    why = serializers.DictField(
        help_text="{seed: 'dependency'|'ancestor'|null, path: [id, EDGE, id, ...]}"
    )


class ContextOut(serializers.Serializer):
    task = serializers.CharField()
    antifocus_excluded = serializers.ListField(
        child=serializers.CharField(), help_text="ids left out for their closeness to the "
        "task's antifocus")  # fmt: skip
    seeds = serializers.ListField(child=serializers.CharField())
    items = ContextItemOut(many=True)
    tokens = serializers.IntegerField()
    token_budget = serializers.IntegerField()


class ContextApi(APIView):
    """A read (memory:read) sent as POST, like the conversations' context."""

    required_scope = KeyScope.MEMORY_READ

    @extend_schema(request=ContextIn, responses={200: ContextOut},
                   summary="Context for a task by Personalized PageRank over the work graph",
                   description="Seeded from the task, its dependencies and its ancestors; tasks and evidence that "
                   "are not superseded, best first, within `token_budget` (about 4 characters a "
                   "token), each with why it was chosen: a seed, or the path from one. 413 "
                   "`graph_too_large` over the GRAPH_ALGORITHMS bounds.")  # fmt: skip
    def post(self, request, task: str):
        data = validated(request, ContextIn)
        return Response(context.task_context(request.auth, task=task, **data))
