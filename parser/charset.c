/* charset — which encoding a page is in, and its text as UTF-8. */
#include "charset.h"

#include <strings.h>

#include "cs_dec.h"

int
cs_ctype_param(const char *s, size_t n, const char **v, size_t *vn)
{
	/* Looks for "charset" followed by optional spaces and "=", anywhere
	 * after the media type: more lenient than the MIME Sniffing
	 * standard's parameter parsing, and good enough for real headers. */
	for (size_t i = 0; i + 7 <= n; i++) {
		if (strncasecmp(s + i, "charset", 7) != 0)
			continue;
		size_t j = i + 7;
		while (j < n && pbuf_isspace((unsigned char)s[j]))
			j++;
		if (j >= n || s[j] != '=')
			continue;
		j++;
		while (j < n && pbuf_isspace((unsigned char)s[j]))
			j++;
		char q = 0;
		if (j < n && (s[j] == '"' || s[j] == '\''))
			q = s[j++];
		size_t k = j;
		while (k < n && (q ? s[k] != q : (s[k] != ';' && !pbuf_isspace((unsigned char)s[k]))))
			k++;
		if (k == j)
			return 0;
		*v = s + j;
		*vn = k - j;
		return 1;
	}
	return 0;
}

/* How far a page that is not UTF-8 is searched for a late <meta>. */
#define CS_LATE (64 * 1024)

void
cs_decode(const char *body, size_t n, const char *ctype, size_t ctn,
	  pbuf *scratch, const char **out, size_t *outn)
{
	const unsigned char *u = (const unsigned char *)body;
	int enc = -1;
	size_t skip = 0;
	/* The standard's "decode": a BOM wins over every label. */
	if (n >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf)
		enc = CS_UTF_8, skip = 3;
	else if (n >= 2 && u[0] == 0xfe && u[1] == 0xff)
		enc = CS_UTF_16BE, skip = 2;
	else if (n >= 2 && u[0] == 0xff && u[1] == 0xfe)
		enc = CS_UTF_16LE, skip = 2;
	/* Then the Content-Type, then a <meta>; a label that names no
	 * encoding is as good as none.  A Content-Type may say UTF-16 and
	 * be believed, unlike a <meta> (cs_prescan maps that to UTF-8). */
	const char *v;
	size_t vn;
	if (enc < 0 && ctype && cs_ctype_param(ctype, ctn, &v, &vn))
		enc = cs_label_find(v, vn);
	if (enc < 0)
		enc = cs_prescan(body, n, CS_PRESCAN);
	if (enc < 0) {
		/* No label: UTF-8, unless the page is not UTF-8 and names its
		 * encoding in a <meta> further on (after a web archive's
		 * scripts), which a browser meets while parsing the head
		 * and reparses with ("changing the encoding while
		 * parsing"). */
		cs_utf8(body + skip, n - skip, scratch, out, outn);
		if (*out == body + skip || (enc = cs_prescan(body, n, CS_LATE)) < 0 ||
		    enc == CS_UTF_8)
			return;
	}
	if (enc == CS_UTF_8) {
		cs_utf8(body + skip, n - skip, scratch, out, outn);
		return;
	}
	pbuf_reset(scratch);
	/* Room for most pages at once: no legacy encoding grows by more
	 * than three bytes of UTF-8 per byte in, and cs_put grows the
	 * buffer for the rest. */
	pbuf_reserve(scratch, (n - skip) / 2 * 3 + 64);
	cs_dec((enum cs_enc)enc, u + skip, n - skip, scratch);
	*out = scratch->p, *outn = scratch->len;
}
