#!/bin/sh
# make bench: every benchmark, each printing a markdown table for
# docs/benchmarks.md.  Needs nginx, wrk, curl, postgresql-doc-15,
# postgresql and the crawlers compared (make bench installs them as root;
# or sudo make deps-bench; render's Playwright side needs node and npm,
# and is skipped without).  Takes a few minutes on 2 cores.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
export BIN="${BIN:-$here/../bin}"
for b in fetch parse sink; do
	echo "## $b"
	sh "$here/bench-$b.sh"
	echo
done
# Main-content quality needs the extraction development set, which is not
# in the tree (scripts/eval-extract.py says where it looks).
dev=${EXTRACT_DEV:-$here/../../shared/extraction-dev}
if [ -f "$dev/cases.json" ]; then
	echo "## main content"
	python3 "$here/eval-extract.py" --bin "$BIN" --dev "$dev" --field text
	python3 "$here/eval-extract.py" --bin "$BIN" --dev "$dev"
	echo
fi
echo "## pipeline"; sh "$here/bench-pipeline.sh"; echo
echo "## recrawl"; sh "$here/bench-recrawl.sh"; echo
echo "## duplicates"; sh "$here/bench-dedup.sh"; echo
echo "## cluster"; sh "$here/bench-cluster.sh"; echo
echo "## loop lag on a 1000000-URL PostgreSQL frontier"; sh "$here/bench-lag.sh"; echo
echo "## adaptive pacing"; sh "$here/bench-adapt.sh"; echo
echo "## a million hosts"; sh "$here/bench-hosts.sh"; echo
echo "## cookies from a hostile site"; sh "$here/bench-cookies.sh"; echo
echo "## reading WARC"; sh "$here/bench-warc.sh"; echo
echo "## render"; sh "$here/bench-render.sh" 20; echo
