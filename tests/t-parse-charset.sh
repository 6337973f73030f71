#!/bin/sh
# parse: decoding to UTF-8.  The charset comes from a BOM, then the
# Content-Type (ctype, then headers["content-type"]), then a <meta> in
# the first 1024 bytes, else UTF-8 with bad bytes replaced.
. "${TESTS:-$(dirname "$0")}/lib.sh"
F=$TESTS/fixtures/parse
P=$BIN/parse

# title FILE CTYPE [HEADERS-JSON]: the parsed title of FILE served as CTYPE.
title() {
	printf '{"url":"http://example.com/","ctype":"%s","headers":%s,"body":{"$file":"%s"}}\n' \
		"$2" "${3:-{\}}" "$F/$1" | mkrec | "$P" -j0 --json | jq -r .title
}

expect_eq "ISO-8859-1 from ctype: caf\\xe9" "café" "$(title latin1.html 'text/html; charset=ISO-8859-1')"
expect_eq "quoted charset, latin1 alias" "café" "$(title latin1.html 'text/html; charset=\"latin1\"')"
expect_eq "ISO-8859-1 text" "naïve © 2024" "$(printf '{"url":"u","ctype":"text/html;charset=iso-8859-1","body":{"$file":"%s"}}\n' "$F/latin1.html" | mkrec | "$P" --json | jq -r .text)"
expect_eq "ctype without charset falls to headers content-type" "café" \
	"$(title latin1.html 'text/html' '{"content-type":"text/html; charset=iso-8859-1"}')"
expect_eq "no charset anywhere: UTF-8 with U+FFFD" "caf�" "$(title latin1.html text/html)"
expect_eq "windows-1252 from http-equiv meta: quotes and euro" "“quoted” € price" "$(title win1252-meta.html text/html)"
expect_eq "meta ISO-8859-1 decodes as windows-1252 (0x80 is €)" "€uro café" "$(title latin1-meta.html text/html)"
expect_eq "us-ascii label decodes as windows-1252 too" "€uro café" "$(title latin1-meta.html 'text/html; charset=us-ascii')"
expect_eq "Shift_JIS from meta" "日本語のページ" "$(title sjis.html text/html)"
expect_eq "Shift_JIS from ctype" "日本語のページ" "$(title sjis.html 'text/html; charset=shift_jis')"
expect_eq "ctype charset beats meta (utf-8 label on sjis bytes gives U+FFFD)" "1" \
	"$(title sjis.html 'text/html; charset=utf-8' | grep -c '�')"
expect_eq "UTF-8 BOM beats ctype and meta" "café bom" "$(title bom-utf8.html 'text/html; charset=iso-8859-1')"
expect_eq "UTF-16LE BOM" "utf-16 café" "$(title utf16le.html text/html)"
expect_eq "invalid UTF-8: one U+FFFD per bad subpart" "bad �� bytes �" "$(title bad-utf8.html text/html)"
expect_eq "unknown charset label ignored" "€uro café" "$(title latin1-meta.html 'text/html; charset=x-no-such-thing')"

# A meta after the first 1024 bytes is not looked at.
python3 -c '
import sys
sys.stdout.buffer.write(b"<html><head><!--" + b"x" * 1100 + b"--><meta charset=\"iso-8859-1\"><title>caf\xe9</title></head></html>")' >"$T/late.html"
expect_eq "meta past 1024 bytes ignored" "caf�" "$(printf '{"url":"u","ctype":"text/html","body":{"$file":"%s"}}\n' "$T/late.html" | mkrec | "$P" --json | jq -r .title)"

finish
