"""In Debian's chromium, with a demo tenant's data: axe-core (vendored from npm, injected by this
test only; no page serves it) finds no serious or critical accessibility violation on any page
route the width test reaches (tests/browser/test_page_width_browser.py walks the same links), at
1366x900 and at 1920x1080 (each page loaded once and checked at both sizes: the layout is CSS
media queries, which a resize re-applies)."""

from pathlib import Path

import pytest

from memoryproject.urls import pages
from tests.browser.test_page_width_browser import (
    NO_DEMO_LINK,
    NOT_PAGES,
    SIZES,
    admin_with_demo_data,
    page_walk,
)
from tests.conftest import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
AXE = ROOT / "static" / "vendor" / "axe-core-4.14.1.min.js"
BLOCKING = ("serious", "critical")
# axe's rules for WCAG 2.x A and AA plus its best practices (landmarks, one h1, regions).
AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}


def axe_violations(page) -> list[dict]:
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(Path(AXE)))
    found = page.evaluate("options => axe.run(document, options)", AXE_OPTIONS)["violations"]
    return [v for v in found if v["impact"] in BLOCKING]


def test_no_page_has_a_serious_accessibility_violation(live_server, page, tenant, make_person):
    admin_with_demo_data(page, live_server, tenant, make_person)
    problems: list[str] = []

    def visit(page, path):
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            for violation in axe_violations(page):
                targets = [" ".join(map(str, n["target"])) for n in violation["nodes"][:3]]
                problems.append(
                    f"{path} at {width}: {violation['id']} ({violation['impact']}, "
                    f"{len(violation['nodes'])} elements, e.g. {targets}): {violation['help']}"
                )

    seen = page_walk(page, live_server, visit)

    missing = {p.name for p in pages} - NOT_PAGES - NO_DEMO_LINK - set(seen)
    assert missing == set(), f"page routes no link reached: {sorted(missing)}"
    assert problems == [], "\n".join(problems)
