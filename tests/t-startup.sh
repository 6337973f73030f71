# Mistakes in the command line stop every program before it starts its
# work, by one rule (docs/records.md, "Mistakes in the command line"):
# a bad value exits 64, a file to read that cannot be read 66, a file to
# write that cannot be created 73.  Each message names the flag and the
# file, and nothing was done: no request at the test server, nothing on
# stdout, no row stored.  Runs as root too, so an unwritable place is a
# missing directory, a path under a file, or a directory.
. "$TESTS/lib.sh"
server_start
report=$TESTS/../scripts/report
N=$T/nodir   # never made
echo "$URL/ok" >"$T/in.fetch"
cp "$T/in.fetch" "$T/in.render"
echo "{\"url\": \"$URL/ok\", \"host\": \"127.0.0.1\", \"status\": 200, \"ctype\": \"text/html\", \"title\": \"ok\"}" |
	mkrec >"$T/in.validate"
cp "$T/in.validate" "$T/in.sink"
: >"$T/in.parse"
echo "not a directory" >"$T/file"

# refused PROG STATUS MESSAGE ARGS...: PROG ARGS (standard input
# $T/in.PROG) exits STATUS with MESSAGE as its first line on stderr,
# writes nothing on stdout and makes no request.
refused() {
	prog=$1 want=$2 msg=$3
	shift 3
	: >"$LOG"
	timeout 20 "$BIN/$prog" "$@" <"$T/in.$prog" >"$T/out" 2>"$T/err"
	expect_eq "$prog $(echo "$*" | sed "s|$T|\$T|g"): exits $want before any work" "$want $msg|0 bytes out|0 requests" \
		"$? $(head -1 "$T/err")|$(wc -c <"$T/out" | tr -d ' ') bytes out|$(wc -l <"$LOG" | tr -d ' ') requests"
}

# What the refusals are measured against: the same input, no mistake.
timeout 20 "$BIN/fetch" -q --no-robots --sink-stats "$T/later.json" <"$T/in.fetch" >"$T/out"
expect_eq "fetch without a mistake: one request, one record (a --sink-stats file sink has yet to write is fine)" \
	"0 1 1" "$? $(wc -l <"$LOG" | tr -d ' ') $("$BIN/sink" - <"$T/out" 2>/dev/null | wc -l | tr -d ' ')"

# ---- fetch
refused fetch 64 "fetch: invalid value 'ftp://ann:***@proxy.test' for --proxy: want SCHEME://HOST[:PORT] with SCHEME http, https, socks4, socks4a, socks5 or socks5h" \
	--no-robots --proxy ftp://ann:hunter2@proxy.test
grep -q hunter2 "$T/err" && fail "the bad --proxy's password is not shown" "$(cat "$T/err")"
for f in cacert netrc-file policy; do
	refused fetch 66 "fetch: --$f: cannot read '$T/none': No such file or directory" --no-robots "--$f" "$T/none"
done
refused fetch 66 "fetch: --cacert: cannot read '$T': Is a directory" --no-robots --cacert "$T"
refused fetch 66 "fetch: --capath: cannot read '$T/file': Not a directory" --no-robots --capath "$T/file"
refused fetch 66 "fetch: --header: cannot read '$T/none': No such file or directory" --no-robots -H "@$T/none"
refused fetch 66 "fetch: --user: cannot read '$T/none': No such file or directory" --no-robots --user "@$T/none"
refused fetch 66 "fetch: --proxy-user: cannot read '$T/none': No such file or directory" \
	--no-robots --proxy-user "@$T/none"
refused fetch 66 "fetch: --sink-stats: cannot read '$N/s.json': No such file or directory" \
	--no-robots --sink-stats "$N/s.json"
for f in stats metrics cookies; do
	refused fetch 73 "fetch: --$f: cannot write '$N/x': No such file or directory" --no-robots "--$f" "$N/x"
done
refused fetch 73 "fetch: --cookies: cannot write '$T/file/jar.txt': Not a directory" --no-robots --cookies "$T/file/jar.txt"
refused fetch 73 "fetch: --stats: cannot write '$T': Is a directory" --no-robots --stats "$T"
# With --queue nothing is leased either: the job file is not even made.
refused fetch 73 "fetch: --stats: cannot write '$N/x': No such file or directory" \
	--queue "$T/job.db" --no-robots --stats "$N/x" "$T/in.fetch"
expect_eq "fetch --queue with a mistake makes no job file" no "$([ -e "$T/job.db" ] && echo yes || echo no)"

# ---- validate
for s in 9xx 600 99 200-600; do
	refused validate 64 "validate: --status: bad status range '$s': want N, N-M or Nxx, statuses from 100 to 599, or any" \
		--status "$s"
done
printf '[host a.test]\nstatus 0xx\n' >"$T/status.rules"
refused validate 64 "validate: bad rules file: $T/status.rules:2: bad status range '0xx': want N, N-M or Nxx, statuses from 100 to 599, or any" \
	--rules "$T/status.rules"
refused validate 66 "validate: --rules: cannot read '$T/none': No such file or directory" --rules "$T/none"
refused validate 73 "validate: --summary: cannot write '$N/sum.json': No such file or directory" --summary "$N/sum.json"

# ---- sink: nothing stored, the target not even made
refused sink 64 "sink: invalid value '0' for --batch: want a whole number from 1 to 100000000" --batch 0 "$T/p.db"
for f in stats metrics; do
	refused sink 73 "sink: --$f: cannot write '$N/x': No such file or directory" "--$f" "$N/x" "$T/p.db"
done
expect_eq "sink made no database" no "$([ -e "$T/p.db" ] && echo yes || echo no)"

# ---- parse (its files are operands: each is read, the others go on)
refused parse 64 "parse: invalid value '999' for --jobs: want a whole number from 0 to 256" -j 999
refused parse 66 "parse: cannot read $T/none.html: No such file or directory" --html "$T/none.html"

# ---- render: refused before Chromium starts, so whether it is installed
# does not matter
refused render 64 "render: invalid value '1x1' for --viewport: want WIDTHxHEIGHT, each from 100 to 10000" --viewport 1x1
refused render 66 "render: --header: cannot read '$T/none': No such file or directory" -H "@$T/none"
refused render 73 "render: --cookies: cannot write '$N/jar.txt': No such file or directory" --cookies "$N/jar.txt"

# ---- scripts/report: --html's place is checked before the table prints
"$BIN/sink" -q "$T/pages.db" <"$T/in.sink"
"$report" "$T/pages.db" --html "$N/r.html" >"$T/out" 2>"$T/err"
expect_eq "report --html in a missing directory: exit 73 before the table" \
	"73 report: --html: cannot write '$N/r.html': no such file or directory|0 bytes out" \
	"$? $(cat "$T/err")|$(wc -c <"$T/out" | tr -d ' ') bytes out"
"$report" "$T/pages.db" --html "$T" >"$T/out" 2>"$T/err"
expect_eq "report --html naming a directory: exit 73" \
	"73 report: --html: cannot write '$T': is a directory" "$? $(cat "$T/err")"
finish
