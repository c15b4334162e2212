"""Make the Korean webfont the web table ships (src/gostop_web/static/hangul.woff):
NanumGothic (SIL Open Font License 1.1, Debian's fonts-nanum) cut down with
fontTools to the Hangul the page, the server's Korean table and the SVG titles
use, and renamed, as the licence asks of a modified font with a reserved name.

    apt-get download fonts-nanum && dpkg-deb -x fonts-nanum_*.deb nanum
    python scripts/subset_korean_font.py nanum/usr/share/fonts/truetype/nanum/NanumGothic.ttf

Run it again whenever a Korean text of the page or of gostop_core.korean changes
(tests/test_web_safety.py checks that the font has every Hangul character used)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
#: The files whose Korean the page can show.
SOURCES = [*sorted((ROOT / "src/gostop_web/static").glob("*.js")),
           *sorted((ROOT / "src/gostop_web/static").glob("*.html")),
           *sorted((ROOT / "src/gostop_web").glob("*.py")),  # the server's report and frames
           ROOT / "src/gostop_core/korean.py", ROOT / "src/gostop_core/svg/table.py"]
HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")
FAMILY = "Gostop Hangul"
OUT = ROOT / "src/gostop_web/static/hangul.woff"


def used_hangul() -> str:
    chars: set[str] = set()
    for path in SOURCES:
        chars |= set(HANGUL.findall(path.read_text("utf-8")))
    return "".join(sorted(chars))


def main(source: str) -> None:
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    font = TTFont(source)
    sub = subset.Subsetter(options)
    sub.populate(text=used_hangul())
    sub.subset(font)
    # a modified font may not keep the reserved font name (OFL 1.1, condition 3)
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 4, 16):
            names.setName(FAMILY, record.nameID, record.platformID, record.platEncID,
                          record.langID)
        elif record.nameID == 6:
            names.setName(FAMILY.replace(" ", ""), 6, record.platformID, record.platEncID,
                          record.langID)
    font.flavor = "woff"
    font.save(OUT)
    print(f"{OUT}: {OUT.stat().st_size} bytes, {len(used_hangul())} Hangul characters")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
