"""``init_chat_model("openai:gpt-4o-mini")``. Mirrors ``langchain/chat_models/base.py``.

langchain 1.5.2. The provider is the text before the first ``:`` when it names a known
provider, else it is inferred from the model name (``gpt-...`` -> ``openai``). The miniature
has one provider, ``openai`` (``miniagent.openai.ChatOpenAI``, which also serves Ollama,
vLLM, DeepSeek, Qwen & co. through ``base_url``); the other known providers are recognised,
so the errors for unknown ones read as upstream's, but cannot be built.

Left out: ``configurable_fields`` / ``config_prefix`` (upstream's ``_ConfigurableModel``),
so ``model`` is required.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from miniagent.models import BaseChatModel


def _call(cls: type[BaseChatModel], **kwargs: Any) -> BaseChatModel:
    return cls(**kwargs)


_IN_MINIATURE = {"openai": ("miniagent.openai", "ChatOpenAI", _call)}

_UPSTREAM_ONLY = {
    "anthropic": "ChatAnthropic",
    "anthropic_bedrock": "ChatAnthropicBedrock",
    "azure_ai": "AzureAIOpenAIApiChatModel",
    "azure_openai": "AzureChatOpenAI",
    "baseten": "ChatBaseten",
    "bedrock": "ChatBedrock",
    "bedrock_converse": "ChatBedrockConverse",
    "bedrock_mantle_anthropic": "ChatAnthropicMantle",
    "bedrock_mantle_openai": "ChatOpenAIMantle",
    "cohere": "ChatCohere",
    "deepseek": "ChatDeepSeek",
    "fireworks": "ChatFireworks",
    "google_anthropic_vertex": "ChatAnthropicVertex",
    "google_genai": "ChatGoogleGenerativeAI",
    "google_vertexai": "ChatVertexAI",
    "groq": "ChatGroq",
    "huggingface": "ChatHuggingFace",
    "ibm": "ChatWatsonx",
    "langsmith": "ChatOpenAI",
    "litellm": "ChatLiteLLM",
    "meta": "ChatMetaModel",
    "mistralai": "ChatMistralAI",
    "nvidia": "ChatNVIDIA",
    "ollama": "ChatOllama",
    "openrouter": "ChatOpenRouter",
    "perplexity": "ChatPerplexity",
    "together": "ChatTogether",
    "upstage": "ChatUpstage",
    "xai": "ChatXAI",
}


def _not_in_miniature(class_name: str) -> Callable[..., BaseChatModel]:
    def creator(cls: Any = None, **kwargs: Any) -> BaseChatModel:
        msg = (
            f"miniagent has no {class_name}: its one provider is 'openai'. An OpenAI-compatible "
            "server (Ollama, vLLM, DeepSeek, Qwen, ...) works as 'openai:<model>' with "
            "base_url (or OPENAI_BASE_URL) set."
        )
        raise NotImplementedError(msg)

    return creator


_BUILTIN_PROVIDERS: dict[str, tuple[str | None, str, Callable[..., BaseChatModel]]] = {
    name: _IN_MINIATURE.get(name) or (None, class_name, _not_in_miniature(class_name))
    for name, class_name in sorted({**_UPSTREAM_ONLY, "openai": "ChatOpenAI"}.items())
}
"""Provider -> (module, class, creator), upstream's keys in upstream's order (``base.py:56``).

Only ``openai`` has a module; the others raise ``NotImplementedError`` when built.
"""


def _import_module(module: str, class_name: str) -> ModuleType:
    """Import ``module``; if it is missing, name the package to install (``base.py:125``)."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        pkg = module.split(".", maxsplit=1)[0].replace("_", "-")
        msg = (
            f"Initializing {class_name} requires the {pkg} package. Please install it "
            f"with `pip install {pkg}`"
        )
        raise ImportError(msg) from e


