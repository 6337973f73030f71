/* dns — host names to addresses, on libuv's thread pool, in a bounded
 * cache of fetch's own.
 *
 * libcurl 7.88 keeps resolved names in a hash of 7 buckets and prunes
 * it, walking every entry, at each resolve: with a name per host and
 * its 60 s lifetime, a broad crawl spent its time there (10 000 hosts
 * 8 s, 50 000 hosts 284 s).  So fetch resolves each name itself,
 * before the job is placed at its host (uv_getaddrinfo, at most
 * DNS_LOOKUPS at once), keeps the answer DNS_TTL seconds (a failure too:
 * every URL of a name that does not resolve ends at once, unsent), and
 * hands the addresses to libcurl per transfer (dns_resolve_line, an
 * entry of CURLOPT_RESOLVE that times out as a resolved one would), with
 * libcurl's own cache kept to a second.  The cache holds at most about
 * --max-hosts names: above it, those with no job waiting go, expired
 * ones first.  Knowing the address before a job is placed is also what
 * --pace-by ip paces by.
 *
 * Not resolved here: IP literals (their own address), names --resolve
 * gives (its address), "localhost" and names under .localhost
 * (loopback, RFC 6761, as libcurl does), and every name when a proxy is
 * in use (--proxy or the *_proxy variables): then the proxy resolves,
 * and no lookup of ours may leak the names to the local resolver.
 *
 * The lookup's callback only changes state: a finished name's jobs go
 * on a list the driver takes back with dns_done.
 */
#include "fetch.h"

#include <arpa/inet.h>
#include <math.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "htab.h"
#include "tm.h"
#include "url.h"
#include "xalloc.h"

#define DNS_TTL 60.0           /* seconds an answer (or a failure) is kept */
#define DNS_LOOKUPS 16         /* lookups running at once */
#define DNS_ADDRS 4            /* addresses kept per name */

enum { DNS_PENDING, DNS_OK, DNS_FAILED };

typedef struct entry {
	char *name;                /* its own copy: a lookup may outlive the table */
	int state;
	double expires;            /* monotonic */
	char addr[DNS_ADDRS][INET6_ADDRSTRLEN];
	int n_addr;
	char *why;                 /* DNS_FAILED: the message */
	job *waiting, *waiting_tail;  /* parked until the answer */
	uv_getaddrinfo_t req;
	int running;               /* req is on the thread pool */
	struct entry *qnext;       /* lookups not yet started */
} entry;

static htab names;
static entry *queue, *queue_tail;  /* lookups waiting for a slot */
static int running;
static job *done, *done_tail;      /* jobs whose name was answered */
static int proxied = -1;           /* a proxy resolves: set once */
static int closing;                /* dns_close ran: answers free their entry */

static void
free_entry(entry *e)
{
	free(e->name);
	free(e->why);
	free(e);
}

/* Whether requests go through a proxy: --proxy, or a *_proxy variable
 * libcurl would read (an empty one names none). */
static int
proxy_in_use(void)
{
	if (proxied < 0) {
		static const char *const vars[] = { "http_proxy", "HTTP_PROXY", "https_proxy",
						    "HTTPS_PROXY", "all_proxy", "ALL_PROXY", NULL };
		proxied = F.o.proxy != NULL;
		for (int i = 0; vars[i] && !proxied; i++) {
			const char *v = getenv(vars[i]);
			proxied = v && *v;
		}
	}
	return proxied;
}

/* Whether name is an IP address, v4 or v6 (with or without brackets). */
static int
is_literal(const char *name)
{
	unsigned char buf[sizeof(struct in6_addr)];
	char tmp[INET6_ADDRSTRLEN + 2];
	size_t n = strlen(name);
	if (name[0] == '[' && n > 2 && n < sizeof tmp && name[n - 1] == ']') {
		memcpy(tmp, name + 1, n - 2);
		tmp[n - 2] = '\0';
		return inet_pton(AF_INET6, tmp, buf) == 1;
	}
	return inet_pton(AF_INET, name, buf) == 1 || inet_pton(AF_INET6, name, buf) == 1;
}

/* Whether name is localhost or under .localhost. */
static int
is_localhost(const char *name)
{
	size_t n = strlen(name);
	return strcasecmp(name, "localhost") == 0 ||
	       (n > 10 && strcasecmp(name + n - 10, ".localhost") == 0);
}

