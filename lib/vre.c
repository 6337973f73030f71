#define PCRE2_CODE_UNIT_WIDTH 8
#include "vre.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vre {
	pcre2_code *code;
	pcre2_match_data *md;   /* reused: validate is single-threaded */
	char *src;
};

/* Compiles with UTF so `.` and classes see characters, and with
 * MATCH_INVALID_UTF so a page with a stray Latin-1 byte is matched
 * rather than erroring out.  JIT failure (no JIT on this platform, or
 * W^X memory) is not an error: the interpreter gives the same answers. */
vre *
vre_compile(const char *pattern, char *err, size_t errlen)
{
	int code;
	PCRE2_SIZE off;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
				      PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
				      &code, &off, NULL);
	if (!c) {
		PCRE2_UCHAR why[120];
		pcre2_get_error_message(code, why, sizeof why);
		snprintf(err, errlen, "at offset %zu: %s", (size_t)off, (char *)why);
		return NULL;
	}
	(void)pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);
	vre *re = calloc(1, sizeof *re);
	if (!re || !(re->md = pcre2_match_data_create_from_pattern(c, NULL)) ||
	    !(re->src = strdup(pattern))) {
		snprintf(err, errlen, "out of memory");
		if (re)
			pcre2_match_data_free(re->md);
		free(re);
		pcre2_code_free(c);
		return NULL;
	}
	re->code = c;
	return re;
}

/* Any negative code other than NOMATCH (e.g. a match-limit hit on a
 * pathological pattern) counts as no match: the page is judged on what
 * could be decided. */
int
vre_match(vre *re, const char *s, size_t n)
{
	if (!s)
		s = "", n = 0;
	return pcre2_match(re->code, (PCRE2_SPTR)s, n, 0, 0, re->md, NULL) >= 0;
}

const char *
vre_source(const vre *re)
{
	return re->src;
}

void
vre_free(vre *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	free(re->src);
	free(re);
}

const char *
vre_version(void)
{
	static char v[80];
	char num[40] = "";
	uint32_t jit = 0;
	pcre2_config(PCRE2_CONFIG_VERSION, num);
	pcre2_config(PCRE2_CONFIG_JIT, &jit);
	snprintf(v, sizeof v, "pcre2 %s%s", num, jit ? " (jit)" : "");
	return v;
}
