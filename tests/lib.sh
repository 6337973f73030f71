# Sourced by every tests/t-*.sh.  Gives each script its own scratch
# directory ($T), its own test server with its own request log, and
# assertion helpers that print `ok - name` / `not ok - name`.
#
#   . "$TESTS/lib.sh"
#   server_start            # sets $PORT, $URL (http://127.0.0.1:$PORT), $LOG,
#                           # $U1 $U2 $U3 (the same port on .1, .2, .3)
#   out=$(echo "$URL/ok" | "$BIN/fetch" --json)
#   expect_eq "fetch sets status" 200 "$(echo "$out" | jq .status)"
#   finish

set -u
: "${TESTS:=$(cd "$(dirname "$0")" && pwd)}"
: "${BIN:=$TESTS/../bin}"
T=$(mktemp -d "${TMPDIR:-/tmp}/sluice-test.XXXXXX")
SERVER_PID=
NAME=$(basename "$0" .sh)
FAILS=0

cleanup() {
	[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null
	[ -n "${NGINX_PID-}" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null
	[ -n "${PGDIR-}" ] && "$TESTS/../scripts/pg-tmp" stop "$PGDIR"
	rm -rf "$T"
}
trap cleanup EXIT
# A signal (run.sh's timeout) ends the script through cleanup too: the
# PostgreSQL server runs in its own session and would outlive it.
trap 'exit 143' TERM INT HUP

ok()   { echo "ok - $NAME: $1"; }
fail() { echo "not ok - $NAME: $1"; shift; for l in "$@"; do echo "#   $l"; done; FAILS=$((FAILS + 1)); }

# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "expected: $2" "actual:   $3"; fi
}

# expect_cmd NAME CMD... : passes when CMD exits 0
expect_cmd() {
	n=$1; shift
	if "$@" >/dev/null 2>&1; then ok "$n"; else fail "$n" "command failed: $*"; fi
}

# expect_match NAME REGEX ACTUAL
expect_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then ok "$1"; else fail "$1" "no match for: $2" "actual: $3"; fi
}

# expect_usage_errors PROG CMDLINE...: for each CMDLINE (split at spaces),
# $BIN/PROG exits 64 and its last line on stderr is the --help hint
expect_usage_errors() {
	prog=$1; shift
	for bad in "$@"; do
		# shellcheck disable=SC2086
		"$BIN/$prog" $bad </dev/null >/dev/null 2>"$T/err"
		expect_eq "usage error: $bad exits 64 with a hint" "64 Try '$prog --help' for more information." \
			"$? $(tail -1 "$T/err")"
	done
}

# server_start [ARGS...]: starts tests/server.py on 127.0.0.1, .2 and .3 at
# one free port; extra ARGS go to the server (e.g. --robots FILE).
server_start() {
	LOG=$T/requests.log
	: >"$LOG"
	rm -f "$T/port"   # a second server must not be found at the first's port
	python3 "$TESTS/server.py" --port-file "$T/port" --log "$LOG" \
		--addr 127.0.0.1 --addr 127.0.0.2 --addr 127.0.0.3 "$@" \
		>"$T/server.out" 2>&1 &
	SERVER_PID=$!
	wait_for 20 "the test server to write its port" test -s "$T/port" || exit 1
	PORT=$(cat "$T/port")
	URL=http://127.0.0.1:$PORT
	# shellcheck disable=SC2034  # for the scripts
	U1=$URL U2=http://127.0.0.2:$PORT U3=http://127.0.0.3:$PORT
}

# poll_until SECONDS CMD...: runs CMD (output discarded) every 0.05 s
# until it exits 0, then returns 0; returns 1 once SECONDS (whole
# seconds of wall time) have passed.  Tests wait for a state through it,
# never with a fixed sleep: a sleep long enough on a quiet machine races
# on a loaded one, and is wasted time on a quiet one.
poll_until() {
	_pu_end=$(( $(date +%s%N) + $1 * 1000000000 )); shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s%N)" -gt "$_pu_end" ] && return 1
		sleep 0.05
	done
}

