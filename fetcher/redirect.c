/* redirect — fetch follows redirects itself, one hop at a time.
 *
 * libcurl's own following would make every hop after the first escape
 * robots.txt, the target host's pacing, its connection cap, its breaker,
 * pauses and the scope.  Here a 3xx answer ends the attempt; the job
 * takes the target as its next URL and waits its turn at the target's
 * host like any retry, holding no global slot meanwhile.  The record
 * keeps the input URL as its identity, the last hop as `final_url` and
 * the chain as `redirects`.
 *
 * A hop is refused, ending the record, when it would repeat a URL of the
 * chain or pass --max-redirs (`redirects`), leave http(s) (`scheme`),
 * not parse (`bad_url`), leave --redirects' scope (`offsite_redirect`),
 * or, when the chain began at a public address, connect to a private one
 * (`private_address`: a crawler in a cloud must not be steered into its
 * metadata service or intranet).  The address is checked as connected,
 * so DNS cannot smuggle one in.
 */
#include "fetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "site.h"
#include "tm.h"
#include "url.h"
#include "xalloc.h"

static int
is_redirect(long status)
{
	return status == 301 || status == 302 || status == 303 || status == 307 ||
	       status == 308;
}

char *
redirect_detail(const char *to, const char *why)
{
	if (!to)
		return strdup(why);
	char detail[512], *shown = url_shown(to);
	snprintf(detail, sizeof detail, "redirect to %.400s: %s", shown ? shown : to, why);
	free(shown);
	return strdup(detail);
}

/* Ends j with error word e, its detail naming the refused target. */
static void
refuse(job *j, enum fetcherr e, const char *why, const char *to)
{
	j->error = e;
	free(j->error_detail);
	j->error_detail = redirect_detail(to, why);
	job_emit(j);
}

/* Whether target host name `to` is within --redirects of j's input. */
static int
in_scope(const job *j, const char *to)
{
	if (F.o.redirects == REDIR_SAME_HOST)
		return strcmp(to, j->hname) == 0;
	if (F.o.redirects == REDIR_SAME_SITE)
		return strcmp(site_of(to), site_of(j->hname)) == 0;
	return 1;
}

static int
seen(const job *j, const char *u)
{
	if (strcmp(u, j->url) == 0)
		return 1;
	for (int i = 0; i < j->n_chain; i++)
		if (strcmp(u, j->chain[i].url) == 0)
			return 1;
	return 0;
}

int
redirect_follow(job *j)
{
	char *loc = NULL;
	if (!is_redirect(j->status) ||
	    curl_easy_getinfo(j->easy, CURLINFO_REDIRECT_URL, &loc) != CURLE_OK || !loc)
		return 0;
	if (F.stopping) {
		/* No new hop after a signal: in queue mode the URL goes back
		 * to the frontier, to start its chain again next run. */
		if (lease_defer(j, 0))
			return 1;
		j->error = FETCHERR_INTERRUPTED;
		free(j->error_detail);
		j->error_detail = strdup("stopped by signal before the redirect was followed");
		job_emit(j);
		return 1;
	}
	const char *cur = job_target(j);
	if (j->n_chain == 0) {
		char *ip = NULL;
		curl_easy_getinfo(j->easy, CURLINFO_PRIMARY_IP, &ip);
		j->from_public = ip && !cidr_has_text(F.o.private_ranges, ip);
	}
	hop *c = xrealloc(j->chain, (size_t)(j->n_chain + 1) * sizeof *c);
	c[j->n_chain].url = xstrdup(cur);
	c[j->n_chain].status = j->status;
	j->chain = c;
	j->n_chain++;

	url_parts u;
	const char *why;
	if (url_canon(loc, strlen(loc), &u, &why) != 0) {
		refuse(j, FETCHERR_BAD_URL, why, loc);
		return 1;
	}
	if (!url_fetchable(u.scheme))
		refuse(j, FETCHERR_SCHEME, "only http and https are fetched", u.canon);
	else if (seen(j, u.canon))
		refuse(j, FETCHERR_REDIRECTS, "a loop: the chain has it already", u.canon);
	else if (j->n_chain > F.o.max_redirs) {
		char why_n[64];
		snprintf(why_n, sizeof why_n, "more than --max-redirs (%ld) redirects", F.o.max_redirs);
		refuse(j, FETCHERR_REDIRECTS, why_n, u.canon);
	} else if (!in_scope(j, u.host))
		refuse(j, FETCHERR_OFFSITE_REDIRECT, F.o.redirects == REDIR_SAME_HOST ?
		       "another host (--redirects same-host)" : "another site (--redirects same-site)",
		       u.canon);
	else {
		lease_redirected(u.canon, u.host, cur);
		free(j->target);
		j->target = u.canon;
		u.canon = NULL;
		j->hop_attempts = 0;
		/* Through --proxy the connection is the proxy's, which may
		 * well be private: where the proxy connects is its own rule. */
		j->guard = j->from_public && !F.o.allow_private && !F.o.proxy;
		xfer_release(j->easy);
		j->easy = NULL;
		j->host = host_get(u.host);
		j->not_before = tm_mono();
		sched_retry(j);
	}
	url_parts_free(&u);
	return 1;
}

void
redirect_pack(const job *j)
{
	if (!j->n_chain)
		return;
	msgpack_packer *pk = rec_key(&F.build, "redirects");
	msgpack_pack_array(pk, (size_t)j->n_chain);
	for (int i = 0; i < j->n_chain; i++) {
		msgpack_pack_map(pk, 2);
		msgpack_pack_str_with_body(pk, "url", 3);
		char *shown = url_shown(j->chain[i].url);
		const char *u = shown ? shown : j->chain[i].url;
		msgpack_pack_str_with_body(pk, u, strlen(u));
		free(shown);
		msgpack_pack_str_with_body(pk, "status", 6);
		msgpack_pack_long(pk, j->chain[i].status);
	}
}

curl_socket_t
redirect_open_socket(void *userp, curlsocktype purpose, struct curl_sockaddr *a)
{
	job *j = userp;
	(void)purpose;
	if (j->guard && cidr_has_addr(F.o.private_ranges, &a->addr)) {
		j->refused_private = 1;
		return CURL_SOCKET_BAD;
	}
	return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

int
redirect_private_ip(job *j, const char *ip)
{
	if (j->guard && cidr_has_text(F.o.private_ranges, ip)) {
		j->refused_private = 1;
		return 1;
	}
	return 0;
}

char *
redirect_private_detail(const job *j)
{
	return redirect_detail(j->target, "a private address after a public one (--private-ranges)");
}

void
redirect_free(job *j)
{
	for (int i = 0; i < j->n_chain; i++)
		free(j->chain[i].url);
	free(j->chain);
	free(j->target);
}