/* The address --resolve gives name (for any port: fetch paces by the
 * name's address, libcurl connects by its own entry), or NULL. */
static const char *
given(const char *name, char *out, size_t outlen)
{
	size_t n = strlen(name);
	for (const struct curl_slist *l = F.o.resolve; l; l = l->next) {
		const char *s = l->data + (l->data[0] == '+');
		const char *port = strchr(s, ':');
		if (!port || (size_t)(port - s) != n || strncasecmp(s, name, n) != 0)
			continue;
		const char *addr = strchr(port + 1, ':');
		if (!addr)
			continue;
		snprintf(out, outlen, "%.*s", (int)strcspn(addr + 1, ","), addr + 1);
		return out;
	}
	return NULL;
}

/* Frees entries above the bound: expired ones with nothing waiting,
 * then any with nothing waiting, down to half the bound. */
static void
sweep(double now)
{
	size_t cap = (size_t)F.o.max_hosts;
	for (int pass = 0; pass < 2 && names.n > cap / 2; pass++) {
		size_t i = 0;
		for (htab_ent *h; names.n > cap / 2 && (h = htab_next(&names, &i));) {
			entry *e = h->val;
			if (e->state == DNS_PENDING || (pass == 0 && e->expires > now))
				continue;
			htab_del(&names, h->key, h->len);
			free_entry(e);
		}
	}
}

/* The answer of name's lookup (uv's thread pool done): the entry's
 * addresses or failure; its jobs go to the done list. */
static void
on_answer(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
	entry *e = req->data;
	e->running = 0;
	running--;
	if (closing) {
		uv_freeaddrinfo(res);
		free_entry(e);
		return;
	}
	e->n_addr = 0;
	for (struct addrinfo *a = res; a && e->n_addr < DNS_ADDRS; a = a->ai_next) {
		if (a->ai_family == AF_INET)
			uv_ip4_name((struct sockaddr_in *)a->ai_addr, e->addr[e->n_addr++],
				    sizeof e->addr[0]);
		else if (a->ai_family == AF_INET6)
			uv_ip6_name((struct sockaddr_in6 *)a->ai_addr, e->addr[e->n_addr++],
				    sizeof e->addr[0]);
	}
	uv_freeaddrinfo(res);
	e->expires = tm_mono() + DNS_TTL;
	if (status == 0 && e->n_addr) {
		e->state = DNS_OK;
	} else {
		e->state = DNS_FAILED;
		char why[512];
		/* libcurl's words, which records had before. */
		snprintf(why, sizeof why, "Could not resolve host: %s", e->name);
		e->why = xstrdup(why);
	}
	if (e->waiting) {
		if (done_tail)
			done_tail->next = e->waiting;
		else
			done = e->waiting;
		done_tail = e->waiting_tail;
		e->waiting = e->waiting_tail = NULL;
	}
}

/* Starts queued lookups while slots are free. */
static void
start_lookups(void)
{
	static const struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
					       .ai_flags = AI_ADDRCONFIG };
	while (queue && running < DNS_LOOKUPS) {
		entry *e = queue;
		queue = e->qnext;
		if (!queue)
			queue_tail = NULL;
		e->req.data = e;
		if (uv_getaddrinfo(F.loop, &e->req, on_answer, e->name, NULL, &hints) != 0) {
			on_answer(&e->req, -1, NULL);
			running++;   /* on_answer gave it back */
			continue;
		}
		e->running = 1;
		running++;
	}
}

/* Fills e with the address name has without a lookup; 1, or 0 when it
 * needs one. */
static int
known(entry *e)
{
	char buf[INET6_ADDRSTRLEN + 2];
	const char *a = NULL;
	if (is_literal(e->name))
		a = e->name;
	else if ((a = given(e->name, buf, sizeof buf)) == NULL && is_localhost(e->name))
		a = "127.0.0.1";
	if (!a)
		return 0;
	size_t n = strlen(a);
	if (a[0] == '[' && n > 2) {   /* brackets: the URL's form, not an address's */
		a++;
		n -= 2;
	}
	if (n >= sizeof e->addr[0])
		return 0;   /* no address is that long: let the resolver say */
	memcpy(e->addr[0], a, n);
	e->addr[0][n] = '\0';
	e->n_addr = 1;
	e->state = DNS_OK;
	e->expires = INFINITY;
	return 1;
}

