"""docs/reference/mcp.md lists exactly the tools each profile serves (to a key with every
scope), in the profile's `Tools (N)` line and in the count of the profiles table, and the
aliases table is the one the tools take."""

from __future__ import annotations

import re

import pytest

from apps.mcp_server.arguments import ALIASES
from apps.mcp_server.profiles import PROFILES
from tests.conftest import ROOT
from tests.mcp_server.conftest import key_issue, over_http
from tests.mcp_server.test_schemas import EVERY_SCOPE

pytestmark = pytest.mark.django_db(transaction=True)
DOC = ROOT / "docs" / "reference" / "mcp.md"


def documented() -> tuple[dict[str, list[str]], dict[str, int]]:
    """{profile: the names of its `Tools (N):` line} and {profile: N} of the profiles table."""
    text = DOC.read_text(encoding="utf-8")
    lists = {}
    for section in re.split(r"\n### ", text)[1:]:
        profile = re.match(r"`(\w+)`", section).group(1)
        found = re.search(r"\nTools \((\d+)\): (.*?)\.\n", section, flags=re.S)
        assert found, f"no Tools (N) line under ### `{profile}`"
        names = re.findall(r"`(\w+)`", found.group(2))
        assert int(found.group(1)) == len(names), profile
        lists[profile] = names
    counts = {m.group(1): int(m.group(2))
              for m in re.finditer(r"^\| `(\w+)` \| [^|]+ \| (\d+) \|$", text, flags=re.M)}  # fmt: skip
    return lists, counts


def test_the_docs_list_the_tools_each_profile_serves(live_asgi, tenant):
    raw = key_issue(tenant, scopes=EVERY_SCOPE)

    async def steps(client):
        return [tool.name for tool in (await client.list_tools()).tools]

    lists, counts = documented()
    assert set(lists) == set(counts) == set(PROFILES)
    for profile in PROFILES:
        served = over_http(live_asgi, raw, steps, profile=profile)
        assert sorted(lists[profile]) == sorted(served), profile
        assert counts[profile] == len(served), profile


def test_the_docs_aliases_table_is_the_one_the_tools_take():
    text = DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| `([\w`, ]+)` \([^)]*\) \| `(\w+)` \| alias", text,
                      flags=re.M)  # fmt: skip
    table = {(tool, alias.strip("` "), ours) for tool, aliases, ours in rows
             for alias in aliases.split(",")}  # fmt: skip
    assert table == {(tool, alias, ours) for tool, names in ALIASES.items()
                     for alias, ours in names.items()}  # fmt: skip
