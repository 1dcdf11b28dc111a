#!/usr/bin/env bash
# Builds DejaVuSans-Bold-subset.ttf from Debian's fonts-dejavu-core (2.37):
# Latin (Basic, Latin-1, Extended-A/B), Greek, Cyrillic, general punctuation,
# currency, arrows and the chess symbols, without hinting or layout tables we
# do not use. That covers coordinates and most player names at a fifth of the
# size. Needs `apt install fonts-dejavu-core` and `pip install fonttools`.
set -euo pipefail
cd "$(dirname "$0")"
pyftsubset /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf \
  --unicodes="U+0020-024F,U+0370-03FF,U+0400-04FF,U+2000-206F,U+20A0-20CF,U+2190-21FF,U+2212,U+2654-265F,U+FFFD" \
  --no-hinting --drop-tables+=GSUB,GPOS,GDEF,kern \
  --output-file=DejaVuSans-Bold-subset.ttf
