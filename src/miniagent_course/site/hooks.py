"""MkDocs hook of the course site (``hooks:`` in ``mkdocs.yml``).

What it does, in build order:

1. ``on_config``: tells the fences where the project is; bundles the two browser assets from
   ``node_modules`` (``npm ci``) when present -- ``mermaid.min.js`` (so Material does not fetch
   Mermaid from a CDN) and the ``iframe-worker`` shim (so search works from ``file://``; without it
   the ``offline`` plugin would add a CDN URL). Without Node they are replaced by harmless stubs:
   diagrams show as text, nothing is requested from outside. It also adds every lesson
   ``days/dayNN-*.md`` and notebook ``notebooks/*.ipynb`` to their nav sections, and keys
   mkdocs-jupyter's cache on the miniagent source, so a change in ``src/`` re-executes the
   notebooks (``MINIAGENT_SITE_NOTEBOOKS=later``: not executed at all, see ``notebooks.py``).
   A translated edition's search gets a jieba user dictionary written from the terms table
   (``text/terms.<lang>.toml``), so each term's Chinese rendering stays one searchable word.
2. ``on_files``: adds the notebooks (they live outside ``course/``) and the assets to the build;
   executes the notebooks missing from the cache side by side, a log line each.
3. ``on_page_markdown``: remembers the page for messages; expands ``<!-- course-map -->``.
4. ``on_page_content``: marks every ``<pre>`` that holds a drawing (box-drawing characters) as
   ``ma-drawing``, so it keeps its lines and scrolls instead of wrapping; lets inline code outside
   tables break after ``. _ / = : , (`` (``<wbr>``), so a long name wraps there, not mid-word (in a
   table a name stays whole and the table scrolls); on notebook pages, takes
   the title and the table of contents from the rendered headings (mkdocs-jupyter's drop the words
   in `code`, and its anchors then miss the headings' ids).
5. ``on_post_build``: marks the cache complete, so ``miniagent open`` knows it can build at once.
6. ``on_post_page``: drops nbconvert's script that would import Mermaid from a CDN on notebook
   pages (the bundled Mermaid renders notebook diagrams instead) and its empty MathJax tag, then
   fails the build if any page still loads something from another host; points the language
   switch at this page's twin.

**Two editions, one build.** The Simplified Chinese edition is a second configuration,
``mkdocs.zh.yml`` (``INHERIT: mkdocs.yml``), built into ``<site_dir>/zh/`` by the English build's
``on_post_build`` (so ``mkdocs build --strict`` builds, and fails on, both). A translated page is
a twin beside its English page (``days/day00-welcome.zh.md``), a translated notebook likewise
(``notebooks/day00_welcome.zh.ipynb``): the English build leaves the twins out; the Chinese build
reads a twin in place of its English page, at the English page's address, so links and the
navigation are the same in both and a page not yet translated shows in English. Twin notebooks
are not executed: they take their English notebook's outputs (``notebooks.render_twins``).
"""

from __future__ import annotations

import glob
import html
import json
import logging
import os
import re
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from miniagent_course.grading.course import NOTEBOOK_IMPL_ENV
from miniagent_course.site import fences as site_fences
from miniagent_course.site import notebooks as site_notebooks
from miniagent_course.text import catalog, site_say

log = logging.getLogger("mkdocs.plugins.miniagent")

