"""docs/cli.md keeps up with the live command list: every subcommand of
``gostop --help`` has a row in the table, a section with an example, and every
command with ``--json`` is listed as such."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from gostop_cli.main import cli

DOC = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
COMMANDS = sorted(cli.commands)


def section(name: str) -> str:
    """The text of ``## gostop NAME`` up to the next ``## `` heading."""
    match = re.search(rf"^## gostop {re.escape(name)}\s*$(.*?)(?=^## |\Z)", DOC, re.M | re.S)
    assert match, f"docs/cli.md has no section '## gostop {name}'"
    return match.group(1)


def has_json(command: click.Command) -> bool:
    return any("--json" in getattr(p, "opts", ()) for p in command.params)


def test_the_live_command_list_is_read():
    assert {"play", "deal", "perft", "score", "rules", "hint"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_a_section_with_an_example(name):
    text = section(name)
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.S)
    examples = [b for b in blocks if re.search(rf"^(\$ )?gostop {re.escape(name)}\b", b, re.M)]
    assert examples, f"the section of gostop {name} shows no example"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_is_in_the_table(name):
    assert re.search(rf"^\| \[`gostop {re.escape(name)}`\]\(#gostop-{re.escape(name)}\) \|",
                     DOC, re.M), f"gostop {name} is missing from the table of commands"


def test_the_number_of_commands_is_not_written_down():
    assert not re.search(r"\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) "
                         r"subcommands", DOC)


def test_every_command_with_json_is_listed_as_such():
    row = next(line for line in DOC.splitlines() if line.startswith("| `--json` |"))
    listed = set(re.findall(r"`([a-z-]+)`", row.split("|")[2]))
    with_json = {name for name in COMMANDS if has_json(cli.commands[name])}
    assert with_json, "no command has --json?"
    assert listed == with_json, (sorted(listed - with_json), sorted(with_json - listed))
