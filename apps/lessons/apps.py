from django.apps import AppConfig


class LessonsConfig(AppConfig):
    name = "apps.lessons"
    label = "lessons"