MERMAID_JS = "node_modules/mermaid/dist/mermaid.min.js"
DIAGRAM_FIT_JS = Path(__file__).with_name("diagram_fit.js")  # keeps diagram labels legible
SHIM_JS = "node_modules/iframe-worker/shim/index.js"
VENDOR = "assets/vendor"
LANG_KEY = "miniagent_lang"  # extra.miniagent_lang: the edition a configuration builds
DEFAULT_LANG = "en"
EDITIONS = ("zh",)  # the translated editions: mkdocs.<lang>.yml, built into <site_dir>/<lang>/
EDITIONS_ENV = "MINIAGENT_SITE_EDITIONS"  # "en": only the English edition (a quicker build)
TWIN = re.compile(r"\.([a-z]{2})\.(?:md|ipynb)$")  # page.zh.md, notebook.zh.ipynb
ALTERNATE = re.compile(r'href="#lang-([a-z]{2})"')  # extra.alternate's links in mkdocs.yml
# Material's <link rel="alternate"> in the head: its script fetches sitemap.xml beside each one
# (for instant navigation between languages), which a page link is not and file:// refuses.
_ALTERNATE_LINK = re.compile(r'\s*<link rel="alternate" href="#lang-[a-z]{2}"[^>]*>')
LESSONS_SECTION = "days/index.md"  # nav sections are found by their index page
NOTEBOOKS_SECTION = "notebooks/index.md"
# Anything that makes the browser fetch from another host when the page is viewed. Plain links
# (<a href="https://...">) are fine: nothing is requested until the reader clicks.
EXTERNAL_LOAD = re.compile(
    r"""<(?:script|img|iframe|source|audio|video)\b[^>]*\bsrc=["']?(?:https?:)?//"""
    r"""|<link\b[^>]*\bhref=["']?(?:https?:)?//"""
    r"""|\bimport\s*\(\s*["'](?:https?:)?//"""
    r"""|\burl\(\s*["']?(?:https?:)?//""",
    re.I,
)
_NBCONVERT_CDN_SCRIPT = re.compile(
    r"<script type=\"module\">(?:(?!</script>).)*?import\(\"https://(?:(?!</script>).)*?</script>",
    re.S,
)
_EMPTY_SCRIPT = re.compile(r"<script src=\"\">\s*</script>")
_SHIM_STUB = (
    "/* iframe-worker is not installed (npm ci): search needs http://, e.g. `miniagent open`. */\n"
)


def _node_assets(project: Path) -> bool:
    """Are the npm-installed browser assets there? ``MINIAGENT_SITE_WITHOUT_NODE=1`` builds as if
    not (how a learner without Node.js gets the site; the tests use it)."""
    if os.environ.get("MINIAGENT_SITE_WITHOUT_NODE"):
        return False
    return (project / MERMAID_JS).is_file() and (project / SHIM_JS).is_file()


