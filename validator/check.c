#include "check.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "jsshell.h"
#include "rec.h"
#include "refusal.h"

/* Sections one record can match: the global one and up to 31 host
 * sections (more than a sane rules file names for one host). */
#define MAX_SECTIONS 32

/* What applies when no section sets status or ctype. */
static const vsection defaults = {
	.status = (vrange[]){ { 200, 299 } }, .nstatus = 1,
	.ctype = (char *[]){ "text/html" }, .nctype = 1,
};

static const char *const code_names[VCODE_COUNT] = {
	"accepted", "fetch_error", "blocked", "status", "ctype", "consent", "rejected",
	"js_shell", "missing", "no_marker",
};

const char *
vcheck_code_name(enum vcode c)
{
	return c < VCODE_COUNT ? code_names[c] : "unknown";
}

/* Writes "code detail" into reason, the detail printed with at most
 * dlen bytes (values come from pages and can be long or odd). */
static enum vcode
why(enum vcode c, char *reason, size_t len, const char *fmt, const char *d,
    size_t dlen)
{
	char detail[200];
	int n = dlen > 160 ? 160 : (int)dlen;
	snprintf(detail, sizeof detail, fmt, n, d);
	snprintf(reason, len, "%s %s", code_names[c], detail);
	return c;
}

/* Whether rec's status is in s's ranges (an empty list means "any").
 * Sets *st and *has to the status and whether the record had one, for
 * the reason. */
static int
status_ok(const vsection *s, const msgpack_object *rec, int64_t *st, int *has)
{
	*has = rec_int(rec, "status", st);
	if (s->nstatus == 0)
		return 1;   /* "any" */
	return *has && num_in_ranges((long)*st, s->status, s->nstatus);
}

/* Case-insensitive prefix match, so "text/html" accepts
 * "text/html; charset=utf-8" and "TEXT/HTML". */
static int
ctype_ok(const vsection *s, const char *ct, size_t n)
{
	if (s->nctype == 0)
		return 1;
	for (size_t i = 0; i < s->nctype; i++) {
		size_t m = strlen(s->ctype[i]);
		if (n >= m && strncasecmp(ct, s->ctype[i], m) == 0)
			return 1;
	}
	return 0;
}

/* Whether re matches the title or the text (either may be NULL). */
static int
either_matches(vre *re, const char *t, size_t tn, const char *x, size_t xn)
{
	return vre_match(re, t, tn) || vre_match(re, x, xn);
}

enum vcode
vcheck_record(const vrules *rs, const msgpack_object *rec, char *reason,
	      size_t len)
{
	const char *s;
	size_t n;

	/* A dead letter is rejected for its error before anything else:
	 * its status and body say nothing about the page.  An empty or null
	 * error is taken for "no error", as a hand-written record may say. */
	const msgpack_object *err = rec_get(rec, "error");
	if (!rec_empty(err)) {
		if (!rec_str(rec, "error", &s, &n))
			s = "unknown", n = 7;
		return why(VCODE_FETCH_ERROR, reason, len, "%.*s", s, n);
	}

	const char *host = NULL;
	size_t hostlen = 0;
	if (!rec_str(rec, "host", &host, &hostlen))
		host = NULL;
	const vsection *secs[MAX_SECTIONS];
	size_t nsec = vrules_for_host(rs, host, hostlen, secs, MAX_SECTIONS);

	/* Single-valued rules: the last section that sets one wins. */
	const vsection *st_sec = NULL, *ct_sec = NULL;
	long min_text = 0;
	int refusals = 1;
	size_t nrequire = 0;
	for (size_t i = 0; i < nsec; i++) {
		if (secs[i]->has_status)
			st_sec = secs[i];
		if (secs[i]->has_ctype)
			ct_sec = secs[i];
		if (secs[i]->has_min_text)
			min_text = secs[i]->min_text;
		if (secs[i]->has_refusals)
			refusals = secs[i]->refusals;
		nrequire += secs[i]->nrequire;
	}

	const struct sig *sig;
	if (refusals && (sig = refusal_find(rec, SIG_BLOCKED)))
		return why(VCODE_BLOCKED, reason, len, "%.*s", sig->what, strlen(sig->what));

	const vsection *dflt = &defaults;
	int64_t st = 0;
	int has_st;
	if (!status_ok(st_sec ? st_sec : dflt, rec, &st, &has_st)) {
		char num[24];
		snprintf(num, sizeof num, "%lld", (long long)st);
		if (!has_st)
			strcpy(num, "none");
		return why(VCODE_STATUS, reason, len, "%.*s", num, strlen(num));
	}

	if (!rec_str(rec, "ctype", &s, &n) || n == 0)
		s = NULL, n = 0;
	if (!ctype_ok(ct_sec ? ct_sec : dflt, s ? s : "", n))
		return s ? why(VCODE_CTYPE, reason, len, "%.*s", s, n)
			 : why(VCODE_CTYPE, reason, len, "%.*s", "none", 4);

	if (refusals && (sig = refusal_find(rec, SIG_CONSENT)))
		return why(VCODE_CONSENT, reason, len, "%.*s", sig->what, strlen(sig->what));

	const char *title = NULL, *text = NULL;
	size_t tn = 0, xn = 0;
	const msgpack_object *o = rec_get(rec, "title");
	if (o && o->type == MSGPACK_OBJECT_STR)
		title = o->via.str.ptr, tn = o->via.str.size;
	o = rec_get(rec, "text");
	if (o && o->type == MSGPACK_OBJECT_STR)
		text = o->via.str.ptr, xn = o->via.str.size;

	for (size_t i = 0; i < nsec; i++)
		for (size_t j = 0; j < secs[i]->nreject; j++) {
			vre *re = secs[i]->reject[j];
			if (either_matches(re, title, tn, text, xn))
				return why(VCODE_REJECTED, reason, len, "/%.*s/",
					   vre_source(re), strlen(vre_source(re)));
		}

	/* parse does not report whether the body had scripts, so short text
	 * is the whole signal (lib/jsshell, the rule render --only-shells
	 * shares). */
	size_t chars;
	if (jsshell_text(text, xn, min_text, &chars)) {
		char num[40];
		snprintf(num, sizeof num, "%zu chars", chars);
		return why(VCODE_JS_SHELL, reason, len, "%.*s", num, strlen(num));
	}

	if (nrequire == 0) {
		if (rec_empty(rec_get(rec, "title")))
			return why(VCODE_MISSING, reason, len, "%.*s", "title", 5);
	} else {
		for (size_t i = 0; i < nsec; i++)
			for (size_t j = 0; j < secs[i]->nrequire; j++) {
				const char *f = secs[i]->require[j];
				if (rec_empty(rec_path(rec, f)))
					return why(VCODE_MISSING, reason, len, "%.*s", f, strlen(f));
			}
	}

	for (size_t i = 0; i < nsec; i++)
		for (size_t j = 0; j < secs[i]->nmarker; j++) {
			vre *re = secs[i]->marker[j];
			if (!either_matches(re, title, tn, text, xn))
				return why(VCODE_NO_MARKER, reason, len, "/%.*s/",
					   vre_source(re), strlen(vre_source(re)));
		}
	return VCODE_NONE;
}
