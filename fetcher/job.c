/* job — one input URL from its first read to its one output record: the
 * job itself, its chain of redirect hops, and its life (new, dropped,
 * freed).  Writing its record is record.c's. */
#include "fetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

job *
job_new(char *url, const char *in, size_t in_len)
{
	if (!url)
		xalloc_die();
	job *j = xcalloc(1, sizeof *j);
	if (in_len) {
		j->in = xmalloc(in_len);
		memcpy(j->in, in, in_len);
	}
	j->in_len = in_len;
	j->url = url;
	F.alive++;
	return j;
}

job *
job_new_robots(host *h, origin *o, const char *name)
{
	job *j = xcalloc(1, sizeof *j);
	size_t n = strlen(o->key) + sizeof "/robots.txt";
	j->url = xmalloc(n);
	snprintf(j->url, n, "%s/robots.txt", o->key);
	j->host = h;
	j->origin = o;
	j->name = xstrdup(name);
	j->is_robots = 1;
	return j;
}

void
job_raw_clear(exchange *x)
{
	free(x->url);
	x->url = NULL;
	x->date = 0;
	x->ip[0] = '\0';
	x->http_version = 0;
	x->req.len = x->head.len = x->payload.len = 0;
	x->chunked = x->payload_cut = 0;
}

void
job_raw_free(exchange *x)
{
	free(x->url);
	free(x->req.p);
	free(x->head.p);
	free(x->payload.p);
	memset(x, 0, sizeof *x);
}

void
job_add_hop(job *j, const char *url, long status)
{
	hop *c = xrealloc(j->chain, (size_t)(j->n_chain + 1) * sizeof *c);
	c[j->n_chain].url = xstrdup(url);
	c[j->n_chain].status = status;
	j->chain = c;
	if (F.o.raw) {
		j->hops_raw = xrealloc(j->hops_raw, (size_t)(j->n_chain + 1) * sizeof *j->hops_raw);
		j->hops_raw[j->n_chain] = j->raw;
		memset(&j->raw, 0, sizeof j->raw);
	}
	j->n_chain++;
}

void
job_set_host_name(job *j, const char *name)
{
	free(j->hname);
	free(j->name);
	j->hname = xstrdup(name);
	j->name = xstrdup(name);
}

void
job_set_target(job *j, char *target, const char *name)
{
	free(j->target);
	free(j->name);
	j->target = target;
	j->name = xstrdup(name);
	j->host = NULL;
	j->hop_attempts = 0;
}

const char *
job_header(const job *j, const char *name)
{
	for (size_t i = 0; i < j->hdrs_len;) {
		const char *k = j->hdrs + i, *v = k + strlen(k) + 1;
		if (strcmp(k, name) == 0)
			return v;
		i = (size_t)(v - j->hdrs) + strlen(v) + 1;
	}
	return NULL;
}

void
job_set_error(job *j, enum fetcherr e, char *detail)
{
	j->error = e;
	free(j->error_detail);
	j->error_detail = detail;
}

void
job_drop(job *j)
{
	F.alive--;
	job_free(j);
}

void
job_free(job *j)
{
	if (j->easy)
		pool_put(j->easy);
	for (int i = 0; i < j->n_chain; i++) {
		free(j->chain[i].url);
		if (j->hops_raw)
			job_raw_free(&j->hops_raw[i]);
	}
	free(j->chain);
	free(j->hops_raw);
	job_raw_free(&j->raw);
	free(j->target);
	free(j->url);
	free(j->hname);
	free(j->name);
	curl_slist_free_all(j->resolve);
	free(j->in);
	free(j->body);
	free(j->hdrs);
	free(j->etag);
	free(j->last_modified);
	curl_slist_free_all(j->req_hdrs);
	free(j->error_detail);
	free(j);
}
