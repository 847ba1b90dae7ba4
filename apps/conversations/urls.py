"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

api_urlpatterns: list = []
urlpatterns: list = []
