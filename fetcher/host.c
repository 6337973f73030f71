/* host — the host table and what each host holds: its origins, its
 * configuration, its queues of waiting jobs, the ring of hosts with
 * jobs waiting, and its pacing machine (lib/pace.h).
 *
 * The table (lib/htab) is keyed by the pacing key (a host name or a
 * site); a host's name is its key there.  Above --max-hosts idle hosts go, so memory follows the flags,
 * not the number of distinct hosts in the input.
 */
#include "fetch.h"

#include <stdlib.h>
#include <string.h>

#include "hdr.h"
#include "htab.h"
#include "site.h"
#include "tm.h"
#include "url.h"
#include "xalloc.h"

static void
free_host(host *h)
{
	for (origin *o = h->origins, *next; o; o = next) {
		next = o->next;
		robots_free(o->robots);
		free(o->down_detail);
		free(o->key);
		free(o);
	}
	free(h);
}

origin *
host_origin(host *h, const char *u)
{
	/* The key is scheme://host[:port], without the userinfo: a
	 * password must not reach robots.txt (whose URL the key makes), and
	 * is no part of the origin. */
	const char *at;
	size_t n = hdr_origin(u, &at), scheme = (size_t)(strstr(u, "://") - u) + 3;
	size_t rest = n - (size_t)(at - u);
	for (origin *o = h->origins; o; o = o->next)
		if (strlen(o->key) == scheme + rest && memcmp(o->key, u, scheme) == 0 &&
		    memcmp(o->key + scheme, at, rest) == 0)
			return o;
	origin *o = xcalloc(1, sizeof *o);
	o->key = xmalloc(scheme + rest + 1);
	memcpy(o->key, u, scheme);
	memcpy(o->key + scheme, at, rest);
	o->key[scheme + rest] = '\0';
	o->next = h->origins;
	h->origins = o;
	return o;
}

/* Whether h holds nothing a new host would not: no jobs, nothing in
 * flight, no wait pending, no robots.txt on its way. */
static int
idle(const host *h, double now)
{
	return !h->waiting && h->active == 0 && !h->fresh && !h->retry &&
	       pace_idle(&h->pace, now) && h->robots_loading == 0;
}

/* Frees idle hosts until at most keep remain, or a whole lap of the
 * table found no more: above --max-hosts, state is kept only for hosts
 * with work, so memory follows the flags, not the number of distinct
 * hosts in the input.  A host that comes back starts afresh and fetches
 * robots.txt again.  The walk goes on where the last one stopped, so
 * one new host above the cap costs one eviction, not a walk of the
 * table. */
static void
evict(double now, size_t keep)
{
	static size_t at;   /* where the last walk stopped */
	size_t seen = 0, total = F.hosts.n;
	if (at > F.hosts.cap)
		at = 0;
	while (F.hosts.n > keep && seen < total) {
		htab_ent *e = htab_next(&F.hosts, &at);
		if (!e) {
			at = 0;
			if (!(e = htab_next(&F.hosts, &at)))
				break;
		}
		seen++;
		host *h = e->val;
		if (idle(h, now)) {
			counters_evicted(h);
			free_host(h);
			htab_del(&F.hosts, e->key, e->len);
		}
	}
}

void
host_trim(void)
{
	if (F.hosts.n > (size_t)F.o.max_hosts)
		evict(tm_mono(), (size_t)F.o.max_hosts);
}

/* Sets h's pacing from the flags, then from the --policy line for it. */
static void
configure(host *h)
{
	h->pace.delay = F.o.delay;
	h->pace.rate = F.o.rate;
	h->pace.burst = F.o.burst;
	h->per_host = F.o.per_host;
	h->use_robots = F.o.robots;
	h->policy_hold = 0;
	policy_apply(F.policy, h);
}

/* What paces host name `name`: its site under --pace-by site or when
 * --policy has a site= line for it, else the name itself.  Scheme and
 * port never split it: http and https of one host are one budget. */
static const char *
pace_key(const char *name, const char *addr)
{
	if (F.o.pace_by == PACE_BY_IP && addr)
		return addr;
	const char *site = site_of(name);
	return F.o.pace_by == PACE_BY_SITE || policy_has_site(F.policy, site) ? site : name;
}

host *
host_next(size_t *i)
{
	htab_ent *e = htab_next(&F.hosts, i);
	return e ? e->val : NULL;
}

