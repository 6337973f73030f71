#include "ack.h"

#include <stdlib.h>
#include <string.h>

#include "cols.h"
#include "frontier.h"
#include "msg.h"
#include "rec.h"
#include "site.h"
#include "url.h"
#include "xalloc.h"

typedef struct ack {
	char *url;
	char *dead;        /* reason, or NULL for done */
	char *host;        /* for the yield guard, with ... */
	int verdict;       /* ... an enum fr_outcome, or -1: not validated */
	char *etag, *last_modified;  /* the validators for fr_done, with ... */
	int replace;       /* ... whether they replace the row's (a new page) */
	char **links;      /* to follow, or NULL */
	uint32_t n_links;
	int index;         /* the links are a sitemap index's */
} ack;

static ack_opts opt;
static char *shown;   /* opt.path as messages show it: never a password */
static fr *front;
static int shared;
static ack *acks;
static size_t n_acks, cap_acks;

void
ack_open(const ack_opts *o, sqlite3 *db, PGconn *pgc)
{
	char err[256];
	opt = *o;
	if (!(shown = url_shown(o->path)))
		shown = xstrdup(o->path);
	shared = db || pgc;
	front = fr_open(o->path, db, pgc, err, sizeof err);
	if (!front)
		msg_die(EX_IOERR, "cannot open '%s': %s", shown, err);
}

int
ack_shared(void)
{
	return shared;
}

static int
nofollow(const msgpack_object *rec)
{
	const char *s;
	size_t n;
	return rec_str(rec, "meta_robots", &s, &n) && memmem(s, n, "nofollow", 8);
}

/* A copy of response header name of rec, or NULL. */
static char *
header_dup(const msgpack_object *rec, const char *name)
{
	const msgpack_object *v = cols_header(rec, name);
	return v ? xstrndup(v->via.str.ptr, v->via.str.size) : NULL;
}

void
ack_note(const msgpack_object *rec, int stored)
{
	char *url = rec_strdup(rec, "url");
	if (!url)
		return;
	if (n_acks == cap_acks) {
		cap_acks = cap_acks ? cap_acks * 2 : 256;
		acks = xrealloc(acks, cap_acks * sizeof *acks);
	}
	ack *a = &acks[n_acks++];
	memset(a, 0, sizeof *a);
	a->url = url;
	const msgpack_object *acc = rec_get(rec, "accepted");
	a->verdict = acc && acc->type == MSGPACK_OBJECT_BOOLEAN ? acc->via.boolean : -1;
	/* A page that refused us: the guard's alert tells it apart. */
	const char *reason;
	size_t rn;
	if (a->verdict == 0 && rec_str(rec, "reason", &reason, &rn) && rn >= 7 &&
	    memcmp(reason, "blocked", 7) == 0 && (rn == 7 || reason[7] == ' '))
		a->verdict = FR_BLOCKED;
	/* The frontier keeps the validators of the row stored: a page
	 * stored replaces them with its own; any other record stored as
	 * the row (a failure, a rejected page or a 304 with no good page
	 * before it) clears them, so the next recrawl asks unconditionally
	 * and cannot be answered 304 to a row without a good page; a 304
	 * that kept the page refreshes them when it sent any; a failure or
	 * a rejected page that kept it leaves them (cols_kind). */
	char why[80];
	enum cols_kind kind = cols_kind(rec, why, sizeof why);
	a->replace = stored;
	if (stored ? kind == COLS_PAGE : kind == COLS_UNCHANGED) {
		a->etag = header_dup(rec, "etag");
		a->last_modified = header_dup(rec, "last-modified");
	}
	/* Nothing was judged: the host's yield window is not its to move. */
	if (kind == COLS_UNCHANGED)
		a->verdict = -1;
	/* validate's rules are about pages: a sitemap is followed whatever
	 * they said of it, and does not count in its host's yield. */
	int sitemap = rec_sitemap(rec);
	if (sitemap)
		a->verdict = 1, a->index = sitemap == REC_SITEMAP_INDEX;
	else if (a->verdict >= 0)
		a->host = rec_strdup(rec, "host");
	char *err = rec_strdup(rec, "error");
	if (err) {
		char *detail = rec_strdup(rec, "error_detail");
		if (detail && asprintf(&a->dead, "%s: %s", err, detail) >= 0)
			free(err);
		else
			a->dead = err;
		free(detail);
		return;
	}
	const msgpack_object *links = rec_get(rec, "links");
	if (!opt.follow || a->verdict != 1 ||
	    !links || links->type != MSGPACK_OBJECT_ARRAY || nofollow(rec))
		return;
	a->links = xcalloc(links->via.array.size + 1, sizeof *a->links);
	for (uint32_t i = 0; i < links->via.array.size; i++) {
		const msgpack_object *l = &links->via.array.ptr[i];
		if (l->type == MSGPACK_OBJECT_STR)
			a->links[a->n_links++] = xstrndup(l->via.str.ptr, l->via.str.size);
	}
}

