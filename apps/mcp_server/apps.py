from django.apps import AppConfig


class McpServerConfig(AppConfig):
    name = "apps.mcp_server"
    label = "mcp_server"
