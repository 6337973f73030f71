/* rules — what validate checks, from flags and from a rules file.
 *
 * A rule is `NAME VALUE` with NAME one of the long flags without dashes:
 * status, ctype, require, marker, reject, min-text, refusals.  Rules live in
 * sections: the global one, and `[host NAME]` sections that apply only to
 * records whose `host` is NAME (or, for `*.example.org`, is example.org
 * or ends in `.example.org`); host names compare case-insensitively.
 * For a record, list rules (require, marker, reject)
 * are the union of the global section and every matching host section;
 * single-valued rules (status, ctype, min-text, refusals) are taken from
 * the last matching host section that sets them, else the global
 * section, else the defaults (status 200-299, ctype text/html, no
 * min-text, refusals on).
 */
#ifndef VALIDATE_RULES_H
#define VALIDATE_RULES_H

#include <stddef.h>

#include "num.h"
#include "vre.h"

typedef num_range vrange;

typedef struct vsection {
	char *host;          /* NULL in the global section */
	int has_status, has_ctype, has_min_text, has_refusals;
	vrange *status;      /* empty with has_status means "any" */
	size_t nstatus;
	char **ctype;        /* lowercase prefixes; empty means "any" */
	size_t nctype;
	char **require;      /* dotted paths */
	size_t nrequire;
	vre **marker;        /* each must match title or text */
	size_t nmarker;
	vre **reject;        /* none may match title or text */
	size_t nreject;
	long min_text;
	int refusals;        /* judge by the signature table (sig.h) */
} vsection;

typedef struct vrules {
	vsection global;
	vsection *hosts;
	size_t nhosts;
} vrules;

void vrules_init(vrules *rs);
void vrules_free(vrules *rs);

/* Adds rule name=value to section s (the global one when s is NULL).
 * Returns 0, or -1 with a message for the user in err (unknown rule,
 * bad range, bad regex naming its offset). */
int vrules_add(vrules *rs, vsection *s, const char *name, const char *value,
	       char *err, size_t errlen);

/* Reads a rules file into rs.  Returns 0; -1 for a bad rule, with
 * `FILE:LINE: why` in err; -2 when the file cannot be read, with
 * `cannot read 'FILE': why`. */
int vrules_load(vrules *rs, const char *path, char *err, size_t errlen);

/* Fills out[] with the sections that apply to host (global first, then
 * matching host sections in file order) and returns how many; at most
 * max.  host may be NULL (no host key): only the global section. */
size_t vrules_for_host(const vrules *rs, const char *host, size_t hostlen,
		       const vsection **out, size_t max);

#endif
