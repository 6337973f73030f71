#include "summary.h"

#include <stdlib.h>
#include <string.h>

#include "jstr.h"
#include "msg.h"
#include "xalloc.h"

#define NO_HOST "(none)"

void
vsum_init(vsum *s)
{
	memset(s, 0, sizeof *s);
}

void
vsum_free(vsum *s)
{
	size_t i = 0;
	for (htab_ent *e; (e = htab_next(&s->hosts, &i));)
		free(e->val);
	htab_free(&s->hosts);
}

/* Adds one record judged code to c. */
static void
count(vsum_counts *c, enum vcode code)
{
	c->raw++;
	if (code == VCODE_NONE)
		c->accepted++;
	else
		c->by_code[code]++;
}

/* The counts of host (NULL: none), made on first sight. */
static vsum_counts *
counts_of(vsum *s, const char *host, size_t hostlen)
{
	if (!host || memchr(host, 0, hostlen))
		host = NO_HOST, hostlen = strlen(NO_HOST);
	int added;
	htab_ent *h = htab_put(&s->hosts, host, hostlen, &added);
	if (!h)
		xalloc_die();
	if (added)
		h->val = xcalloc(1, sizeof(vsum_counts));
	return h->val;
}

void
vsum_add(vsum *s, const char *host, size_t hostlen, enum vcode code)
{
	count(counts_of(s, host, hostlen), code);
	count(&s->total, code);
}

/* The summary's name of each enum vskip. */
static const char *const skip_name[VSKIP_COUNT] = { "unchanged", "sitemaps" };

void
vsum_skip(vsum *s, const char *host, size_t hostlen, enum vskip why)
{
	counts_of(s, host, hostlen)->skipped[why]++;
	s->total.skipped[why]++;
}

/* qsort order for host entries: by name, bytewise. */
static int
by_name(const void *a, const void *b)
{
	return strcmp((*(htab_ent *const *)a)->key, (*(htab_ent *const *)b)->key);
}

/* The hosts in name order, in a malloc'd array of hosts.n pointers. */
static htab_ent **
sorted(const vsum *s)
{
	htab_ent **v = xmalloc(s->hosts.n * sizeof *v);
	size_t i = 0, k = 0;
	for (htab_ent *e; (e = htab_next(&s->hosts, &i));)
		v[k++] = e;
	qsort(v, k, sizeof *v, by_name);
	return v;
}

/* accepted/raw, 0 when nothing was seen. */
static double
yield(const vsum_counts *c)
{
	return c->raw ? (double)c->accepted / (double)c->raw : 0;
}

/* One summary line: `NAME: R raw, A accepted, J rejected (code n, ...),
 * yield Y%`, the codes in check order. */
static void
print_line(const char *name, const vsum_counts *c)
{
	char reasons[400] = "";
	size_t off = 0;
	for (int k = 1; k < VCODE_COUNT; k++)
		if (c->by_code[k] && off < sizeof reasons)
			off += (size_t)snprintf(reasons + off, sizeof reasons - off, "%s%s %llu",
						off ? ", " : " (", vcheck_code_name(k),
						c->by_code[k]);
	if (off && off < sizeof reasons - 1)
		strcat(reasons, ")");
	char skipped[80] = "";
	off = 0;
	for (int k = 0; k < VSKIP_COUNT; k++)
		if (c->skipped[k])
			off += (size_t)snprintf(skipped + off, sizeof skipped - off, ", %llu %s",
						c->skipped[k], skip_name[k]);
	msg_note("%s: %llu raw, %llu accepted, %llu rejected%s, yield %.1f%%%s", name,
		 c->raw, c->accepted, c->raw - c->accepted, reasons, 100 * yield(c), skipped);
}

void
vsum_print(const vsum *s)
{
	htab_ent **v = sorted(s);
	for (size_t i = 0; i < s->hosts.n; i++)
		print_line(v[i]->key, v[i]->val);
	print_line("total", &s->total);
	free(v);
}

/* c as the JSON object of the --summary file. */
static void
json_counts(FILE *f, const vsum_counts *c)
{
	fprintf(f, "{\"raw\":%llu,\"accepted\":%llu,\"rejected\":%llu,\"reasons\":{",
		c->raw, c->accepted, c->raw - c->accepted);
	int first = 1;
	for (int k = 1; k < VCODE_COUNT; k++)
		if (c->by_code[k]) {
			fprintf(f, "%s\"%s\":%llu", first ? "" : ",", vcheck_code_name(k),
				c->by_code[k]);
			first = 0;
		}
	fputc('}', f);
	for (int k = 0; k < VSKIP_COUNT; k++)
		if (c->skipped[k])
			fprintf(f, ",\"%s\":%llu", skip_name[k], c->skipped[k]);
	fprintf(f, ",\"yield\":%.6g}", yield(c));
}

int
vsum_write_json(const vsum *s, FILE *f)
{
	htab_ent **v = sorted(s);
	fputs("{\"hosts\":{", f);
	for (size_t i = 0; i < s->hosts.n; i++) {
		if (i)
			fputc(',', f);
		jstr_put(f, v[i]->key);
		fputc(':', f);
		json_counts(f, v[i]->val);
	}
	fputs("},\"total\":", f);
	json_counts(f, &s->total);
	fputs("}\n", f);
	free(v);
	return ferror(f) ? -1 : 0;
}