static int
in_scope(const char *host, const char *scope)
{
	switch (opt.scope) {
	case SCOPE_ANY: return 1;
	case SCOPE_DOMAIN: return strcmp(site_of(host), site_of(scope)) == 0;
	default: return strcmp(host, scope) == 0;
	}
}

static int
wanted(const char *u)
{
	for (int i = 0; i < opt.n_exclude; i++)
		if (vre_match(opt.exclude[i], u, strlen(u)))
			return 0;
	if (opt.n_include == 0)
		return 1;
	for (int i = 0; i < opt.n_include; i++)
		if (vre_match(opt.include[i], u, strlen(u)))
			return 1;
	return 0;
}

/* Admits a's links at its depth + 1, within every limit. */
static void
follow(const ack *a)
{
	int depth;
	char *scope;
	if (!fr_lookup(front, a->url, &depth, &scope))
		return;   /* not a page of this job */
	/* Each index above a sitemap added one to its depth, so this bounds
	 * a chain of indexes (or a loop of them) whatever --max-depth is. */
	if (a->index && depth >= ACK_MAX_INDEX_DEPTH) {
		free(scope);
		return;
	}
	/* We hold the write transaction: only our own adds change it. */
	long long admitted = opt.max_pages ? fr_admitted(front) : 0;
	for (uint32_t i = 0; depth < opt.max_depth && i < a->n_links; i++) {
		url_parts u;
		const char *why;
		if (opt.max_pages && admitted >= opt.max_pages)
			break;
		if (url_canon(a->links[i], strlen(a->links[i]), &u, &why) != 0)
			continue;
		if (url_fetchable(u.scheme) && in_scope(u.host, scope) && wanted(u.canon)) {
			int added = fr_add(front, u.canon, u.host, scope, depth + 1, a->url);
			if (added < 0)
				msg_die(EX_IOERR, "cannot add to '%s': %s", shown,
					fr_error(front));
			admitted += added;
		}
		url_parts_free(&u);
	}
	free(scope);
}

void
ack_flush(void)
{
	if (n_acks == 0)
		return;
	/* Inside sink's own transaction, the acks still take their turn. */
	if (shared ? fr_turn(front) != 0 : fr_begin(front) != 0)
		goto fail;
	for (size_t i = 0; i < n_acks; i++) {
		ack *a = &acks[i];
		if ((a->dead ? fr_dead(front, a->url, a->dead)
			     : fr_done(front, a->url, a->etag, a->last_modified, a->replace)) != 0)
			goto fail;
		if (a->host && fr_stored(front, a->host, (enum fr_outcome)a->verdict) != 0)
			goto fail;
		if (a->links)
			follow(a);
		for (uint32_t k = 0; k < a->n_links; k++)
			free(a->links[k]);
		free(a->links);
		free(a->url);
		free(a->dead);
		free(a->host);
		free(a->etag);
		free(a->last_modified);
	}
	n_acks = 0;
	if (!shared && fr_commit(front) != 0)
		goto fail;
	return;
fail:
	msg_die(EX_IOERR, "cannot update '%s': %s", shown, fr_error(front));
}

void
ack_close(void)
{
	fr_close(front);
	front = NULL;
	free(acks);
	free(shown);
}