def _project(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def build_lang(config) -> str:
    """The edition this configuration builds: ``extra.miniagent_lang`` (``en`` when unset)."""
    return (config.extra or {}).get(LANG_KEY, DEFAULT_LANG)


def _twin(path: Path, lang: str) -> Path:
    """``x.md`` -> ``x.<lang>.md`` (the translated twin, which may not exist)."""
    return path.with_name(f"{path.stem}.{lang}{path.suffix}")


_notebooks = site_notebooks.notebooks
_source_hash = site_notebooks.source_hash


def _notebook_title(path: Path) -> str:
    """The notebook's first Markdown heading, else its file name."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError):
        return path.stem
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            for line in "".join(cell.get("source", "")).splitlines():
                if line.startswith("#"):  # plain text: a nav title shows no Markdown
                    return re.sub(r"`([^`]*)`|<[^>]+>", r"\1", line.lstrip("#")).strip()
    return path.stem


def _section(nav: list, index_uri: str) -> list | None:
    """The nav section (a list) whose entries include ``index_uri``, at any depth."""
    for item in nav or []:
        if isinstance(item, dict):
            for children in item.values():
                if isinstance(children, list):
                    if index_uri in children:
                        return children
                    found = _section(children, index_uri)
                    if found is not None:
                        return found
    return None


def _uris(entries: list) -> set[str]:
    out = set()
    for entry in entries:
        if isinstance(entry, str):
            out.add(entry)
        elif isinstance(entry, dict):
            out.update(v for v in entry.values() if isinstance(v, str))
    return out


def _complete_nav(nav: list, docs: Path, project: Path, lang: str = DEFAULT_LANG) -> None:
    """Add every lesson ``days/dayNN-*.md`` and every notebook to their sections, in day order,
    so a new day needs no edit of mkdocs.yml (a notebook titled in ``lang`` when translated)."""
    lessons = _section(nav, LESSONS_SECTION)
    if lessons is not None:
        known = _uris(lessons)
        for page in sorted((docs / "days").glob("day[0-9][0-9]-*.md")):
            if TWIN.search(page.name):
                continue
            uri = f"days/{page.name}"
            if uri not in known:
                lessons.append(uri)  # titled by the page's own title
    notebooks = _section(nav, NOTEBOOKS_SECTION)
    if notebooks is not None:
        known = _uris(notebooks)
        for nb in _notebooks(project):
            uri = f"notebooks/{nb.name}"
            translated = site_notebooks.twin(nb, lang)
            titled = translated if lang != DEFAULT_LANG and translated.is_file() else nb
            if uri not in known:
                notebooks.append({_notebook_title(titled): uri})


def _quiet_jieba() -> None:
    """The search plugin cuts Chinese into words with jieba, which logs three lines to stderr as
    it loads its dictionary; a build's output keeps only what a reader of it needs."""
    try:
        import jieba
    except ImportError:  # the search plugin then says so itself
        return
    jieba.setLogLevel(logging.WARNING)


# --- search: jieba keeps the course's terms whole ------------------------------------------------

_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")  # two 汉字 or more
# A term's weight in jieba's user dictionary: enough that no neighbouring character pulls a term
# apart (运行时会 -> 运行/时会, 接管道 -> 接管/道 at jieba's own suggestion), checked on the pages.
JIEBA_TERM_FREQ = 20000


def jieba_terms(lang: str) -> list[str]:
    """The Chinese renderings of the terms table (``text/terms.<lang>.toml``) that jieba must keep
    as one word: each run of two 汉字 or more (``超步``, ``工具调用``; not ``agent``, not ``图``)."""
    from miniagent_course.text import TEXT_DIR, tomllib

    path = TEXT_DIR / f"terms.{lang}.toml"
    if not path.is_file():
        return []
    table = tomllib.loads(path.read_text(encoding="utf-8")).get("terms", {})
    words = (w for entry in table.values() for w in _HAN.findall(str(entry.get(lang, ""))))
    return sorted(set(words))


def jieba_user_dictionary(lang: str) -> str:
    """The terms as a jieba user dictionary (``word freq`` a line, UTF-8)."""
    return "".join(f"{word} {JIEBA_TERM_FREQ}\n" for word in jieba_terms(lang))


def _write_jieba_dictionary(config, project: Path, lang: str) -> None:
    """Write the user dictionary where the search plugin's ``jieba_dict_user`` names it
    (``mkdocs.zh.yml``; relative to the project), from the terms table, before the search plugin
    loads it: the dictionary is generated at every build, never a copy that drifts."""
    search = config.plugins.get("material/search")
    named = search.config.get("jieba_dict_user") if search is not None else None
    if not named:
        return
    path = Path(named) if Path(named).is_absolute() else project / named
    path.parent.mkdir(parents=True, exist_ok=True)
    words = jieba_user_dictionary(lang)
    if not path.is_file() or path.read_text(encoding="utf-8") != words:
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # another build may read it
        partial.write_text(words, encoding="utf-8")
        os.replace(partial, path)
    search.config.jieba_dict_user = str(path)


# Before the offline plugin, which adds a CDN shim unless one is listed, and before the search
# plugin, which loads the jieba dictionary written here.
@event_priority(100)
def on_config(config):
    project = _project(config)
    state = site_fences.STATE
    state.project_dir = project
    state.mermaid_available = _node_assets(project)
    if state.mermaid_available:
        config.extra_javascript.append(f"{VENDOR}/mermaid.min.js")
        config.extra_javascript.append(f"{VENDOR}/diagram-fit.js")  # wraps mermaid.render
    else:
        log.info("miniagent: %s not found (run `npm ci`): diagrams are shown as text", MERMAID_JS)
    polyfills = [p for p in config.extra.get("polyfills", []) if "iframe-worker" not in p]
    config.extra["polyfills"] = polyfills + [f"{VENDOR}/iframe-worker-shim.js"]

    lang = build_lang(config)
    _complete_nav(config.nav, Path(config.docs_dir), project, lang)
    if lang != DEFAULT_LANG:  # headings' anchors keep their words (the default drops all but ASCII)
        from pymdownx.slugs import slugify

        config.mdx_configs.setdefault("toc", {})["slugify"] = slugify(case="lower")
        _quiet_jieba()
        _write_jieba_dictionary(config, project, lang)

    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None:
        # The site shows the reference in "your turn" cells: building it never runs a learner's
        # unfinished code (the kernels inherit this environment).
        os.environ[NOTEBOOK_IMPL_ENV] = "reference"
        cache = Path(jupyter.config["cache_dir"])
        base = cache if cache.is_absolute() else project / cache
        key = site_notebooks.source_hash(project)
        if site_notebooks.executes_later():  # `miniagent open`'s first pages: outputs follow
            jupyter.config["execute"] = False
            key += "-later"  # its own folder: the plugin evicts whatever a build did not use
        # a translated edition caches in a folder of its own inside the English one: each build
        # evicts only its own entries, and the twins find the English executed notebooks
        jupyter.config["cache_dir"] = str(base / key / lang if lang != DEFAULT_LANG else base / key)
    return config


def _use_twins(files: Files, lang: str) -> None:
    """The pages of edition ``lang``: a twin ``x.<lang>.md`` is read in place of ``x.md``, at its
    address; the other twins are left out (the English edition leaves out every twin)."""
    for twin in [f for f in files if TWIN.search(f.src_uri)]:
        files.remove(twin)
        if lang == DEFAULT_LANG or TWIN.search(twin.src_uri).group(1) != lang:
            continue
        english = files.get_file_from_path(TWIN.sub(".md", twin.src_uri))
        if english is not None:
            english.abs_src_path = twin.abs_src_path  # mkdocs reads the page from here
            english.miniagent_lang = lang


@event_priority(100)  # before mkdocs-jupyter wraps .ipynb files
def on_files(files: Files, config) -> Files:
    project = _project(config)
    lang = build_lang(config)
    _use_twins(files, lang)
    books = _notebooks(project)
    twins = [(nb, site_notebooks.twin(nb, lang)) for nb in books] if lang != DEFAULT_LANG else []
    twins = [(nb, t) for nb, t in twins if t.is_file()]
    for nb, translated in twins:
        problem = site_notebooks.twin_problem(nb, translated)
        if problem:  # a translation changes prose only: its outputs are the English ones
            log.warning("notebooks/%s: %s", translated.name, problem)
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None and lang == DEFAULT_LANG:  # fill its cache side by side, a line each
        site_notebooks.execute_missing(books, jupyter.config)
    elif jupyter is not None:  # the twins take the English outputs: nothing executes again
        english_cache = Path(jupyter.config["cache_dir"]).parent
        done = dict(twins)
        pairs = [(nb, done.get(nb, nb)) for nb in books]  # a notebook not translated: itself
        site_notebooks.render_twins(pairs, jupyter.config, english_cache)
    translated_books = dict(twins)
    for nb in books:
        file = File(
            f"notebooks/{nb.name}",
            src_dir=str(project),
            dest_dir=config.site_dir,
            use_directory_urls=config.use_directory_urls,
        )
        if nb in translated_books:  # read from the twin (see on_pre_page)
            file.abs_src_path = file.miniagent_twin = str(translated_books[nb])
            file.miniagent_lang = lang
        files.append(file)
    if site_fences.STATE.mermaid_available:
        files.append(
            File.generated(
                config, f"{VENDOR}/mermaid.min.js", abs_src_path=str(project / MERMAID_JS)
            )
        )
    if site_fences.STATE.mermaid_available:
        files.append(
            File.generated(config, f"{VENDOR}/diagram-fit.js", abs_src_path=str(DIAGRAM_FIT_JS))
        )
        shim = str(project / SHIM_JS)
        files.append(File.generated(config, f"{VENDOR}/iframe-worker-shim.js", abs_src_path=shim))
    else:
        files.append(File.generated(config, f"{VENDOR}/iframe-worker-shim.js", content=_SHIM_STUB))
    return files


@event_priority(100)  # before mkdocs-jupyter reads the notebook
def on_pre_page(page, config, files):
    """A translated notebook is read from its twin: mkdocs-jupyter's wrapper of the file computes
    its own ``abs_src_path``, so the twin's path is set on the wrapper too."""
    translated = getattr(page.file, "miniagent_twin", None)
    if translated:
        page.file.abs_src_path = translated
    return page


def page_lang(file) -> str | None:
    """``"zh"`` for a page read from its translated twin (``page.zh.md``); None (the default
    language) otherwise, an English page shown in the Chinese edition included."""
    return getattr(file, "miniagent_lang", None)


def on_page_markdown(markdown: str, page, config, files) -> str:
    site_fences.STATE.page = page.file.src_uri
    site_fences.STATE.lang = page_lang(page.file)
    if "<!-- course-map -->" in markdown:
        markdown = markdown.replace("<!-- course-map -->", course_map(page, config))
    return markdown


# --- drawings keep their lines; notebook titles keep their code words ---------------------------

# Box drawing and block elements: a block holding them is a drawing, whatever its fence says.
DRAWING_CHARS = re.compile("[\u2500-\u259f]")
_PRE = re.compile(r"<pre\b([^>]*)>(.*?)</pre>", re.S)
_HEADING = re.compile(r"<h([1-6])\b([^>]*)>(.*?)</h\1>", re.S)
_ID = re.compile(r"""\bid=["']([^"']+)["']""")
_ANCHOR = re.compile(r"<a\b[^>]*\bclass=[\"'][^\"']*(?:anchor-link|headerlink)[^>]*>.*?</a>", re.S)


def mark_drawings(html_text: str) -> str:
    """Add the class ``ma-drawing`` to every ``<pre>`` whose text has box-drawing characters."""

    def mark(m: re.Match) -> str:
        attrs, body = m.group(1), m.group(2)
        if not DRAWING_CHARS.search(html.unescape(body)) or re.search("ma-drawing|mermaid", attrs):
            return m.group(0)
        if re.search(r"""\bclass=["']""", attrs):
            attrs = re.sub(r"""\bclass=(["'])""", r"class=\1ma-drawing ", attrs, count=1)
        else:
            attrs += ' class="ma-drawing"'
        return f"<pre{attrs}>{body}</pre>"

    return _PRE.sub(mark, html_text)


def _text(fragment: str) -> str:
    """Plain text of an HTML fragment (a heading without its permalink)."""
    fragment = _ANCHOR.sub("", fragment)
    text = html.unescape(re.sub(r"<[^>]+>", "", fragment))
    return re.sub(r"\s+", " ", text.replace("\u00b6", "")).strip()


def headings(html_text: str) -> list[dict]:
    """``(level, id, text)`` of the headings with an id, as mkdocs' toc tokens (flat)."""
    out = []
    for m in _HEADING.finditer(html_text):
        found = _ID.search(m.group(2))
        text = _text(m.group(3))
        if found and text:
            out.append({"level": int(m.group(1)), "id": found.group(1), "name": text})
    return out


def toc_tokens(flat: list[dict]) -> list[dict]:
    """Nest flat headings into mkdocs' toc tokens (a heading holds the deeper ones after it)."""
    root: list[dict] = []
    stack: list[dict] = []
    for h in flat:
        token = {**h, "html": html.escape(h["name"]), "data-toc-label": "", "children": []}
        while stack and stack[-1]["level"] >= h["level"]:
            stack.pop()
        (stack[-1]["children"] if stack else root).append(token)
        stack.append(token)
    return root


def word_ids(html_text: str) -> str:
    """Give a translated notebook's headings ids made of their words, as the pages' (nbconvert
    keeps only ASCII: ``轮到你了`` gets ``id=""``, ``1. 两种形状`` gets ``id="1"``), and point
    the links to them (the permalink, the table of contents) at the new ids."""
    from pymdownx.slugs import slugify

    slug = slugify(case="lower")
    renamed: dict[str, str] = {}
    taken: set[str] = set()

    def rename(m: re.Match) -> str:
        level, attrs, inner = m.group(1), m.group(2), m.group(3)
        old = re.search(r'\bid="([^"]*)"', attrs)
        new = slug(_text(inner), "-")
        while new in taken:
            new += "_1"
        taken.add(new)
        if old:
            if old.group(1):
                renamed[old.group(1)] = new
            attrs = attrs[: old.start()] + f'id="{new}"' + attrs[old.end() :]
        inner = re.sub(r'(class="anchor-link" href=")#[^"]*"', rf'\1#{new}"', inner)
        return f"<h{level}{attrs}>{inner}</h{level}>"

    html_text = re.sub(r"<h([1-6])\b([^>]*)>(.*?)</h\1>", rename, html_text, flags=re.S)
    return re.sub(
        r'href="#([^"]*)"', lambda m: f'href="#{renamed.get(m.group(1), m.group(1))}"', html_text
    )


# Inline code may break after ``. _ / = : , (`` between two names: ``before_<wbr>agent``, so on a
# phone a long name wraps there instead of anywhere (Material's last resort: "before_ag" / "ent").
_SOFT_BREAK = re.compile(r"""(?<=[\w)\]}"'])([._/=:,(])(?=[\w"'{\[(&])""")
_NUMBER_DOT = re.compile(r"(?<=\d)\.(?=\d)")  # 1.5, qwen2.5: no break
# Not in tables: there a name stays whole and a table too wide for the column scrolls (course.css);
# except the exercise box's facts table (``ma-exercise``), which has no scroll box.
_VERBATIM = re.compile(
    r"(<pre\b.*?</pre>|<script\b.*?</script>|<style\b.*?</style>|<table\b(?![^>]*ma-exercise).*?</table>)",
    re.S | re.I,
)
_INLINE_CODE = re.compile(r"(<code\b[^>]*>)(.*?)(</code>)", re.S)


def _soft(m: re.Match) -> str:
    text, at = m.string, m.start()
    if _NUMBER_DOT.match(text, at):
        return m.group(1)
    return m.group(1) + "<wbr>"


def soft_breaks(html_text: str) -> str:
    """Add ``<wbr>`` break points inside inline ``<code>`` (not in ``<pre>``, tables, scripts or
    styles)."""

    def in_code(m: re.Match) -> str:
        parts = re.split(r"(<[^>]+>)", m.group(2))  # text and tags: only the text gets breaks
        body = "".join(p if p.startswith("<") else _SOFT_BREAK.sub(_soft, p) for p in parts)
        return m.group(1) + body + m.group(3)

    pieces = _VERBATIM.split(html_text)
    return "".join(
        piece if i % 2 else _INLINE_CODE.sub(in_code, piece) for i, piece in enumerate(pieces)
    )


def on_page_content(html_text: str, page, config, files) -> str:
    html_text = soft_breaks(mark_drawings(html_text))
    if page.file.src_uri.endswith(".ipynb") and page_lang(page.file):
        html_text = word_ids(html_text)
    if page.file.src_uri.endswith(".ipynb"):
        if site_notebooks.executes_later():
            html_text = site_say("open.outputs_later", lang=page_lang(page.file)) + html_text
        flat = headings(html_text)
        if flat:
            from mkdocs.structure.toc import get_toc

            depth = 6
            jupyter = config.plugins.get("mkdocs-jupyter")
            if jupyter is not None:
                depth = int(jupyter.config.get("toc_depth", 6) or 6)
            page.toc = get_toc(toc_tokens([h for h in flat if h["level"] <= depth]))
            first = next((h for h in flat if h["level"] == 1), None)
            if first:
                page.title = first["name"]
    return html_text


# --- the course map -----------------------------------------------------------------------------


def _find(folder: Path, pattern: str) -> str | None:
    """The first file matching ``pattern`` that is not a translated twin."""
    hits = sorted(h for h in glob.glob(str(folder / pattern)) if not TWIN.search(h))
    return Path(hits[0]).name if hits else None


def course_map(page, config) -> str:
    """A mermaid diagram of the days (linked where a lesson exists) and a table of them."""
    text = catalog("site", page_lang(page.file))
    days, parts, words = text["days"], text["parts"], text["map"]
    docs = Path(config.docs_dir)
    project = _project(config)
    depth = page.file.src_uri.count("/")
    up = "../" * depth
    lesson = {d["id"]: _find(docs / "days", f"day{d['id']}-*.md") for d in days}
    notebook = {d["id"]: _find(project / "notebooks", f"day{d['id']}_*.ipynb") for d in days}

    # One column per part: a subgraph keeps its own `direction` only while no node inside links
    # outside, so the parts are chained subgraph to subgraph.
    # Tighter than mermaid's defaults, so the four columns fit a desktop column at 80% or more
    # (diagram-fit.js lets no diagram shrink further; a phone scrolls it).
    chart = ['%%{init: {"flowchart": {"nodeSpacing": 30, "rankSpacing": 30, "padding": 6}}}%%']
    chart.append("flowchart LR")
    previous = None
    for key, label in [("", None), *parts.items()]:
        members = [d for d in days if d["part"] == key]
        indent = "    " if label else "  "
        if label:
            chart += [f'  subgraph P{key}["{label}"]', "    direction TB"]
        for d in members:
            chart.append(f'{indent}D{d["id"]}["{d["id"]} · {d["short"]}"]')
        chart += [
            f"{indent}D{a['id']} --> D{b['id']}" for a, b in zip(members, members[1:], strict=False)
        ]
        if label:
            chart.append("  end")
        group = f"P{key}" if label else f"D{members[-1]['id']}"
        if previous:
            chart.append(f"  {previous} --> {group}")
        previous = group
    for d in days:
        if lesson[d["id"]]:
            url = f"{up}days/{lesson[d['id']].removesuffix('.md')}.html"
            chart.append(f'  click D{d["id"]} href "{url}"')
        else:
            chart.append(f"  class D{d['id']} soon")
    chart.append("  classDef soon stroke-dasharray: 5 5")

    rows = [
        f"| {words['day_column']} | {words['lesson_column']} | {words['reads_column']} | {words['notebook_column']} |",
        "|---|---|---|---|",
    ]
    for d in days:
        title = d["title"]
        if lesson[d["id"]]:
            title = f"[{title}]({up}days/{lesson[d['id']]})"
        nb = notebook[d["id"]]
        nb_cell = f"[{words['notebook_link']}]({up}notebooks/{nb})" if nb else "—"
        if not lesson[d["id"]]:
            title = f"{title} · *{words['coming']}*"
        rows.append(f"| {d['id']} | {title} | {d['reads']} | {nb_cell} |")
    return "\n".join(["```mermaid", *chart, "```", "", words["legend"], "", *rows, ""])


# --- nothing leaves the machine -----------------------------------------------------------------


_MERMAID_CLASS = re.compile(r'class="(?:[^"]*\s)?mermaid[\s"]')  # a diagram Mermaid renders
_DIAGRAM_SCRIPTS = re.compile(
    rf'<script src="[^"]*{VENDOR}/(?:mermaid\.min|diagram-fit)\.js"></script>'
)


def without_unused_mermaid(html_text: str) -> str:
    """``html_text`` without the bundled Mermaid when the page draws no diagram: parsing its
    3.5 MB is half of loading a page, so only pages with a diagram pay for it."""
    return html_text if _MERMAID_CLASS.search(html_text) else _DIAGRAM_SCRIPTS.sub("", html_text)


def on_post_build(config) -> None:
    jupyter = config.plugins.get("mkdocs-jupyter")
    if (
        jupyter is not None and build_lang(config) == DEFAULT_LANG
    ):  # `miniagent open` may skip ahead
        site_notebooks.mark_executed(_project(config), jupyter.config)
    if build_lang(config) == DEFAULT_LANG:
        wanted = os.environ.get(EDITIONS_ENV, ",".join(EDITIONS)).split(",")
        for lang in EDITIONS:
            if lang in wanted:
                build_edition(config, lang)
        built = {
            "sources": sources_digest(_project(config)),
            "editions": [DEFAULT_LANG, *(lang for lang in EDITIONS if lang in wanted)],
        }
        (Path(config.site_dir) / BUILD_STAMP).write_text(json.dumps(built), encoding="utf-8")


BUILD_STAMP = ".miniagent-build.json"  # what a finished build was built from (sources_digest)
# Everything a build reads from the checkout: the pages, the notebooks, the code the pages include
# and the hooks that build them, the configurations.
_SOURCES = ("course/**/*", "notebooks/*.ipynb", "src/**/*", "mkdocs*.yml", "pyproject.toml")


def sources_digest(project: Path) -> str:
    """A digest of every file a build reads (``_SOURCES``): equal digests, the same pages. Lets a
    test reuse the site a build of this very checkout left (CI builds it first) instead of
    building it again."""
    import hashlib

    digest = hashlib.sha256()
    files = {p for pattern in _SOURCES for p in project.glob(pattern) if p.is_file()}
    for path in sorted(files):
        if "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(project).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def built_from(site: Path, project: Path) -> list[str]:
    """The editions of ``site`` when a build of ``project`` as it is now made it (else [])."""
    try:
        built = json.loads((site / BUILD_STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return built.get("editions", []) if built.get("sources") == sources_digest(project) else []


def build_edition(config, lang: str) -> None:
    """Build ``mkdocs.<lang>.yml`` into ``<site_dir>/<lang>/``, as strict as this build; its
    warnings count in this build's strict total, so ``mkdocs build --strict`` fails on either."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    path = _project(config) / f"mkdocs.{lang}.yml"
    if not path.is_file():
        return
    edition = load_config(
        str(path), site_dir=str(Path(config.site_dir) / lang), strict=config.strict
    )
    log.info("miniagent: building the %s edition into %s", lang, edition.site_dir)
    build(edition)


def on_post_template(output: str, template_name: str, config) -> str:
    """The 404 page (a template, not a page): its language switch leads to each edition's home."""
    return language_switch(output, None, config) if template_name == "404.html" else output


def language_switch(output: str, page, config) -> str:
    """Point the language switch (``extra.alternate``: ``#lang-en``, ``#lang-zh``) at this page's
    twin in the other edition, relative to the page, so it works from ``file://`` too (every page
    has its twin: an edition shows the English page where it has no translation), and drop the
    head's ``<link rel="alternate">``: the switch is plain links, nothing is fetched."""
    here = build_lang(config)
    url = page.file.url if page is not None else "index.html"  # 404.html: the home pages
    up = "../" * url.count("/")
    root = {here: up, DEFAULT_LANG: up + ("../" if here != DEFAULT_LANG else "")}
    for lang in EDITIONS:
        root.setdefault(lang, up + (f"{lang}/" if here == DEFAULT_LANG else f"../{lang}/"))
    output = _ALTERNATE_LINK.sub("", output)
    return ALTERNATE.sub(lambda m: f'href="{root.get(m.group(1), up)}{url}"', output)


def on_post_page(output: str, page, config) -> str:
    if page.file.src_uri.endswith(".ipynb"):
        output = _NBCONVERT_CDN_SCRIPT.sub("", output)
        output = _EMPTY_SCRIPT.sub("", output)
    output = without_unused_mermaid(output)
    output = language_switch(output, page, config)
    for m in EXTERNAL_LOAD.finditer(output):
        snippet = output[m.start() : m.start() + 120].replace("\n", " ")
        log.warning("%s: loads from another host when viewed: %s", page.file.src_uri, snippet)
    return output
