"""The OpenAI-compatible chat endpoints (memoryproject/chat_completions.py) of the optional LLM
features, each off while its URL is empty. A URL is the /v1 base. (The ingestion extractor's
endpoint stays in settings.py beside its extractor choice.)"""

import os

# The knowledge extractor `llm` (apps/knowledge/extractors.py).
KNOWLEDGE_LLM_URL = os.environ.get("KNOWLEDGE_LLM_URL", "")  # an OpenAI-compatible /v1 base URL
KNOWLEDGE_LLM_MODEL = os.environ.get("KNOWLEDGE_LLM_MODEL", "")
KNOWLEDGE_LLM_API_KEY = os.environ.get("KNOWLEDGE_LLM_API_KEY", "")

# The entry extractor `llm` (apps/timeline/entry_extractors.py).
ENTRY_LLM_URL = os.environ.get("ENTRY_LLM_URL", "")  # an OpenAI-compatible /v1 base URL
ENTRY_LLM_MODEL = os.environ.get("ENTRY_LLM_MODEL", "gpt-4o-mini")
ENTRY_LLM_API_KEY = os.environ.get("ENTRY_LLM_API_KEY", "")

# Declared promotion rules of kind `llm` (apps/lessons/services/llm_rule.py).
PROMOTION_LLM_URL = os.environ.get("PROMOTION_LLM_URL", "")  # an OpenAI-compatible /v1 base URL
PROMOTION_LLM_MODEL = os.environ.get("PROMOTION_LLM_MODEL", "gpt-4o-mini")
PROMOTION_LLM_API_KEY = os.environ.get("PROMOTION_LLM_API_KEY", "")
# The optional judge of corroboration between evidence of independent sources (apps/tasks/
# corroboration.py): "supports / contradicts / neither"; without it agreement is by meaning.
CORROBORATION_LLM_URL = os.environ.get("CORROBORATION_LLM_URL", "")
CORROBORATION_LLM_MODEL = os.environ.get("CORROBORATION_LLM_MODEL", "gpt-4o-mini")
CORROBORATION_LLM_API_KEY = os.environ.get("CORROBORATION_LLM_API_KEY", "")