int
dns_place(job *j, const char **addr, char **why)
{
	*addr = NULL;
	if (proxy_in_use())
		return 1;
	double now = tm_mono();
	htab_ent *h = htab_get(&names, j->name);
	entry *e = h ? h->val : NULL;
	if (e && e->state != DNS_PENDING && e->expires <= now && !e->running) {
		free(e->why);
		e->why = NULL;
		e->state = DNS_PENDING;   /* stale: look it up again */
		e->qnext = NULL;
		if (queue_tail)
			queue_tail->qnext = e;
		else
			queue = e;
		queue_tail = e;
	}
	if (!e) {
		if (names.n >= (size_t)F.o.max_hosts)
			sweep(now);
		e = xcalloc(1, sizeof *e);
		if (!(h = htab_put(&names, j->name, strlen(j->name), NULL)))
			xalloc_die();
		h->val = e;
		e->name = xstrdup(j->name);
		if (!known(e)) {
			e->state = DNS_PENDING;
			if (queue_tail)
				queue_tail->qnext = e;
			else
				queue = e;
			queue_tail = e;
		}
	}
	if (e->state == DNS_OK) {
		*addr = e->addr[0];
		return 1;
	}
	if (e->state == DNS_FAILED) {
		*why = xstrdup(e->why);
		return -1;
	}
	j->next = NULL;
	if (e->waiting_tail)
		e->waiting_tail->next = j;
	else
		e->waiting = j;
	e->waiting_tail = j;
	start_lookups();
	return 0;
}

const char *
dns_address(const char *name)
{
	htab_ent *h = htab_get(&names, name);
	entry *e = h ? h->val : NULL;
	return e && e->n_addr ? e->addr[0] : NULL;
}

job *
dns_done(void)
{
	start_lookups();   /* slots the answers freed */
	job *j = done;
	if (j && !(done = j->next))
		done_tail = NULL;
	return j;
}

job *
dns_take_waiting(void)
{
	job *j = dns_done();
	if (j)
		return j;
	size_t i = 0;
	for (htab_ent *h; (h = htab_next(&names, &i));) {
		entry *e = h->val;
		if ((j = e->waiting)) {
			if (!(e->waiting = j->next))
				e->waiting_tail = NULL;
			return j;
		}
	}
	return NULL;
}

int
dns_idle(void)
{
	return running == 0;
}

struct curl_slist *
dns_resolve_list(const job *j, const char *url)
{
	struct curl_slist *l = NULL;
	for (const struct curl_slist *u = F.o.resolve; u; u = u->next)
		if (!(l = curl_slist_append(l, u->data)))
			xalloc_die();
	htab_ent *h = proxy_in_use() ? NULL : htab_get(&names, j->name);
	entry *e = h ? h->val : NULL;
	if (!e || e->state != DNS_OK || e->expires == INFINITY)
		return l;   /* literal, --resolve, localhost: libcurl knows */
	/* The port, after the host of the URL's origin. */
	const char *at = strstr(url, "://") + 3;
	size_t n = url_origin_len(url) - (size_t)(at - url);
	const char *colon = n && at[n - 1] != ']' ? memrchr(at, ':', n) : NULL;
	long port = colon ? strtol(colon + 1, NULL, 10) : strncmp(url, "https:", 6) == 0 ? 443 : 80;
	char line[512 + DNS_ADDRS * (INET6_ADDRSTRLEN + 3)];
	int k = snprintf(line, sizeof line, "+%s:%ld:", j->name, port);
	for (int i = 0; i < e->n_addr && k < (int)sizeof line; i++)
		k += snprintf(line + k, sizeof line - (size_t)k, strchr(e->addr[i], ':') ? "%s[%s]" : "%s%s",
			      i ? "," : "", e->addr[i]);
	if (k < (int)sizeof line && !(l = curl_slist_append(l, line)))
		xalloc_die();
	return l;
}

size_t
dns_names(void)
{
	return names.n;
}

void
dns_close(void)
{
	closing = 1;
	size_t i = 0;
	for (htab_ent *h; (h = htab_next(&names, &i));) {
		entry *e = h->val;
		if (e->running)   /* answered, cancelled or not, by the last loop run */
			uv_cancel((uv_req_t *)&e->req);
		else
			free_entry(e);
	}
	htab_free(&names);
}
