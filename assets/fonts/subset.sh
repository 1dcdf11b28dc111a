#!/usr/bin/env bash
# Builds DejaVuSans-Bold-subset.ttf and DejaVuSans-subset.ttf (the regular
# weight, for table cells and chart labels) from Debian's fonts-dejavu-core (2.37):
# Latin (Basic, Latin-1, Extended-A/B), Greek, Cyrillic, general punctuation,
# currency, arrows and the chess symbols, without hinting or layout tables we
# do not use. That covers coordinates and most player names at a fifth of the
# size. Needs `apt install fonts-dejavu-core` and `pip install fonttools`.
set -euo pipefail
cd "$(dirname "$0")"
for weight in Sans-Bold Sans; do
  pyftsubset "/usr/share/fonts/truetype/dejavu/DejaVu$weight.ttf" \
    --unicodes="U+0020-024F,U+0370-03FF,U+0400-04FF,U+2000-206F,U+20A0-20CF,U+2190-21FF,U+2212,U+2654-265F,U+FFFD" \
    --no-hinting --drop-tables+=GSUB,GPOS,GDEF,kern \
    --output-file="DejaVu$weight-subset.ttf"
done
