"""Every word the templates and the code mark for translation has its Spanish: a word added in
English fails here, by name, before `make messages` is run (the catalogue alone would still
read 100 %), and so does a Spanish entry nothing uses any more."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
SPANISH = ROOT / "translations" / "es" / "LC_MESSAGES" / "messages.po"


def extract_command(template: Path) -> list[str]:
    """`make messages`' own `pybabel extract` line (babel.cfg, its keywords), writing to
    `template` instead of translations/messages.pot."""
    recipe = next(
        line.strip()
        for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
        if line.strip().startswith("$(BIN)/pybabel extract")
    )
    words = shlex.split(recipe.replace("$(BIN)", str(Path(sys.executable).parent)))
    at = words.index("-o")
    assert words[at + 1] == "translations/messages.pot", recipe
    words[at + 1] = str(template)
    return words


def _key(message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def problems(template: Path, catalogue: Path) -> tuple[list[str], list[str]]:
    """(msgids with no Spanish: missing, fuzzy or empty; msgids the catalogue keeps that
    nothing marks any more, or keeps as obsolete)."""
    with template.open("rb") as file:
        wanted = {_key(m) for m in read_po(file) if m.id}
    with catalogue.open("rb") as file:
        spanish = read_po(file)
    have = {_key(m): m for m in spanish if m.id}
    missing = []
    for msgid in sorted(wanted):
        message = have.get(msgid)
        said = message.string if message else ""
        said = list(said) if isinstance(said, list | tuple) else [said]
        if message is None or message.fuzzy or not all(said):
            missing.append(msgid)
    unused = sorted(set(have) - wanted) + sorted(_key(m) for m in spanish.obsolete.values())
    return missing, unused


def test_every_marked_word_has_its_spanish_and_none_is_left_unused(tmp_path):
    template = tmp_path / "messages.pot"
    command = extract_command(template)
    assert "-F" in command and command[command.index("-F") + 1] == "babel.cfg"
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    missing, unused = problems(template, SPANISH)
    assert missing == [], (
        "no Spanish in messages.po (make messages, then translate):\n" + "\n".join(missing)
    )
    assert unused == [], "in messages.po but marked nowhere (make messages drops them):\n" + (
        "\n".join(unused)
    )


def test_the_check_names_a_word_without_spanish_a_fuzzy_one_and_an_unused_one(tmp_path):
    template, catalogue = tmp_path / "messages.pot", tmp_path / "messages.po"
    template.write_text(
        'msgid ""\nmsgstr ""\n\nmsgid "Send"\nmsgstr ""\n\nmsgid "New word"\nmsgstr ""\n\n'
        'msgid "Guessed"\nmsgstr ""\n\nmsgid "Untouched"\nmsgstr ""\n\n'
        'msgid "One photo"\nmsgid_plural "%(num)s photos"\nmsgstr[0] ""\nmsgstr[1] ""\n',
        encoding="utf-8",
    )
    catalogue.write_text(
        'msgid ""\nmsgstr ""\n"Language: es\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "Send"\nmsgstr "Enviar"\n\nmsgid "New word"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Guessed"\nmsgstr "Adivinado"\n\n'
        'msgid "Untouched"\nmsgstr "Intacto"\n\n'
        'msgid "One photo"\nmsgid_plural "%(num)s photos"\nmsgstr[0] "Una foto"\nmsgstr[1] ""\n\n'
        'msgid "Gone"\nmsgstr "Ido"\n\n#~ msgid "Long gone"\n#~ msgstr "Hace tiempo"\n',
        encoding="utf-8",
    )
    assert problems(template, catalogue) == (
        ["Guessed", "New word", "One photo"],
        ["Gone", "Long gone"],
    )
