# nginx from Debian as the origin, where tests/server.py would be our own
# reading of the RFCs: a queue job's recrawl sends nginx's own ETag and
# Last-Modified back and gets 304s, keeping the stored rows; a changed
# file is stored anew; TLS with a CA made here (--cacert, none, --insecure);
# HTTP/2 over TLS (--http2) and HTTP/1.1 (--http1.1) as nginx saw them.
# Every outcome is read from nginx's access logs and the records or rows.
. "$TESTS/lib.sh"
mkdir "$T/site" "$T/tls"
tls_ca "$T/tls" || finish
P=$(closed_port)
S=$(closed_port)
nginx_start "
	server {
		listen 127.0.0.1:$P;
		root $T/site;
		access_log $T/ng/logs/plain.log cond;
	}
	server {
		listen 127.0.0.1:$S ssl http2;
		ssl_certificate $T/tls/srv.pem;
		ssl_certificate_key $T/tls/srv.key;
		root $T/site;
		access_log $T/ng/logs/tls.log proto;
	}" || finish
H=http://127.0.0.1:$P
PLAIN=$T/ng/logs/plain.log TLSLOG=$T/ng/logs/tls.log

# page NAME TITLE MTIME: a page of the site, its file's mtime set (unix
# seconds), so nginx's validators are known here: ETag "<mtime hex>-
# <size hex>", Last-Modified the mtime as an HTTP date.
page() {
	printf '<!doctype html><html><head><title>%s</title></head><body><p>%s, a page served by nginx.</p></body></html>\n' \
		"$2" "$2" >"$T/site/$1"
	touch -d "@$3" "$T/site/$1"
}
# validators NAME: what a request with NAME's stored validators sends,
# as the cond log writes it: "<etag>|<last-modified>"
validators() {
	m=$(stat -c %Y "$T/site/$1") z=$(stat -c %s "$T/site/$1")
	printf '"%x-%x"|%s' "$m" "$z" "$(LC_ALL=C TZ=GMT date -d "@$m" '+%a, %d %b %Y %H:%M:%S GMT')"
}
V1=1700086400	# Wed, 15 Nov 2023 22:13:20 GMT
for n in a b c; do page "$n.html" "Page $n" $V1; done
for n in a b c; do echo "$H/$n.html"; done >"$T/seeds.txt"

J=$T/job.db D=$T/pages.db
# run [FETCH-OPTIONS...]: one crawl of the job
run() { crawl "$J" "$D" --no-robots "$@" sink: --batch-ms 50; }
# logged N: nginx has logged N requests (it logs each once it has sent
# the answer, so possibly just after the client read it)
logged() { wait_for 10 "$1 requests in nginx's log" lines_ge "$1" "$PLAIN"; }
rows() { q "$D" "select substr(url, length('$H') + 1), title, stored_at, last_checked from pages order by url"; }

# ---- the first crawl: three 200s, nothing conditional
run
logged 3
expect_eq "first crawl: nginx answered 200 to three plain requests" \
	"/a.html|200||
/b.html|200||
/c.html|200||" "$(sort "$PLAIN")"
expect_eq "sink stored the three pages with nginx's validators" \
	"/a.html|Page a|$(validators a.html)
/b.html|Page b|$(validators b.html)
/c.html|Page c|$(validators c.html)" \
	"$(q "$D" "select substr(url, length('$H') + 1), title, etag, last_modified from pages order by url")"
rows >"$T/run1"

# ---- the recrawl of the unchanged site: 3 conditional requests, 3 × 304
: >"$PLAIN"
run --recrawl 0
logged 3
expect_eq "recrawl: every request conditional, with nginx's ETag and Last-Modified, and 304" \
	"/a.html|304|$(validators a.html)
/b.html|304|$(validators b.html)
/c.html|304|$(validators c.html)" "$(sort "$PLAIN")"
expect_eq "sink: three unchanged" \
	"sink: 3 records stored in '$D': 3 unchanged, 0 failed refetches kept their page" "$(cat "$T/sink.err")"
rows >"$T/run2"
expect_eq "the rows are unchanged (title, stored_at), last_checked set" \
	"/a.html same kept checked
/b.html same kept checked
/c.html same kept checked" "$(cmp_runs "$T/run1" "$T/run2")"
expect_eq "the frontier is done again" "done|3" "$(q "$J" 'select state, count(*) from frontier group by state')"

# ---- one file changed (new content, later mtime): that one 200 and stored
old_b=$(validators b.html)
page b.html "Page b, second edition" $((V1 + 60))
cp "$T/run2" "$T/run1"
: >"$PLAIN"
run --recrawl 0
logged 3
expect_eq "recrawl after b changed: b sent its old validators and got 200, a and c 304" \
	"/a.html|304|$(validators a.html)
/b.html|200|$old_b
/c.html|304|$(validators c.html)" "$(sort "$PLAIN")"
rows >"$T/run2"
expect_eq "b stored anew, a and c kept" \
	"/a.html same kept checked
/b.html Page b -> Page b, second edition stored checked
/c.html same kept checked" "$(cmp_runs "$T/run1" "$T/run2")"
expect_eq "b's row and frontier row have nginx's new validators" "$(validators b.html) $(validators b.html)" \
	"$(q "$D" "select etag || '|' || last_modified from pages where url = '$H/b.html'") $(q "$J" "select etag || '|' || last_modified from frontier where url = '$H/b.html'")"

# ---- TLS: nginx's certificate is signed by the CA made here
# tls PATH [FETCH-OPTIONS...]: [status, error] of fetching PATH over TLS
tls() {
	u=https://127.0.0.1:$S/$1
	shift
	echo "$u" | "$BIN/fetch" --no-robots --json --retries 0 "$@" 2>"$T/tls.err" |
		jq -c '[.status, .error]'
}
expect_eq "no flag: the unknown CA fails with error tls" '[0,"tls"]' "$(tls a.html?none)"
expect_eq "--cacert: 200" '[200,null]' "$(tls a.html?cacert --cacert "$T/tls/ca.pem")"
expect_eq "--insecure: 200, with its notice on stderr" \
	'[200,null] fetch: --insecure: TLS certificates are not verified' \
	"$(tls a.html?insecure --insecure) $(cat "$T/tls.err")"

# ---- the protocol nginx saw
expect_eq "--http2 --cacert: 200" '[200,null]' "$(tls b.html?h2 --http2 --cacert "$T/tls/ca.pem")"
expect_eq "--http1.1 --cacert: 200" '[200,null]' "$(tls b.html?h1 --http1.1 --cacert "$T/tls/ca.pem")"
wait_for 10 "4 requests in nginx's TLS log" lines_ge 4 "$TLSLOG"
expect_eq "nginx's TLS log: the failed handshake made no request; HTTP/2.0 for --http2, HTTP/1.1 for --http1.1" \
	"/a.html?cacert|200|HTTP/2.0
/a.html?insecure|200|HTTP/2.0
/b.html?h1|200|HTTP/1.1
/b.html?h2|200|HTTP/2.0" "$(sort "$TLSLOG")"
finish
