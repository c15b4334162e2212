"""The docs keep up with the code: every rules field is documented."""

from pathlib import Path

from gostop_core.rules import FIELDS, PRESETS

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_rules_field_is_in_the_rules_page():
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    missing = [name for name in FIELDS if f"`{name}`" not in text]
    assert not missing, f"docs/rules.md lacks {missing}"


def test_rules_page_values_match_presets():
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        name = cells[0].strip("`")
        if name not in FIELDS:
            continue
        values = [int(c) for c in cells[2:6]]
        expected = [PRESETS[p][name] for p in ("casual", "traditional", "standard", "family")]
        assert values == expected, name