# wait_for SECONDS WHAT CMD...: poll_until, failing the test with "waited
# SECONDS s for WHAT" on a timeout (and returning 1).  WHAT names the
# state, e.g. "3 requests at the server".
wait_for() {
	_wf_s=$1 _wf_what=$2; shift 2
	poll_until "$_wf_s" "$@" || { fail "waited $_wf_s s for $_wf_what" "command: $*"; return 1; }
}

# Conditions for poll_until and wait_for:
# gone PID: PID has exited (or is a zombie no one waited for yet)
gone() { ! kill -0 "$1" 2>/dev/null || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
# lines_ge N FILE: FILE has at least N lines
lines_ge() { [ "$(wc -l <"$2")" -ge "$1" ]; }
# logged_ge N PATH-REGEX: the server's log has at least N requests for it
logged_ge() { [ "$(count "$2")" -ge "$1" ]; }
# no_signal_pending PID: every signal sent to PID has been delivered (a
# second one sent now is not merged with the first)
no_signal_pending() {
	! grep -Eq '^(SigPnd|ShdPnd):.*[1-9a-f]' "/proc/$1/status" 2>/dev/null
}
# idle_reader PID FIFO: PID has read every byte written to FIFO, sleeps in
# poll() for more and has no signal pending.  A stage that takes signals
# only in its poll (lib/stop.h) then finds all it read already handled.
idle_reader() {
	python3 - "$1" "$2" <<'PY'
import fcntl, os, struct, sys, termios
pid, fifo = sys.argv[1], sys.argv[2]
fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
unread = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
with open(f"/proc/{pid}/wchan") as f:
    wchan = f.read()
with open(f"/proc/{pid}/status") as f:
    st = dict(l.split(":", 1) for l in f)
sys.exit(not (unread == 0 and "poll" in wchan and
              int(st["SigPnd"], 16) == 0 and int(st["ShdPnd"], 16) == 0))
PY
}

# pg_start: starts a throwaway PostgreSQL server (scripts/pg-tmp) that
# cleanup stops; sets $PG to its connection URI.  Outside $T, which the
# server's user may not enter.
pg_start() {
	PGDIR=$(mktemp -d "${TMPDIR:-/tmp}/sluice-pg.XXXXXX")
	PG=$("$TESTS/../scripts/pg-tmp" start "$PGDIR") || { fail "pg_start: no PostgreSQL"; exit 1; }
}

# pg_db NAME: creates the database NAME on pg_start's server; prints its
# URI.  A job of its own for each crawl that must start empty.
pg_db() {
	psql -X -q "$PG" -c "CREATE DATABASE $1" >/dev/null
	echo "$PG" | sed "s|:///postgres?|:///$1?|"
}

# server_restart [ARGS...]: stops the server and starts a new one with ARGS
# (a new $PORT, $URL, $U1..$U3; the log is emptied).
server_restart() {
	kill "$SERVER_PID"
	wait "$SERVER_PID" 2>/dev/null
	rm -f "$T/port"
	server_start "$@"
}

# requests PATH-REGEX [HOST]: the request log lines whose path matches
# (and whose Host header starts with HOST, when given)
requests() {
	jq -c --arg p "$1" --arg h "${2-}" 'select((.path | test($p)) and ($h == "" or (.host | startswith($h))))' "$LOG"
}

# count PATH-REGEX: how many requests matched
count() { requests "$1" | wc -l | tr -d ' '; }

# requested PATH [ADDR]: how many requests for exactly PATH reached ADDR
# (127.0.0.1 when not given)
requested() { jq -s --arg p "$1" --arg a "${2:-127.0.0.1}" 'map(select(.path == $p and .addr == $a)) | length' "$LOG"; }

# gaps ADDR: the seconds between request starts at ADDR, in order
# (requests for /robots.txt left out)
gaps() { jq -sc --arg a "$1" '[.[] | select(.addr == $a and .path != "/robots.txt") | .t] | sort | [range(1; length) as $i | .[$i] - .[$i - 1]]' "$LOG"; }

# ms JSON-ARRAY: the values in whole milliseconds, for messages
ms() { echo "$1" | jq -c 'map(. * 1000 | floor)'; }

# twice RUN CHECK: empties the log, runs RUN and prints what CHECK prints.
# A CHECK that does not print ok, true or "ok ok ok" (one ok per host)
# gets one more fresh run: on a busy machine one request can leave a few
# ms late and shorten the next gap, while a pacing bug fails both runs.
# The first result goes to stderr.
twice() {
	: >"$LOG"; $1; r=$($2)
	case $r in ok | true | "ok ok ok") ;; *)
		echo "#   $2: first run gave $r; running again" >&2
		: >"$LOG"; $1; r=$($2) ;;
	esac
	echo "$r"
}

