"""The Chinese edition keeps in step with the English (issue #23): every translated page and
notebook records the English version it translates and keeps what a translation must not change
(``miniagent_course.site.i18n``); the catalogues ``*.zh.toml`` have the English keys and
placeholders; ``MINIAGENT_LANG=zh`` (or a Chinese locale) switches the learner's messages; tables
measure 汉字 as two columns."""

from __future__ import annotations

import json
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest

from miniagent_course import text
from miniagent_course.grading.course import load_course
from miniagent_course.site import i18n

ROOT = Path(__file__).resolve().parents[3]
PAGE, BOOK = "course/days/day00-welcome", "notebooks/day00_welcome"


def test_every_translation_is_in_step():
    pairs = i18n.twins(ROOT)
    assert (ROOT / f"{PAGE}.md", ROOT / f"{PAGE}.zh.md") in pairs
    assert (ROOT / f"{BOOK}.ipynb", ROOT / f"{BOOK}.zh.ipynb") in pairs
    found = [p for english, twin in pairs for p in i18n.problems(english, twin)]
    assert not found, "\n".join(found)


@pytest.fixture
def pair(tmp_path):
    """A copy of Day 00's page and its twin, and of its notebook and its twin."""
    for name in (f"{PAGE}.md", f"{PAGE}.zh.md", f"{BOOK}.ipynb", f"{BOOK}.zh.ipynb"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    assert not [p for en, zh in i18n.twins(tmp_path) for p in i18n.problems(en, zh)]
    return tmp_path


def _problems(root: Path, name: str) -> str:
    english = root / name
    return "\n".join(i18n.problems(english, i18n.twin(english, "zh")))


def test_a_changed_english_page_fails_until_the_twin_is_stamped(pair):
    english = pair / f"{PAGE}.md"
    english.write_text(english.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    assert "bring the translation up to date" in _problems(pair, f"{PAGE}.md")
    i18n.stamp(pair / f"{PAGE}.zh.md")  # the translator brought it up to date
    assert _problems(pair, f"{PAGE}.md") == ""


@pytest.mark.parametrize(
    ("old", "new", "what"),
    [
        ("state.messages      # works", "state.messages      # 可以", "code blocks"),
        ("(l.627)", "", "citations"),
        ("返回 `0`，不是 `25`", "返回 `0`，不是 `24`", "numbers in code"),
        ("## 逐行看", "### 逐行看", "headings"),
        ("| `should_continue` (l.831)", "| `should_continue`", "citations"),
        ("`_are_more_steps_needed` (l.620) |", "`_are_more_steps_needed` (l.620) | x |", "tables"),
        ("??? question", "!!! question", "admonitions"),
        ("](../glossary.md#node)", "](../glossary.md#edge-conditional-edge)", "link targets"),
        ("\n打个比方", "\n#1 打个比方", "lines starting with"),  # Markdown: an <h1>
    ],
)
def test_a_twin_that_changes_what_it_must_keep_fails(pair, old, new, what):
    twin = pair / f"{PAGE}.zh.md"
    body = twin.read_text(encoding="utf-8")
    assert old in body
    twin.write_text(body.replace(old, new, 1), encoding="utf-8")
    assert re.search(rf"its {what}\b", _problems(pair, f"{PAGE}.md"))


def test_a_notebook_twin_keeps_every_code_cell(pair):
    twin = pair / f"{BOOK}.zh.ipynb"
    node = json.loads(twin.read_text(encoding="utf-8"))
    code = next(c for c in node["cells"] if c["cell_type"] == "code")
    code["source"] = ["# 中文注释\n", *code["source"]]
    twin.write_text(json.dumps(node, ensure_ascii=False), encoding="utf-8")
    assert "its code cells differ" in _problems(pair, f"{BOOK}.ipynb")


def _fields(value: object) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(str(value)) if f is not None}


def _leaves(table: dict, prefix: str = "") -> dict[str, object]:
    out = {}
    for key, value in table.items():
        if isinstance(value, dict):
            out.update(_leaves(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


@pytest.mark.parametrize("name", ["cli", "site"])
def test_each_chinese_string_has_its_english_key_and_placeholders(name):
    english = _leaves(text.tomllib.loads((text.TEXT_DIR / f"{name}.en.toml").read_text("utf-8")))
    chinese = _leaves(text.tomllib.loads((text.TEXT_DIR / f"{name}.zh.toml").read_text("utf-8")))
    assert not set(chinese) - set(english), "keys the English catalogue does not have"
    for key, value in chinese.items():
        if isinstance(value, str):
            assert _fields(value) == _fields(english[key]), key


def test_minagent_lang_and_the_locale_pick_chinese(monkeypatch):
    for var in ("MINIAGENT_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert text.language() == "en"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert text.language() == "zh"
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")  # the first one set decides
    assert text.language() == "en"
    monkeypatch.setenv("MINIAGENT_LANG", "zh")  # the course's own setting wins
    assert text.language() == "zh"
    assert text.say("status.not_started") == "未开始"
    assert text.say("cli.hint", n=1, total=5, text="…") == "提示 1/5：…"
    assert text.say("cli.help_watch").startswith("re-grade")  # not translated: English


def test_miniagent_speaks_chinese(tmp_path):
    env = {"MINIAGENT_LANG": "zh", "PATH": str(Path(sys.executable).parent)}
    run = subprocess.run(
        [sys.executable, "-m", "miniagent_course.cli", "--help"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0 and "列出每一天及其状态" in run.stdout, run.stdout + run.stderr
    day00 = load_course(ROOT, lang="zh").exercise("day00")  # kit.toml [zh]
    assert day00.title == "热身：从任何 agent 状态里读出一个值"
    assert len(day00.hints) == len(load_course(ROOT, lang="en").exercise("day00").hints)
    assert day00.hints[0].startswith("状态要么是 dict")


def test_tables_measure_chinese_as_two_columns():
    assert text.columns("未开始") == 6 and text.columns("day00") == 5
    assert text.fit("热身：从任何 agent 状态里读出一个值", 12) == "热身：从任…"
    assert text.columns(text.fit("热身：从任何 agent 状态里读出一个值", 12)) <= 12
    assert text.pad("未开始", 8) == "未开始  "


# --- terminology: one table (src/miniagent_course/text/terms.zh.toml), used the same everywhere --

TERMS = ROOT / "src" / "miniagent_course" / "text" / "terms.zh.toml"
SEEDS = ROOT.parent / "shared" / "seeds"  # the Chinese source articles, beside the checkout


def _terms() -> dict[str, dict]:
    import tomllib

    return tomllib.loads(TERMS.read_text(encoding="utf-8"))["terms"]


def _chinese_texts() -> dict[str, str]:
    """Every translated text a learner reads: twins, the zh config, the zh string catalogues."""
    found = {}
    for _english, twin in i18n.twins(ROOT):
        found[twin.relative_to(ROOT).as_posix()] = twin.read_text(encoding="utf-8")
    for path in [ROOT / "mkdocs.zh.yml", *sorted((TERMS.parent).glob("*.zh.toml"))]:
        if path != TERMS:
            found[path.relative_to(ROOT).as_posix()] = path.read_text(encoding="utf-8")
    return found


def _prose(text: str) -> str:
    """Without code: fenced blocks and inline code keep their English identifiers."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def test_the_terminology_table_is_well_formed():
    terms = _terms()
    assert len(terms) >= 40
    for english, entry in terms.items():
        assert set(entry) <= {"zh", "seed", "avoid"} and entry["zh"], english
        assert entry["zh"] not in entry.get("avoid", []), english


def test_no_translation_uses_a_rendering_the_table_avoids():
    avoid = {bad: english for english, e in _terms().items() for bad in e.get("avoid", [])}
    found = [
        f"{where}: {bad!r} (the table says {english!r} is {_terms()[english]['zh']!r})"
        for where, body in _chinese_texts().items()
        for bad, english in avoid.items()
        if bad in _prose(body)
    ]
    assert not found, "\n".join(found)


def test_the_table_catches_an_avoided_rendering(tmp_path):
    body = "这个智能体调用工具。`智能体` in code is left alone."
    avoid = {bad for e in _terms().values() for bad in e.get("avoid", [])}
    assert [bad for bad in avoid if bad in _prose(body)] == ["智能体"]


def test_the_renderings_taken_from_the_source_articles_are_spelled_as_they_spell_them():
    """The articles are beside the checkout (``../shared/seeds``) on a course author's machine; a
    clone without them checks the table's form only (the test above)."""
    if not SEEDS.is_dir():
        pytest.skip("the source articles (../shared/seeds) are not beside this checkout")
    seeds = "\n".join(p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt")))
    missing = [
        f"{english}: {e['zh']!r}"
        for english, e in _terms().items()
        if e.get("seed") and e["zh"] not in seeds
    ]
    assert not missing, f"marked as the articles' rendering, but not in them: {missing}"


_CJK = "[\u3400-\u9fff\uff00-\uffef\u3000-\u303f“”‘’…—]"
_BLOCK = re.compile(r"^\s*([-*+]\s|\d+\.\s|#|\||!!!|\?\?\?|===|<)")


def _broken_between_characters(text: str) -> list[int]:
    """Lines of prose that a line break splits between two 汉字: a browser shows that break as a
    space in the middle of a Chinese sentence (English words need it; Chinese ones do not)."""
    lines, found, fence = text.split("\n"), [], None
    for number, (line, after) in enumerate(zip(lines, lines[1:], strict=False), start=1):
        mark = re.match(r"^\s*(```+|~~~+)", line)
        if fence is None and mark:
            fence = mark.group(1)
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif (
            fence is None
            and re.search(_CJK + "$", line)
            and re.match(r"^\s*" + _CJK, after)
            and not _BLOCK.match(after)
            and len(after) - len(after.lstrip()) >= len(line) - len(line.lstrip())
        ):
            found.append(number)
    return found


def _prose_of(twin: Path) -> str:
    """A page's text, or a notebook's markdown cells (each cell its own paragraph block)."""
    if twin.suffix != ".ipynb":
        return twin.read_text("utf-8")
    cells = json.loads(twin.read_text("utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_no_chinese_sentence_is_broken_across_lines():
    found = {
        twin.relative_to(ROOT).as_posix(): lines
        for _english, twin in i18n.twins(ROOT)
        if twin.suffix != ".py"  # a stub is read in an editor: a break there shows as nothing
        and (lines := _broken_between_characters(_prose_of(twin)))
    }
    assert not found, f"join these lines (a break between 汉字 shows as a space): {found}"
    assert _broken_between_characters("一句话在这里\n断开了。\n\n```\n代码里\n可以\n```") == [1]
