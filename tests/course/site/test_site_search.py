"""The Chinese edition's search keeps each term of the terms table as one word (issue #23).

mkdocs-material's search plugin cuts Chinese into words with jieba at build time; the hooks write
a jieba user dictionary from ``src/miniagent_course/text/terms.zh.toml`` where ``mkdocs.zh.yml``'s
``jieba_dict_user`` names it, before the search plugin loads it. (The built index is checked in
test_site_build.py, on the build it makes anyway.)
"""

from __future__ import annotations

import io
import logging
import re
import sys
from pathlib import Path

import pytest

from miniagent_course.site import hooks
from miniagent_course.text import TEXT_DIR

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[3]


def test_the_dictionary_holds_every_chinese_rendering_of_the_terms_table():
    table = tomllib.loads((TEXT_DIR / "terms.zh.toml").read_text(encoding="utf-8"))["terms"]
    renderings = {entry["zh"] for entry in table.values()}
    words = hooks.jieba_terms("zh")
    assert {"超步", "中间件", "工具调用", "递归上限"} <= set(words)
    assert {w for w in renderings if re.fullmatch(r"[\u4e00-\u9fff]{2,}", w)} == set(words)
    assert not {"agent", "图", "找 bug"} & set(words)  # English, one 汉字, or no 汉字 run of two
    lines = hooks.jieba_user_dictionary("zh").splitlines()
    assert lines == [f"{w} {hooks.JIEBA_TERM_FREQ}" for w in words]
    assert hooks.jieba_terms("xx") == []  # a language without a terms table


# Sentences of the Chinese pages where jieba, left alone, pulls a term apart.
SENTENCES = {
    "要么请求工具调用": "工具调用",
    "距离递归上限还剩多少个超步": "递归上限",
    "运行时会通知它": "运行时",
    "而只有请求体能告诉你模型真正收到了什么": "请求体",
    "放在哪一边都能接管道": "管道",
    "证明每个变异体都至少让一个评分器失败": "变异体",
    "把你第一次填完整的表记作首次作答": "首次作答",
    "运行期间的托管值": "托管值",
}


def test_jieba_keeps_the_terms_whole_with_the_dictionary():
    jieba = pytest.importorskip("jieba")
    jieba.setLogLevel(logging.WARNING)
    ours = jieba.Tokenizer()  # jieba's own dictionary (not the global one a build may extend)
    pulled_apart = [s for s, term in SENTENCES.items() if term not in ours.lcut(s)]
    assert len(pulled_apart) == len(SENTENCES), f"jieba alone keeps some whole: {pulled_apart}"
    ours.load_userdict(io.BytesIO(hooks.jieba_user_dictionary("zh").encode("utf-8")))
    for sentence, term in SENTENCES.items():
        assert term in ours.lcut(sentence), "/".join(ours.lcut(sentence))
    assert {"中间件", "超步"} <= set(ours.lcut("中间件在每个超步之间运行"))


def test_the_zh_config_loads_the_dictionary_written_from_the_table(tmp_path, monkeypatch):
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    pytest.importorskip("mkdocs_jupyter")
    jieba = pytest.importorskip("jieba")
    from mkdocs.config import load_config

    from miniagent_course.grading.course import NOTEBOOK_IMPL_ENV
    from miniagent_course.site.fences import STATE

    monkeypatch.setenv("MINIAGENT_SITE_WITHOUT_NODE", "1")
    monkeypatch.delenv(NOTEBOOK_IMPL_ENV, raising=False)  # on_config sets it: put back after
    for name in ("project_dir", "mermaid_available"):
        monkeypatch.setattr(STATE, name, getattr(STATE, name, None))
    config = load_config(str(ROOT / "mkdocs.zh.yml"), site_dir=str(tmp_path / "zh"))
    search = config.plugins["material/search"]
    named = Path(search.config.jieba_dict_user)  # as mkdocs.zh.yml names it
    assert not named.is_absolute() and named.parts[0] == ".cache"  # generated, git ignores it
    search.config.jieba_dict_user = str(tmp_path / "terms.txt")  # leave the checkout's alone
    config.plugins.on_config(config)  # the hooks write it, then the search plugin loads it
    written = (tmp_path / "terms.txt").read_text(encoding="utf-8")
    assert written == hooks.jieba_user_dictionary("zh")
    assert jieba.dt.FREQ.get("超步") == hooks.JIEBA_TERM_FREQ  # loaded into jieba's tokenizer
    # the English edition names no dictionary
    english = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(tmp_path / "en"))
    assert not english.plugins["material/search"].config.jieba_dict_user
