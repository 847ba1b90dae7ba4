"""A request's path is short enough to read: the app modules whose code runs between the URL and
the answer, for the two walks the house style names (a document sent, a reviewer's confirm).
Shared plumbing every request crosses (memoryproject/, the graph execution layer, the tenant's
auth, throttles, models and template filters) is listed apart and not counted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from django.urls import get_resolver

from apps.tenants.models import Role
from tests.conftest import scope_for
from tests.review.review_fixtures import anthropic_pair, pending_pairs

ROOT = Path(__file__).resolve().parent.parent
MAX_FILES = 5
# A reviewer's confirm also merges values (entity_values), keeps its undo record (merge_records),
# counts toward the tenant's model learning (tenant_model, job queue) and raises the graph version
# (insights): steps of its own, each one call from merges.py or services.py.
MAX_CONFIRM_FILES = 8
PLUMBING = ("memoryproject/", "apps/graph/", "apps/tenants/auth.py", "apps/tenants/models.py",
            "apps/tenants/middleware.py", "apps/tenants/roles.py", "apps/tenants/throttles.py",
            "apps/tenants/templatetags/")  # fmt: skip


def walked(request) -> tuple[list[str], list[str]]:
    """(app modules, plumbing) whose functions ran during `request()`, in first-call order."""
    seen: dict[str, None] = {}
    _ = get_resolver().url_patterns  # the URLconf (every app's api and views) imported beforehand

    def profile(frame, event, _arg):
        # A module's own code runs once, when it is first imported: not a step of the request.
        if event == "call" and frame.f_code.co_name != "<module>":
            path = frame.f_code.co_filename
            if path.startswith(str(ROOT)) and "/tests/" not in path and "/.venv/" not in path:
                seen.setdefault(Path(path).relative_to(ROOT).as_posix(), None)

    sys.setprofile(profile)
    try:
        response = request()
    finally:
        sys.setprofile(None)
    assert response.status_code in (200, 202), response.content[:300]
    files = [f for f in seen if f.startswith("apps/") and not f.startswith(PLUMBING)]
    return files, [f for f in seen if f not in files]


def test_a_document_reaches_its_202_through_five_files_at_most(api_client):
    files, plumbing = walked(lambda: api_client.post(
        "/api/v1/documents", {"content": "Ada Lovelace wrote notes.", "source": "notes"},
        format="json",
    ))  # fmt: skip
    print("walk:", files, "plumbing:", plumbing)
    assert len(files) <= MAX_FILES, files


@pytest.mark.parametrize("how", ["api", "page"])
def test_a_reviewers_confirm_goes_through_eight_files_at_most(tenant, make_api_client,
                                                             make_person, client, how):  # fmt: skip
    anthropic_pair(scope_for(tenant))
    [pair] = pending_pairs(scope_for(tenant))
    if how == "api":
        api = make_api_client(tenant, scopes=["memory:read", "review"])
        files, plumbing = walked(lambda: api.post(f"/api/v1/reviews/{pair['uid']}/confirm"))
    else:
        person = make_person(tenant, Role.REVIEWER)
        client.login(username=person.username, password=person.raw_password)
        files, plumbing = walked(lambda: client.post(
            f"/review/pairs/{pair['uid']}/confirm", HTTP_HX_REQUEST="true"
        ))  # fmt: skip
    print("walk:", files, "plumbing:", plumbing)
    # The page also reads the next pair to show (the review selectors).
    assert len(files) <= MAX_CONFIRM_FILES + (how == "page"), files
