/* summary — per-host counts of what validate saw: raw records, accepted,
 * rejected by reason code, and the accepted yield.  Printed on stderr at
 * exit and, with --summary FILE, written as one JSON object:
 *
 *   {"hosts":{"a.org":{"raw":3,"accepted":2,"rejected":1,
 *                      "reasons":{"status":1},"yield":0.666667}},
 *    "total":{...same fields...}}
 *
 * Hosts are sorted by name; a record without a `host` string counts
 * under "(none)".  `reasons` holds only codes seen.  yield is
 * accepted/raw with 6 significant digits, 0 when raw is 0.
 *
 * A record that is no page is not judged and not raw: a not-modified
 * record (rec_not_modified: a recrawl's 304) counts as "unchanged", a
 * sitemap or robots.txt (rec_sitemap) as "sitemaps"; each a member
 * present only when some were seen, after "reasons".
 */
#ifndef VALIDATE_SUMMARY_H
#define VALIDATE_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "check.h"
#include "htab.h"

/* Records that are no page, passed through unjudged. */
enum vskip { VSKIP_UNCHANGED, VSKIP_SITEMAP, VSKIP_COUNT };

typedef struct vsum_counts {
	unsigned long long raw, accepted, by_code[VCODE_COUNT];
	unsigned long long skipped[VSKIP_COUNT];
} vsum_counts;

typedef struct vsum {
	htab hosts;         /* host name -> its vsum_counts (malloc'd) */
	vsum_counts total;
} vsum;

void vsum_init(vsum *s);
void vsum_free(vsum *s);

/* Counts one record of host (NULL: none) judged code. */
void vsum_add(vsum *s, const char *host, size_t hostlen, enum vcode code);
/* Counts one record of host that is no page, not judged. */
void vsum_skip(vsum *s, const char *host, size_t hostlen, enum vskip why);

/* Prints one line per host and a total line via msg_note. */
void vsum_print(const vsum *s);

/* Writes the JSON object to f.  Returns 0, or -1 when the write failed. */
int vsum_write_json(const vsum *s, FILE *f);

#endif
