"""Every page has a favicon: ours link the SVG, and /favicon.ico (asked for by pages without the
link, such as the admin) leads to it instead of a 404."""

from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client


def test_favicon_ico_leads_to_the_svg_that_is_shipped(db):
    response = Client().get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == static("favicon.svg")
    path = finders.find("favicon.svg")
    assert path and "<svg" in open(path, encoding="utf-8").read()


def test_pages_link_the_favicon(db):
    login = Client().get("/accounts/login/").content.decode()
    assert f'<link rel="icon" href="{static("favicon.svg")}"' in login