# mkrec [ARGS...]: tests/mkrec.py, JSON lines to msgpack records
mkrec() { python3 "$TESTS/mkrec.py" "$@"; }

# records FILE: how many lines (JSON records) FILE holds
records() { wc -l <"$1" | tr -d ' '; }

# field FILE JQ [URL]: what JQ makes of FILE's JSON records (of the one
# whose url is URL, when given), compact
field() { jq -c --arg u "${3-}" "select(\$u == \"\" or .url == \$u) | $2" "$1"; }

# canon: the JSON records on stdin, compact, without parse_ms (a time,
# the one key that differs from run to run)
canon() { jq -c 'del(.parse_ms)'; }

# urls BASE N [BASE N...]: N distinct URLs of BASE, BASE followed by 1
# to N, one a line; several BASEs take turns (the first of each, then the
# second of each...), as in an input that mixes hosts
urls() {
	printf '%s\n' "$@" | awk 'NR % 2 { b[++n] = $0; next } { c[n] = $0 + 0; if (c[n] > m) m = c[n] }
		END { for (i = 1; i <= m; i++) for (j = 1; j <= n; j++) if (i <= c[j]) print b[j] i }'
}

# q DB SQL: runs SQL on the SQLite database DB
q() { sqlite3 "$1" "$2"; }

# pq DB SQL: runs SQL on the PostgreSQL database DB (a URI): a row a
# line, columns joined by |, as q prints them
pq() { psql -X -q -At "$1" -c "$2"; }

# now: the time as float unix seconds
now() { date +%s.%N; }

# since T: the seconds from T (a now) to now
since() { echo "$(now) - $1" | bc; }

# holds EXPR: exits 0 when bc finds EXPR (e.g. "$took < 8") true
holds() { [ "$(echo "$1" | bc)" = 1 ]; }

# crawl JOB PAGES [FETCH-ARGS...] [parse: ARGS...] [validate: ARGS...]
# [sink: ARGS...]: one run of the queue job JOB over $T/seeds.txt into
# PAGES, each stage with the ARGS after its name, bounded to 60 s:
#   fetch --queue JOB FETCH-ARGS $T/seeds.txt | parse ARGS |
#   validate ARGS | sink --queue JOB ARGS PAGES
# Each stage's stderr goes to $T/fetch.err, parse.err, validate.err or
# sink.err, for the checks of its notes (no stage needs -q); the status
# is sink's.
crawl() {
	_crawl_job=$1 _crawl_pages=$2; shift 2
	crawl_stage fetch: "$@" | crawl_stage parse: "$@" | crawl_stage validate: "$@" | crawl_stage sink: "$@"
}
# crawl_stage STAGE: ARGS...: runs crawl's STAGE with its own of ARGS
crawl_stage() {
	_cs=$1; shift
	_in=fetch: _n=$#
	while [ "$_n" -gt 0 ]; do
		case $1 in
		fetch: | parse: | validate: | sink:) _in=$1 ;;
		*) [ "$_in" = "$_cs" ] && set -- "$@" "$1" ;;
		esac
		shift; _n=$((_n - 1))
	done
	case $_cs in
	fetch:) set -- "$BIN/fetch" --queue "$_crawl_job" "$@" "$T/seeds.txt" ;;
	parse:) set -- "$BIN/parse" "$@" ;;
	validate:) set -- "$BIN/validate" "$@" ;;
	sink:) set -- "$BIN/sink" --queue "$_crawl_job" "$@" "$_crawl_pages" ;;
	esac
	timeout 60 "$@" 2>"$T/${_cs%:}.err"
}

# cmp_runs RUN1 RUN2 [BASE]: two dumps of pages before and after a
# recrawl, rows url|title|stored_at|last_checked sorted by url; per url
# (BASE cut off its start): "URL same|OLD -> NEW kept|stored
# checked|NOT checked", of its title, stored_at and last_checked
cmp_runs() {
	LC_ALL=C join -t"|" "$1" "$2" | awk -F'|' -v base="${3-}" \
		'{ sub(base, "", $1); print $1, ($5 == $2 ? "same" : $2 " -> " $5),
		   ($6 == $3 ? "kept" : "stored"), ($7 > $4 ? "checked" : "NOT checked") }'
}

