#!/bin/sh
# Makes the bundled fonts of the pictures rendered to PNG (src/draw/png.rs) from DejaVu Sans 2.37
# (Debian's fonts-dejavu-core) with fontTools (Debian's fonttools): the characters our drawings
# write, kerning kept, renamed "Stationmaster Sans" as DejaVu's licence asks of modified fonts
# (LICENSE.txt). Run from this directory: sh subset.sh
set -eu
SRC=${SRC:-/usr/share/fonts/truetype/dejavu}
# Latin-1, Latin Extended-A, dashes, quotes, bullet, ellipsis, primes, euro, arrows, the minus
# and comparison signs, the card suits.
UNICODES="U+0020-007E,U+00A0-017F,U+2013-2014,U+2018-201E,U+2022,U+2026,U+2032-2033,U+20AC,U+2190-2193,U+2212,U+221A,U+2248,U+2260,U+2264-2265,U+2660-2667"
for face in "DejaVuSans.ttf StationmasterSans.ttf Book" "DejaVuSans-Bold.ttf StationmasterSans-Bold.ttf Bold"; do
  set -- $face
  pyftsubset "$SRC/$1" --unicodes="$UNICODES" --layout-features=kern --no-hinting --drop-tables+=MATH,FFTM --output-file="$2"
  /usr/bin/python3 - "$2" "$3" <<'PY'
import sys
from fontTools.ttLib import TTFont
path, style = sys.argv[1], sys.argv[2]
f = TTFont(path)
names = f["name"]
full = "Stationmaster Sans" if style == "Book" else "Stationmaster Sans Bold"
post = "StationmasterSans" if style == "Book" else "StationmasterSans-Bold"
for rec in list(names.names):
    if rec.nameID in (1, 3, 4, 6, 16, 17):
        names.removeNames(nameID=rec.nameID)
for nid, value in ((1, "Stationmaster Sans"), (2, style), (3, post), (4, full), (6, post)):
    names.setName(value, nid, 3, 1, 0x409)
    names.setName(value, nid, 1, 0, 0)
f.save(path)
PY
done
