#include "summary.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jstr.h"
#include "msg.h"

#define NO_HOST "(none)"

void
vsum_init(vsum *s)
{
	memset(s, 0, sizeof *s);
}

void
vsum_free(vsum *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->slots[i].name);
	free(s->slots);
}

/* FNV-1a of p[0..n): host names are short, and this is plenty. */
static uint64_t
hash(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
	return h;
}

/* The slot holding name, or the empty slot where it belongs (linear
 * probing; cap is a power of two and the table is never full). */
static vsum_host *
find(vsum_host *slots, size_t cap, const char *name, size_t n)
{
	size_t i = hash(name, n) & (cap - 1);
	while (slots[i].name && (strlen(slots[i].name) != n ||
				 memcmp(slots[i].name, name, n) != 0))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

/* Doubles the table, keeping it at most half full so probes stay short. */
static void
grow(vsum *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64;
	vsum_host *slots = calloc(cap, sizeof *slots);
	if (!slots)
		msg_die(EX_OSERR, "out of memory");
	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i].name)
			*find(slots, cap, s->slots[i].name, strlen(s->slots[i].name)) = s->slots[i];
	free(s->slots);
	s->slots = slots, s->cap = cap;
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

void
vsum_add(vsum *s, const char *host, size_t hostlen, enum vcode code)
{
	if (!host || memchr(host, 0, hostlen))
		host = NO_HOST, hostlen = strlen(NO_HOST);
	if (2 * (s->n + 1) > s->cap)
		grow(s);
	vsum_host *h = find(s->slots, s->cap, host, hostlen);
	if (!h->name) {
		if (!(h->name = strndup(host, hostlen)))
			msg_die(EX_OSERR, "out of memory");
		s->n++;
	}
	count(&h->c, code);
	count(&s->total, code);
}

/* qsort order for vsum_host pointers: by name, bytewise. */
static int
by_name(const void *a, const void *b)
{
	return strcmp((*(vsum_host *const *)a)->name, (*(vsum_host *const *)b)->name);
}

/* The hosts in name order, in a malloc'd array of s->n pointers. */
static vsum_host **
sorted(const vsum *s)
{
	vsum_host **v = malloc((s->n ? s->n : 1) * sizeof *v);
	if (!v)
		msg_die(EX_OSERR, "out of memory");
	size_t k = 0;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i].name)
			v[k++] = &s->slots[i];
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
	msg_note("%s: %llu raw, %llu accepted, %llu rejected%s, yield %.1f%%", name,
		 c->raw, c->accepted, c->raw - c->accepted, reasons, 100 * yield(c));
}

void
vsum_print(const vsum *s)
{
	vsum_host **v = sorted(s);
	for (size_t i = 0; i < s->n; i++)
		print_line(v[i]->name, &v[i]->c);
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
	fprintf(f, "},\"yield\":%.6g}", yield(c));
}

int
vsum_write_json(const vsum *s, FILE *f)
{
	vsum_host **v = sorted(s);
	fputs("{\"hosts\":{", f);
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			fputc(',', f);
		jstr_put(f, v[i]->name);
		fputc(':', f);
		json_counts(f, &v[i]->c);
	}
	fputs("},\"total\":", f);
	json_counts(f, &s->total);
	fputs("}\n", f);
	free(v);
	return ferror(f) ? -1 : 0;
}
