"""Embedding without Python (docs/embedding.md): the C example built with the system's C compiler
against the installed header and library and run; the nutcore-engine binary and libnutcore stand
alone (no libpython; only the ABI's functions exported); the header's every call is in the library;
and the type stub names everything the extension module has."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from protocol import binary_path

import nutcore
from nutcore import _core

ROOT = Path(__file__).resolve().parents[2]
HEADER = Path(nutcore.get_include()) / "nutcore.h"


def _compiler() -> str:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    assert cc, "no C compiler (the tests build the C example)"
    return cc


def test_the_c_example_plays_a_full_game_of_every_game(tmp_path):
    library = Path(nutcore.get_library())
    program = tmp_path / "play_all"
    build = subprocess.run(
        [
            _compiler(),
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            str(ROOT / "cpp" / "examples" / "play_all.c"),
            f"-I{nutcore.get_include()}",
            f"-L{library.parent}",
            "-lnutcore",
            f"-Wl,-rpath,{library.parent}",
            "-o",
            str(program),
        ],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(program)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == f"nutcore {nutcore.__version__}, ABI 2, {len(nutcore.list_games())} games"
    for name, line in zip(nutcore.list_games(), lines[1:]):
        assert line.startswith(f"{name}: ") and '"terminal":true' in line, line
        returns = [float(x) for x in re.search(r'"returns":\[([^\]]*)\]', line).group(1).split(",")]
        assert sum(returns) == pytest.approx(1.0)
    assert len(lines) == 1 + len(nutcore.list_games())


def _needed_libraries(path: str) -> str:
    ldd = shutil.which("ldd")
    assert ldd, "ldd is needed to read what a binary links"
    return subprocess.run([ldd, path], capture_output=True, text=True).stdout


def test_the_engine_binary_and_the_library_need_no_python():
    for path in (binary_path(), nutcore.get_library()):
        needed = _needed_libraries(path)
        assert "python" not in needed.lower(), needed


def test_the_library_exports_the_abi_and_nothing_else():
    nm = shutil.which("nm")
    assert nm, "nm is needed to read the library's symbols"
    out = subprocess.run([nm, "-D", "--defined-only", nutcore.get_library()], capture_output=True, text=True).stdout
    exported = {line.split()[-1] for line in out.splitlines() if " T " in line}
    declared = set(re.findall(r"NC_API [^;]*?\b(nc_\w+)\(", HEADER.read_text()))
    assert declared and exported == declared, (exported - declared, declared - exported)


def test_the_type_stub_is_the_one_the_module_gives():
    """python/nutcore/_core.pyi is what tools/stubgen.py writes from the module now: regenerate it
    with `python tools/stubgen.py > python/nutcore/_core.pyi` after changing the bindings."""
    from stubgen import stub

    committed = (Path(nutcore.__file__).parent / "_core.pyi").read_text()
    assert committed == stub()


def test_the_type_stub_has_no_invalid_defaults():
    """A parameter whose default is None says so in its type (`stop: StopToken | None = None`,
    never `stop: StopToken = None`), and no signature fell back to (*args, **kwargs)."""
    tree = ast.parse((Path(nutcore.__file__).parent / "_core.pyi").read_text())
    wrong = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        params = node.args.args + node.args.kwonlyargs
        defaults = [None] * (len(node.args.args) - len(node.args.defaults)) + node.args.defaults
        defaults += node.args.kw_defaults
        for param, default in zip(params, defaults):
            is_none = isinstance(default, ast.Constant) and default.value is None
            if is_none and "None" not in ast.unparse(param.annotation or ast.Constant(None)):
                wrong.append(f"{node.name}({param.arg})")
        if node.args.vararg or node.args.kwarg:
            wrong.append(f"{node.name}(*args, **kwargs)")
    assert not wrong


def test_the_type_stub_names_everything_the_module_has():
    """python/nutcore/_core.pyi is current: every public class and function of nutcore._core is in
    it, and nothing else; for each class, its methods."""
    tree = ast.parse((Path(nutcore.__file__).parent / "_core.pyi").read_text())
    stub_names = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    stub_names |= {t.id for n in tree.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    module_names = {n for n in dir(_core) if not n.startswith("__")} | {"__version__"}
    assert stub_names == module_names, (sorted(module_names - stub_names), sorted(stub_names - module_names))
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            stub_members = {m.name for m in node.body if isinstance(m, ast.FunctionDef)}
            stub_members |= {m.target.id for m in node.body if isinstance(m, ast.AnnAssign)}
            members = {m for m in vars(getattr(_core, node.name)) if not m.startswith(("__", "_pybind11"))}
            missing = members - stub_members - {"__init__"}
            assert not missing, (node.name, sorted(missing))
