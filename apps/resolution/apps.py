from django.apps import AppConfig


class ResolutionConfig(AppConfig):
    name = "apps.resolution"
    label = "resolution"
