from django.apps import AppConfig


class TimelineConfig(AppConfig):
    name = "apps.timeline"
    label = "timeline"
