"""Where a game lives (docs/adding-a-game.md): the files a game owns follow from its declaration,
README's game table agrees with the declarations, and no generic file names a game in its code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import nutcore

ROOT = Path(__file__).resolve().parents[2]
GAMES = nutcore.list_games()


def _declaration(game: str) -> str:
    return (ROOT / "cpp" / "games" / game / "declaration.h").read_text(encoding="utf-8")


def _namespace(game: str) -> str:
    """The C++ namespace of the game's rules, from `using Game = <namespace>::Game;`."""
    m = re.search(r"using Game = (?:nutcore::)?(\w+)::Game;", _declaration(game))
    assert m, f"cpp/games/{game}/declaration.h has no `using Game = <namespace>::Game;`"
    return m.group(1)


def owned_files(game: str) -> list[Path]:
    """The files the game adds (docs/adding-a-game.md): its folders and the files named after it."""
    patterns = [
        f"cpp/games/{game}/**/*",
        f"python/nutcore/reference/{game}/**/*",
        f"python/nutcore/web/static/boards/{game}.js",
        f"python/nutcore/data/{game}_*.json",  # its data, built into the core (CMakeLists.txt)
        f"python/nutcore/data/networks/{game}-*.nnet",  # its trained networks, where it has them
        f"docs/rules/{game}.md",
        f"bench/pins/{game}.json",
        f"tests/games/test_rules_{game}.py",
    ]
    return sorted(p for pattern in patterns for p in ROOT.glob(pattern) if p.is_file())


# What every game must have among them, and what to add if it lacks one.
REQUIRED = {
    "cpp/games/{g}/declaration.h": "its facts and what the engine calls (engine/declaration.h)",
    "python/nutcore/reference/{g}/__init__.py": "its plain-Python reference implementation",
    "python/nutcore/web/static/boards/{g}.js": "its board on the page (docs/web.md)",
    "docs/rules/{g}.md": "its rules as implemented, with the action and JSON encodings",
    "bench/pins/{g}.json": "its bench pins (tests/generic/test_bench_signature.py says how)",
    "tests/games/test_rules_{g}.py": "its rule tests",
}


@pytest.mark.parametrize("game", GAMES)
def test_a_game_has_its_files(game):
    missing = [f"{p.format(g=game)} ({why.format(g=game)})" for p, why in REQUIRED.items()]
    missing = [m for m in missing if not (ROOT / m.split(" ")[0]).is_file()]
    assert not missing, f"{game} lacks: " + "; ".join(missing)
    assert set(owned_files(game)) >= {ROOT / p.format(g=game) for p in REQUIRED}


def test_the_build_lists_every_game_on_one_line():
    lines = [s for s in (ROOT / "CMakeLists.txt").read_text(encoding="utf-8").splitlines() if "NUTCORE_GAMES " in s]
    listed = [line for line in lines if line.startswith("set(NUTCORE_GAMES ")]
    assert len(listed) == 1, lines
    assert sorted(listed[0][len("set(NUTCORE_GAMES ") : -1].split()) == sorted(GAMES)


def _readme_table() -> dict[str, str]:
    rows = {}
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"\| (.+?) \| `(\w+)` \| .+ \|", line)
        if m:
            rows[m.group(2)] = m.group(1)
    return rows


def test_readme_lists_every_game():
    table = _readme_table()
    for game in GAMES:
        title = nutcore.load_game(game).title
        assert game in table, f"README's game table has no row for {game}: add | {title} | `{game}` | <status> |"
        assert table[game] == title, f"README calls {game} {table[game]!r}; its declaration's kTitle is {title!r}"
    assert set(table) == set(GAMES), f"README lists games that are not declared: {set(table) - set(GAMES)}"


# ----- No generic file names a game

# The generic layers: they reach games only through the contract, the declarations and the registry.
GENERIC = [
    "cpp/core/*",
    "cpp/search/*",
    "cpp/engine/*",
    "cpp/bindings/*",
    "cpp/capi/*",
    "cpp/include/*",
    "cpp/tools/*",
    "cpp/wasm/*.js",
    "python/nutcore/*.py",
    "python/nutcore/learn/*.py",
    "python/nutcore/web/*.py",
    "python/nutcore/web/static/*.js",
    "python/nutcore/web/static/*.html",
    "python/nutcore/web/static/boards/common.js",
]

# Code that names a game on purpose, with the reason. Comments and docstrings may (examples, and
# where a figure was measured); code may not, save these.
ALLOWED: dict[tuple[str, str], str] = {
    # The --memory-aids option's help text gives two games as examples of memory games: prose for
    # people, as a comment would be (the option itself is generic: HasMemoryAids).
    ("python/nutcore/cli.py", "purzelbaum"): "a help text's example",
    ("python/nutcore/cli.py", "ritter"): "a help text's example",
}


def _python_code_words(text: str) -> list[str]:
    """Names, attributes and string literals of a module's code, docstrings left out."""
    tree = ast.parse(text)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    words = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.append(node.value)
    return words


def _c_like_code(text: str) -> str:
    """C++ or JavaScript without its comments (a // inside a string such as a URL is kept)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"(^|\s)//.*", r"\1", text, flags=re.M)


def _game_words() -> dict[str, str]:
    words = {}
    for game in GAMES:
        words[game] = game
        words[_namespace(game)] = game
        words[nutcore.load_game(game).title] = game
    return words


def test_no_generic_file_names_a_game():
    words = _game_words()
    pattern = re.compile(
        r"\b(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")(?!\w)", re.I
    )
    found = []
    for glob in GENERIC:
        for path in sorted(ROOT.glob(glob)):
            rel = path.relative_to(ROOT).as_posix()
            if not path.is_file():
                continue
            text = path.read_text(encoding="utf-8")
            code = "\n".join(_python_code_words(text)) if path.suffix == ".py" else _c_like_code(text)
            hits = sorted({m.group(1) for m in pattern.finditer(code)})
            hits = [h for h in hits if (rel, h.lower()) not in ALLOWED]
            if hits:
                found.append(f"{rel}: {', '.join(hits)}")
    assert not found, "generic files name games in their code (move it to the game's folder):\n" + "\n".join(found)


def test_the_scan_sees_a_game_name_in_code():
    # The scan is not blind: a string literal or a C++ namespace in code is found, comments are not.
    assert "ritter" in _python_code_words('"""ritter"""\nx = "ritter"\n')[1:]
    assert _python_code_words('"""ritter"""\n') == []
    assert "adn::" in _c_like_code("// ritter\nauto x = adn::Game();")
    assert "ritter" not in _c_like_code("// ritter\n/* ritter */ int x;")