host *
host_get(const char *name, const char *addr)
{
	const char *key = pace_key(name, addr);
	htab_ent *e = htab_get(&F.hosts, key);
	if (e)
		return e->val;
	/* At the cap, an idle host makes room; hosts with work cannot go
	 * (at most --pending and -c of them), so when none could, look
	 * again only once their number doubled. */
	static size_t sweep_at;
	size_t cap = (size_t)F.o.max_hosts;
	if (F.hosts.n >= cap && F.hosts.n >= sweep_at) {
		evict(tm_mono(), cap - 1);
		sweep_at = F.hosts.n >= cap ? F.hosts.n * 2 : 0;
	}
	host *h = xcalloc(1, sizeof *h);
	if (!(e = htab_put(&F.hosts, key, strlen(key), NULL)))
		xalloc_die();
	e->val = h;
	h->name = e->key;
	F.stats.hosts_seen++;
	configure(h);
	pace_begin(&h->pace, tm_mono());
	return h;
}

void
host_ring_add(host *h)
{
	if (h->waiting)
		return;
	h->waiting = 1;
	F.n_ring++;
	if (!F.ring) {
		h->wnext = h->wprev = h;
		F.ring = h;
	} else {
		h->wnext = F.ring;
		h->wprev = F.ring->wprev;
		F.ring->wprev->wnext = h;
		F.ring->wprev = h;
	}
}

void
host_ring_del(host *h)
{
	if (!h->waiting)
		return;
	h->waiting = 0;
	F.n_ring--;
	if (h->wnext == h)
		F.ring = NULL;
	else {
		h->wprev->wnext = h->wnext;
		h->wnext->wprev = h->wprev;
		if (F.ring == h)
			F.ring = h->wnext;
	}
}

void
host_settle(host *h)
{
	if (!h->fresh && !h->retry)
		host_ring_del(h);
}

void
host_reconfigure(void)
{
	size_t i = 0;
	for (host *h; (h = host_next(&i));) {
		configure(h);
		host_ring_add(h);   /* a resumed host may start again */
	}
}

void
host_set_holds(const char *const *names, const char *const *reasons, int n)
{
	size_t i = 0;
	for (host *h; (h = host_next(&i));) {
		h->queue_hold = NULL;
		for (int k = 0; k < n && !h->queue_hold; k++)
			if (strcmp(names[k], h->name) == 0)
				h->queue_hold = reasons[k];
	}
}

void
host_queue_fresh(job *j)
{
	host *h = j->host;
	j->next = NULL;
	if (h->fresh_tail)
		h->fresh_tail->next = j;
	else
		h->fresh = j;
	h->fresh_tail = j;
	h->n_fresh++;
	host_ring_add(h);
}

void
host_queue_retry(job *j)
{
	host *h = j->host;
	job **p = &h->retry;
	while (*p && (*p)->not_before <= j->not_before)
		p = &(*p)->next;
	j->next = *p;
	*p = j;
	host_ring_add(h);
}

job *
host_unlink(host *h, job **p)
{
	job *j = *p;
	*p = j->next;
	if (p == &h->fresh) {
		h->n_fresh--;
		if (!h->fresh)
			h->fresh_tail = NULL;
	}
	return j;
}

void
host_untake(host *h, job *j)
{
	if (j->attempts) {
		j->next = h->retry;
		h->retry = j;
	} else {
		if (!(j->next = h->fresh))
			h->fresh_tail = j;
		h->fresh = j;
		h->n_fresh++;
	}
}

job *
host_pop(host *h)
{
	if (h->retry)
		return host_unlink(h, &h->retry);
	if (h->fresh)
		return host_unlink(h, &h->fresh);
	return NULL;
}

job *
host_take_origin(host *h, const origin *o)
{
	for (job **p = &h->retry; *p; p = &(*p)->next)
		if (host_origin(h, job_target(*p)) == o)
			return host_unlink(h, p);
	for (job *prev = NULL, *j = h->fresh; j; prev = j, j = j->next) {
		if (host_origin(h, job_target(j)) != o)
			continue;
		if (!prev)
			return host_unlink(h, &h->fresh);
		prev->next = j->next;
		if (h->fresh_tail == j)
			h->fresh_tail = prev;
		h->n_fresh--;
		return j;
	}
	return NULL;
}

job *
host_take_held(int any)
{
	host *h = F.ring;
	for (size_t i = 0; h && i < F.n_ring; i++, h = h->wnext) {
		if (!any && !h->queue_hold)
			continue;
		job *j = host_pop(h);
		host_settle(h);
		if (j)
			return j;
	}
	return NULL;
}

void
host_free_all(void)
{
	size_t i = 0;
	for (host *h; (h = host_next(&i));)
		free_host(h);
	htab_free(&F.hosts);
}
