"""No API routes yet: export, import and deletion of a whole tenant are console actions of a
signed-in tenant admin (a session and its CSRF token), not of an agent's API key. An API for them
would go here, calling the same services as apps/tenant_data/views.py."""
