"""The documentation site: every route of the URL conf has an entry in docs/reference/, the site
builds offline with no warning, and the README stays a front door (short, links that resolve)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, path, re_path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REFERENCE = DOCS / "reference"
README_MAX_LINES = 200

# Skipped: Django's admin, a site of its own whose routes Django documents. Nothing else is
# skipped: static files are served by whitenoise outside the URL conf, no debug toolbar is
# installed, and every page and htmx fragment is a route a reader may meet.
SKIPPED_PREFIXES = ("/admin/",)

_CONVERTER = re.compile(r"<(?:\w+:)?(\w+)>")
_REGEX_GROUP = re.compile(r"\(\?P<(\w+)>[^)]*\)")
_VERB = r"(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)"
_METHOD = re.compile(rf"^{_VERB}(?:\s*/\s*{_VERB})*\s+")  # `GET`, `POST / GET`
_CODE_SPAN = re.compile(r"`([^`\n]+)`")


@pytest.fixture(autouse=True)
def graph_schema_installed():
    """Overrides conftest's session fixture of this name: these tests need no Neo4j."""


def _route_text(pattern) -> str:
    """One URL pattern as the docs write it: `<str:uid>` and `(?P<uid>...)` become `{uid}`."""
    text = str(pattern)
    if hasattr(pattern, "regex") and text.startswith("^"):
        text = text.lstrip("^").rstrip("$").replace("\\Z", "")
        text = _REGEX_GROUP.sub(r"{\1}", text)
    return _CONVERTER.sub(r"{\1}", text)


def url_routes(patterns, prefix: str = "/") -> list[str]:
    """Every route of a URL conf, walked recursively, as `/path/{param}` strings."""
    routes = []
    for entry in patterns:
        here = prefix + _route_text(entry.pattern)
        if isinstance(entry, URLResolver):
            routes.extend(url_routes(entry.url_patterns, here))
        elif isinstance(entry, URLPattern):
            routes.append(here)
    return routes


def documented_routes(pages: list[Path]) -> set[str]:
    """Paths written in backticks in the pages, an HTTP method and a query string allowed."""
    found = set()
    for page in pages:
        for span in _CODE_SPAN.findall(page.read_text()):
            text = _METHOD.sub("", span.strip()).split("?", 1)[0].strip()
            if text.startswith("/"):
                found.add(text)
    return found


def undocumented(routes: list[str], pages: list[Path]) -> list[str]:
    written = documented_routes(pages)
    return sorted({r for r in routes if not r.startswith(SKIPPED_PREFIXES) and r not in written})


def reference_pages() -> list[Path]:
    return sorted(REFERENCE.glob("*.md"))


def test_every_route_of_the_url_conf_is_in_the_reference():
    routes = url_routes(get_resolver().url_patterns)
    assert len(routes) > 100  # the walk reached the apps' routes, not just the top level
    missing = undocumented(routes, reference_pages())
    assert not missing, "routes with no entry in docs/reference/*.md:\n" + "\n".join(missing)


def _planted_view(request):  # a view for the planted route below; never called
    raise AssertionError


urlpatterns = [
    path("api/v1/planted/<str:uid>/undocumented", _planted_view),
    path("api/v1/health", _planted_view),
    re_path(r"^planted/(?P<uid>[0-9a-f]{32})/$", _planted_view),
]


@pytest.mark.urls(__name__)
def test_a_planted_undocumented_route_is_reported():
    routes = url_routes(get_resolver().url_patterns)
    assert routes == ["/api/v1/planted/{uid}/undocumented", "/api/v1/health", "/planted/{uid}/"]
    assert undocumented(routes, reference_pages()) == [
        "/api/v1/planted/{uid}/undocumented",
        "/planted/{uid}/",
    ]


def test_route_forms_the_checker_reads(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "| GET | `/api/v1/a/{uid}` |\n`POST /api/v1/b?wait=true` and `POST / GET /api/v1/c`\n"
        "`/d/{key}/` and `not/a/route`\n"
    )
    assert documented_routes([page]) == {"/api/v1/a/{uid}", "/api/v1/b", "/api/v1/c", "/d/{key}/"}
    assert undocumented(["/api/v1/a/{uid}", "/api/v1/a/{id}", "/admin/x/"], [page]) == [
        "/api/v1/a/{id}"
    ]


def test_the_site_builds_strict_and_offline(tmp_path):
    site = tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},  # Material's end-of-life banner
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    assert "WARNING" not in build.stderr.upper(), build.stderr
    pages = list(site.rglob("*.html"))
    assert len(pages) > 30
    remote = re.compile(r"""(?:src|href)=["']?(?:https?:)?//(?!127\.0\.0\.1|localhost)""")
    loaded = [p.name for p in pages if remote.search(_asset_tags(p.read_text()))]
    assert not loaded, f"pages that load a remote asset: {loaded}"


def _asset_tags(html: str) -> str:
    """Only the tags that make a browser fetch something (links in text are fine)."""
    return " ".join(re.findall(r"<(?:script|link|img|iframe)\b[^>]*>", html))


_MD_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def _relative_links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    links = [a or b for a, b in _MD_LINK.findall(text)]
    return [t for t in links if not re.match(r"^[a-z]+:|^#|^/", t)]


def test_the_readme_is_short():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


@pytest.mark.parametrize(
    "page",
    [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_relative_links_resolve(page):
    broken = []
    for target in _relative_links(page):
        file = target.split("#", 1)[0]
        if file and not (page.parent / file).exists():
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: links to nothing: {broken}"


def test_a_broken_relative_link_is_found(tmp_path):
    (tmp_path / "there.md").write_text("# There\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](there.md#top) [gone](missing.md) [web](https://example.org) [anchor](#x)\n"
        "```\n[in code](nowhere.md)\n```\n"
    )
    links = _relative_links(page)
    assert links == ["there.md#top", "missing.md"]
    assert [t for t in links if not (page.parent / t.split("#")[0]).exists()] == ["missing.md"]
