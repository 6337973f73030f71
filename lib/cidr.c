/* cidr — address ranges, compared as 16-byte addresses. */
#include "cidr.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "xalloc.h"

typedef struct range {
	unsigned char net[16];
	int bits;                /* prefix length over the 16 bytes */
} range;

struct cidr {
	range *v;
	size_t n;
};

/* addr as 16 bytes: IPv6 as is, IPv4 mapped (::ffff:a.b.c.d).  Returns
 * the prefix length of a whole address (128), or -1. */
static int
to16(const char *s, unsigned char out[16])
{
	struct in_addr v4;
	if (inet_pton(AF_INET, s, &v4) == 1) {
		memset(out, 0, 10);
		out[10] = out[11] = 0xff;
		memcpy(out + 12, &v4, 4);
		return 96;   /* where the IPv4 part starts */
	}
	return inet_pton(AF_INET6, s, out) == 1 ? 0 : -1;
}

static int
in_range(const range *r, const unsigned char a[16])
{
	int full = r->bits / 8, rest = r->bits % 8;
	if (memcmp(r->net, a, (size_t)full) != 0)
		return 0;
	if (!rest)
		return 1;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));
	return (r->net[full] & mask) == (a[full] & mask);
}

struct cidr *
cidr_parse(const char *list, char *err, size_t errlen)
{
	struct cidr *c = xcalloc(1, sizeof *c);
	char *copy = xstrdup(list), *save = NULL;
	for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		char *slash = strchr(t, '/');
		if (slash)
			*slash = '\0';
		range r;
		int base = to16(t, r.net), len = base == 96 ? 32 : 128;
		char *end = NULL;
		long bits = slash ? strtol(slash + 1, &end, 10) : len;
		if (base < 0 || (slash && (end == slash + 1 || *end || bits < 0 || bits > len))) {
			if (slash)
				*slash = '/';
			snprintf(err, errlen, "'%s' is not an address or address/prefix", t);
			free(copy);
			cidr_free(c);
			return NULL;
		}
		r.bits = base + (int)bits;
		/* Bits past the prefix do not matter; clear them so they do not
		 * take part in comparisons either way. */
		for (int i = r.bits; i < 128; i++)
			r.net[i / 8] &= (unsigned char)~(0x80 >> (i % 8));
		c->v = xrealloc(c->v, (c->n + 1) * sizeof *c->v);
		c->v[c->n++] = r;
	}
	free(copy);
	return c;
}

static int
has16(const struct cidr *c, const unsigned char a[16])
{
	for (size_t i = 0; c && i < c->n; i++)
		if (in_range(&c->v[i], a))
			return 1;
	return 0;
}

int
cidr_has_addr(const struct cidr *c, const struct sockaddr *a)
{
	unsigned char b[16];
	if (a->sa_family == AF_INET) {
		memset(b, 0, 10);
		b[10] = b[11] = 0xff;
		memcpy(b + 12, &((const struct sockaddr_in *)a)->sin_addr, 4);
	} else if (a->sa_family == AF_INET6) {
		memcpy(b, &((const struct sockaddr_in6 *)a)->sin6_addr, 16);
	} else {
		return 0;
	}
	return has16(c, b);
}

int
cidr_has_text(const struct cidr *c, const char *ip)
{
	unsigned char b[16];
	return to16(ip, b) >= 0 && has16(c, b);
}

void
cidr_free(struct cidr *c)
{
	if (c)
		free(c->v);
	free(c);
}