@functools.lru_cache(maxsize=len(_BUILTIN_PROVIDERS))
def _get_chat_model_creator(provider: str) -> Callable[..., BaseChatModel]:
    """The function that builds ``provider``'s chat model (``base.py:153``)."""
    if provider not in _BUILTIN_PROVIDERS:
        supported = ", ".join(_BUILTIN_PROVIDERS.keys())
        msg = f"Unsupported {provider=}.\n\nSupported model providers are: {supported}"
        raise ValueError(msg)
    pkg, class_name, creator_func = _BUILTIN_PROVIDERS[provider]
    if pkg is None:
        return creator_func
    module = _import_module(pkg, class_name)
    cls = getattr(module, class_name)
    return functools.partial(creator_func, cls=cls)


# --8<-- [start:init_chat_model]
def init_chat_model(
    model: str | None = None, *, model_provider: str | None = None, **kwargs: Any
) -> BaseChatModel:
    """A chat model from ``"provider:model"`` (or a model name whose provider can be
    inferred) and the model's own arguments (``base.py:232``).

    ``init_chat_model("openai:gpt-4o-mini", temperature=0)`` is
    ``ChatOpenAI(model="gpt-4o-mini", temperature=0)``.
    """
    if model is not None and not isinstance(model, str):
        msg = (
            f"`model` must be a string (e.g., 'openai:gpt-5.5'), got "
            f"{type(model).__name__}. If you've already constructed a chat model "
            f"object, use it directly instead of passing it to init_chat_model()."
        )
        raise TypeError(msg)
    if not model:
        msg = "miniagent's init_chat_model needs a model: it has no configurable model"
        raise NotImplementedError(msg)
    return _init_chat_model_helper(model, model_provider=model_provider, **kwargs)


# --8<-- [end:init_chat_model]


def _init_chat_model_helper(
    model: str, *, model_provider: str | None = None, **kwargs: Any
) -> BaseChatModel:
    """Parse, pick the creator, build (``base.py:536``)."""
    model, model_provider = _parse_model(model, model_provider)
    creator_func = _get_chat_model_creator(model_provider)
    return creator_func(model=model, **kwargs)


def _attempt_infer_model_provider(model_name: str) -> str | None:
    """The provider a model name implies, if any (``base.py:547``)."""
    model_lower = model_name.lower()
    if any(model_lower.startswith(pre) for pre in ("gpt-", "o1", "o3", "chatgpt", "text-davinci")):
        return "openai"
    if model_lower.startswith("claude"):
        return "anthropic"
    if model_lower.startswith("command"):
        return "cohere"
    if model_lower.startswith("accounts/fireworks"):
        return "fireworks"
    if model_lower.startswith("gemini"):
        return "google_vertexai"
    if model_lower.startswith(("amazon.", "anthropic.", "meta.")):
        return "bedrock"
    if model_lower.startswith(("mistral", "mixtral")):
        return "mistralai"
    if model_lower.startswith("deepseek"):
        return "deepseek"
    if model_lower.startswith("grok"):
        return "xai"
    if model_lower.startswith("sonar"):
        return "perplexity"
    if model_lower.startswith("solar"):
        return "upstage"
    return None


# --8<-- [start:parse_model]
def _parse_model(model: str, model_provider: str | None) -> tuple[str, str]:
    """``"openai:gpt-4o-mini"`` -> ``("gpt-4o-mini", "openai")`` (``base.py:614``).

    Only a known provider before the first ``:`` counts (the rest keeps its colons:
    ``"openai:ft:gpt-4o-mini:org:x"``); otherwise the provider is inferred from the name.
    Upstream also warns when it infers ``google_vertexai``.
    """
    if (
        not model_provider
        and ":" in model
        and model.split(":", maxsplit=1)[0] in _BUILTIN_PROVIDERS
    ):
        model_provider = model.split(":", maxsplit=1)[0]
        model = ":".join(model.split(":")[1:])
    if not model_provider:
        model_provider = _attempt_infer_model_provider(model)
    if not model_provider:
        supported_list = ", ".join(sorted(_BUILTIN_PROVIDERS))
        msg = (
            f"Unable to infer model provider for {model=}. "
            f"Please specify 'model_provider' directly.\n\n"
            f"Supported providers: {supported_list}\n\n"
            f"For help with specific providers, see: "
            f"https://docs.langchain.com/oss/python/integrations/providers"
        )
        raise ValueError(msg)
    model_provider = model_provider.replace("-", "_").lower()
    return model, model_provider


# --8<-- [end:parse_model]