# closed_port: a port on 127.0.0.1 nothing listens on
closed_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# nginx_start SERVERS: starts a private nginx from Debian (prefix $T/ng,
# one worker, in the foreground) whose http block holds SERVERS, the
# caller's server { } blocks (ports from closed_port, their own
# access_log: the log_formats "cond", "$request_uri|$status|
# $http_if_none_match|$http_if_modified_since", and "proto",
# "$request_uri|$status|$server_protocol", unescaped); sets $NGINX_PID,
# stopped by cleanup.  Returns once nginx listens (it writes its pid file
# after binding), failing the test with nginx's error log when it exits
# first.  $T becomes world-readable: when the tests run as root, the
# worker is nobody, and reads the caller's docroot under $T.
nginx_start() {
	mkdir -p "$T/ng/logs" "$T/ng/tmp"
	chmod 755 "$T"
	cat >"$T/ng/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $T/ng/nginx.pid;
error_log $T/ng/logs/error.log warn;
events { worker_connections 256; }
http {
	log_format cond escape=none '\$request_uri|\$status|\$http_if_none_match|\$http_if_modified_since';
	log_format proto escape=none '\$request_uri|\$status|\$server_protocol';
	include /etc/nginx/mime.types;
	default_type application/octet-stream;
	client_body_temp_path $T/ng/tmp/body;
	proxy_temp_path $T/ng/tmp/proxy;
	fastcgi_temp_path $T/ng/tmp/fastcgi;
	uwsgi_temp_path $T/ng/tmp/uwsgi;
	scgi_temp_path $T/ng/tmp/scgi;
$1
}
EOF
	nginx -p "$T/ng" -c "$T/ng/nginx.conf" -e "$T/ng/logs/error.log" 2>"$T/ng/logs/stderr" &
	NGINX_PID=$!
	poll_until 20 nginx_up_or_gone
	if [ ! -s "$T/ng/nginx.pid" ] || gone "$NGINX_PID"; then
		fail "nginx did not start" "$(cat "$T/ng/logs/error.log" "$T/ng/logs/stderr")"
		NGINX_PID=
		return 1
	fi
}
nginx_up_or_gone() { [ -s "$T/ng/nginx.pid" ] || gone "$NGINX_PID"; }

# tls_ca DIR: a throwaway CA (DIR/ca.pem, ca.key) and a certificate it
# signed for 127.0.0.1 (DIR/srv.pem, srv.key; subjectAltName IP:127.0.0.1),
# valid two days.
tls_ca() {
	(
	cd "$1" || exit 1
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem \
		-days 2 -subj /CN=sluice-test-ca 2>/dev/null &&
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout srv.key -out srv.csr \
		-subj /CN=127.0.0.1 2>/dev/null &&
	printf 'subjectAltName=IP:127.0.0.1\n' >ext &&
	openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out srv.pem -days 2 -extfile ext 2>/dev/null
	) || { fail "tls_ca: openssl could not make the certificates"; return 1; }
}

# render_setup [SERVER-ARGS...]: a render test's start: the render
# fixtures served from $T/www (server_start with SERVER-ARGS), Chromium's
# profiles under $T/tmp (reachable by nobody, as whom Chromium runs when
# the tests are root), and the script skipped where Chromium cannot start.
render_setup() {
	mkdir -p "$T/www" "$T/tmp"
	chmod 711 "$T"
	cp "$TESTS"/fixtures/render/* "$T/www/"
	server_start --root "$T/www" "$@"
	export TMPDIR=$T/tmp
	echo "$URL/static.html" | "$BIN/render" -q --no-robots --json >"$T/probe.json" 2>"$T/probe.err"
	if [ "$(jq -r .status "$T/probe.json" 2>/dev/null)" != 200 ]; then
		echo "ok - $NAME: # skip headless Chromium cannot start here: $(tail -1 "$T/probe.err") (make deps)"
		finish
	fi
}

finish() { exit "$FAILS"; }
