"""One decision for htmx: a full page on a normal request, only the fragment on an htmx one."""

from django.shortcuts import render


def render_page_or_fragment(request, page: str, fragment: str, context: dict, status: int = 200):
    template = fragment if getattr(request, "htmx", False) else page
    return render(request, template, context, status=status)
