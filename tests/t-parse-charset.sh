#!/bin/sh
# parse: decoding to UTF-8.  The charset comes from a BOM, then the
# Content-Type (ctype, then headers["content-type"]), then a <meta> in
# the first 1024 bytes, else UTF-8 with bad bytes replaced (or a later
# <meta> when the body is not UTF-8).  Labels and
# decoders are the WHATWG Encoding standard's, the <meta> prescan the
# HTML standard's; the cs-*.html fixtures say what each one's bytes are.
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

# A meta after the first 1024 bytes (a web archive's scripts before it)
# is read only when the page is not UTF-8, as a browser meets it while
# parsing and reparses: within 64 KiB, not beyond.
python3 -c '
import sys
for name, pad, title in (("late", 1100, b"caf\xe9"), ("late-utf8", 1100, b"caf\xc3\xa9"),
                         ("later", 70000, b"caf\xe9")):
    with open(sys.argv[1] + "/" + name + ".html", "wb") as f:
        f.write(b"<html><head><!--" + b"x" * pad + b"--><meta charset=\"iso-8859-1\"><title>" +
                title + b"</title></head></html>")' "$T"
late() {
	printf '{"url":"u","ctype":"text/html","body":{"$file":"%s"}}\n' "$T/$1" | mkrec | "$P" --json | jq -r .title
}
expect_eq "meta past 1024 bytes read when the page is not UTF-8" "café" "$(late late.html)"
expect_eq "meta past 1024 bytes ignored when the page is UTF-8" "café" "$(late late-utf8.html)"
expect_eq "meta past 64 KiB ignored" "caf�" "$(late later.html)"

# text FILE CTYPE: the parsed text of FILE served as CTYPE.
text() {
	printf '{"url":"http://example.com/","ctype":"%s","body":{"$file":"%s"}}\n' \
		"$2" "$F/$1" | mkrec | "$P" -j0 --json | jq -r .text
}

# Labels that mean windows-1252, so 0x80 is the euro sign.
for l in latin1 ascii iso-8859-1 iso88591 ANSI_X3.4-1968 ' L1 '; do
	expect_eq "label '$l' decodes as windows-1252" "€ café “q”" "$(title cs-1252.html "text/html; charset=$l")"
done
expect_eq "meta iso-8859-9 decodes as windows-1254" "€ Ğış" "$(title cs-1254-meta.html text/html)"
expect_eq "euc-kr is windows-949: UHC extension, KS X 1001, an ASCII trail kept" "갂가 �A" \
	"$(title cs-euckr-meta.html text/html)"
expect_eq "windows-949 label" "갂가 �A" "$(title cs-euckr.html 'text/html; charset=windows-949')"
expect_eq "gb2312 decodes as GBK: 0x8140, euro, GB2312" "丂 € 你好" "$(title cs-gbk-meta.html text/html)"
expect_eq "gb18030: 0x80 euro, four-byte sequences (BMP, plane 2)" "€ ß 𠀀" "$(title cs-gb18030-meta.html text/html)"
expect_eq "Big5: A145 is U+2027, 8862 two code points, 8745 plane 2" "‧ Ê̄ 𧉧 一" "$(title cs-big5-meta.html text/html)"
expect_eq "EUC-JP: A1C1 U+FF5E, A1DD U+FF0D, half-width kana, JIS X 0212" "～ － ｱ 丂" \
	"$(title cs-eucjp-meta.html text/html)"
expect_eq "x-euc-jp label" "～ － ｱ 丂" "$(title cs-eucjp.html 'text/html; charset=x-euc-jp')"
expect_eq "Shift_JIS (ms932 label): user-defined area to private use" "$(printf '～ 日 \356\200\200')" \
	"$(title cs-sjis.html 'text/html; charset=ms932')"
expect_eq "koi8 label is KOI8-R" "Привет" "$(title cs-koi8.html 'text/html; charset=koi8')"
expect_eq "csisolatin9 label is ISO-8859-15" "€ œ" "$(title cs-8859-15.html 'text/html; charset=csisolatin9')"
expect_eq "dos-874 label is windows-874" "€ กส" "$(title cs-874.html 'text/html; charset=dos-874')"
expect_eq "x-mac-cyrillic" "Паивет €" "$(title cs-maccyr.html 'text/html; charset=x-mac-cyrillic')"
expect_eq "meta utf-16 means UTF-8" "café ü" "$(title cs-utf16-meta.html text/html)"
expect_eq "ctype utf-16be is honoured (no BOM)" "utf-16be café" "$(title cs-utf16be.html 'text/html; charset=utf-16be')"
expect_eq "x-user-defined: 0x80..0xFF to U+F780..U+F7FF" "$(printf 'a\357\236\200\357\237\277b')" \
	"$(title cs-xuser.html 'text/html; charset=x-user-defined')"
expect_eq "meta x-user-defined means windows-1252" "€ café" "$(title cs-xuser-meta.html text/html)"
expect_eq "iso-2022-kr label is replacement: no title" "null" "$(title cs-replacement-meta.html text/html)"
expect_eq "replacement: the whole page is one U+FFFD" "�" "$(text cs-replacement-meta.html text/html)"
expect_eq "replacement from ctype too" "null" "$(title latin1.html 'text/html; charset=hz-gb-2312')"
expect_eq "ISO-2022-JP: JIS X 0208, Roman, katakana" "a亜b ¥‾ ｱ" "$(title cs-2022jp.html 'text/html; charset=iso-2022-jp')"
expect_eq "ISO-2022-JP: unknown escapes, doubled escape, cut trail, high byte, lone ESC" \
	"a�\$Ab �(Z �c �d �e �f" "$(title cs-2022jp-bad.html 'text/html; charset=csiso2022jp')"

# The prescan, as HTML specifies it.
expect_eq "prescan skips comments, attribute values, content without http-equiv, bogus labels" "Привет" \
	"$(title cs-prescan.html text/html)"
expect_eq "prescan: content before http-equiv, spaces, case, inner quotes" "Привет" \
	"$(title cs-prescan-pragma.html text/html)"
expect_eq "unknown ctype label falls through to the meta" "€ Ğış" \
	"$(title cs-1254-meta.html 'text/html; charset=x-no-such-thing')"

# A multi-byte sequence cut off by the end of the body: one U+FFFD.
for f in gb18030 big5 eucjp sjis euckr 2022jp; do
	expect_eq "truncated $f sequence at the end" "end �" "$(text cs-trunc-$f.html text/html)"
done

# Random bytes in every encoding: parse never fails a record.
python3 -c '
import random, sys
random.seed(7)
sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(3000)))' >"$T/noise.bin"
labels="utf-8 ibm866 iso-8859-8-i macintosh x-mac-cyrillic gbk gb18030 big5 euc-jp iso-2022-jp
	shift_jis euc-kr iso-2022-cn utf-16be utf-16le x-user-defined windows-1258"
for l in $labels; do
	printf '{"url":"u","ctype":"text/html; charset=%s","body":{"$file":"%s"}}\n' "$l" "$T/noise.bin"
done | mkrec >"$T/noise.mp"
n=$(echo $labels | wc -w | tr -d ' ')
expect_eq "random bytes in $n encodings: a record each" "$n" \
	"$("$P" -j0 --json <"$T/noise.mp" | jq -r 'select(.parse_error == null) | .url' | wc -l | tr -d ' ')"

finish
