#include "consent.h"

#include <string.h>
#include <strings.h>

#include "buf.h"
#include "extract.h"
#include "tree.h"

/* Visible characters (spaces not counted, as content.c counts them).  A
 * notice's text runs from a sentence to an IAB TCF wall's paragraph
 * (about 900); an article, even a short one, is longer. */
#define CONSENT_BOX 1500
/* What a wrapper may add around a notice: a close button, a logo's
 * word. */
#define CONSENT_WRAP 40
/* The longest answer label ("use necessary cookies only"). */
#define CONSENT_LABEL 40
/* Elements a count may visit: a subtree of thousands of elements with
 * little text (a grid of icons) is no notice, and must not cost a walk
 * per button inside it. */
#define CONSENT_NODES 4000
/* Elements all the counts of one document may visit together: a page
 * of thousands of buttons labelled "OK" in a deep tree must not cost a
 * walk of thousands of elements each.  A real page's notices take a
 * few thousand. */
#define CONSENT_VISITS 2000000

/* One search: its scratch text, and the visits left to it. */
typedef struct scan {
	pbuf b;
	size_t left;
} scan;

/* The start of the id or of a class of each consent platform's
 * container, lowercase (EasyList Cookie's generic rules name the same;
 * https://github.com/easylist/easylist/tree/master/easylist_cookie). */
static const char *const platforms[] = {
	"onetrust-", "optanon", "cybotcookiebot", "didomi-", "qc-cmp2", "usercentrics",
	"sp_message_container", "truste-", "truste_", "trustarc", "osano-cm", "cky-consent",
	"cmplz-", "iubenda-cs", "cmpbox", "fc-consent", "cc-window", "cc-banner", "termly-",
	"axeptio_", "borlabscookie", "moove_gdpr",
};

/* A consent notice's answers, as label() writes them: lowercase, runs
 * of spaces and punctuation one space, ’ as '. */
static const char *const answers[] = {
	/* English */
	"accept", "accept all", "accept all cookies", "accept cookies", "accept and close",
	"accept & close", "i accept", "i agree", "agree", "agree and close", "agree & close",
	"allow", "allow all", "allow all cookies", "allow cookies", "ok", "okay", "got it",
	"i understand", "reject", "reject all", "reject all cookies", "decline", "decline all",
	"deny", "deny all", "necessary only", "only necessary", "essential only",
	"use necessary cookies only", "cookie settings", "cookies settings", "manage cookies",
	"manage preferences", "manage options", "manage settings", "customise", "customize",
	"more options", "continue without accepting",
	/* German */
	"akzeptieren", "alle akzeptieren", "alles akzeptieren", "alle cookies akzeptieren",
	"zustimmen", "alle zulassen", "einverstanden", "ablehnen", "alle ablehnen",
	"einstellungen", "cookie einstellungen",
	/* French */
	"accepter", "tout accepter", "j'accepte", "accepter et fermer", "accepter et continuer",
	"refuser", "tout refuser", "continuer sans accepter", "paramétrer", "personnaliser",
	/* Spanish, Italian, Dutch, Portuguese, Polish */
	"aceptar", "aceptar todo", "aceptar todas", "aceptar cookies", "acepto", "rechazar",
	"rechazar todo", "rechazar todas", "configurar", "accetta", "accetta tutti",
	"accetta tutto", "accetto", "rifiuta", "rifiuta tutti", "accepteren",
	"alles accepteren", "akkoord", "weigeren", "alles weigeren", "aceitar",
	"aceitar todos", "aceito", "rejeitar", "rejeitar todos", "akceptuję", "zaakceptuj",
	"akceptuj wszystkie", "odrzuć", "odrzuć wszystkie",
};

/* What a notice's text mentions, lowercase: cookies or consent. */
static const char *const topics[] = {
	"cookie", "consent", "gdpr", "einwilligung", "consentement", "consentimiento",
	"consenso", "toestemming", "ciasteczk",
};

/* Whether s (lowercase) begins with a platform's container name. */
static int
platform_name(const char *s, size_t n)
{
	/* The first letter first: most names start with no platform's. */
	unsigned char c0 = (unsigned char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
	for (size_t i = 0; i < sizeof platforms / sizeof platforms[0]; i++) {
		if ((unsigned char)platforms[i][0] != c0)
			continue;
		size_t m = strlen(platforms[i]);
		if (n >= m && strncasecmp(s, platforms[i], m) == 0)
			return 1;
	}
	return 0;
}

/* Whether an element's id or one of its classes cls is a platform's. */
static int
named(const char *id, const char *cls)
{
	if (id && platform_name(id, strlen(id)))
		return 1;
	for (const char *p = cls; p && *p;) {
		while (pbuf_isspace((unsigned char)*p))
			p++;
		size_t len = strcspn(p, " \t\n\r\f");
		if (len && platform_name(p, len))
			return 1;
		p += len;
	}
	return 0;
}

/* The visible characters of n's subtree, counted up to limit: a result
 * over limit means "more", or more than CONSENT_NODES elements or than
 * s has left, or a page's heading or article (an h1, article or main):
 * what holds one is the content, however short. */
static size_t
count(scan *s, const GumboNode *top, size_t limit)
{
	size_t chars = 0, nodes = 0;
	for (const GumboNode *n = top; n && chars <= limit;) {
		if (tree_is_element(n)) {
			if (!s->left)
				return limit + 1;
			s->left--;
			GumboTag t = tree_tag(n);
			if (++nodes > CONSENT_NODES || t == GUMBO_TAG_H1 || t == GUMBO_TAG_ARTICLE ||
			    t == GUMBO_TAG_MAIN)
				return limit + 1;
			if (n != top && ex_is_hidden(n)) {
				n = tree_after(n, top);
				continue;
			}
		} else if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA) {
			for (const unsigned char *s = (const unsigned char *)n->v.text.text; *s; s++)
				chars += (*s & 0xC0) != 0x80 && !pbuf_isspace(*s);
		}
		n = tree_next(n, top);
	}
	return chars;
}

/* b's text lowercased (ASCII), runs of spaces and ASCII punctuation
 * but ' and & one space, none at the ends, ’ as '. */
static void
label(pbuf *b)
{
	size_t k = 0;
	int gap = 0;
	for (size_t i = 0; i < b->len; i++) {
		unsigned char c = (unsigned char)b->p[i];
		if (c == 0xE2 && i + 2 < b->len && (unsigned char)b->p[i + 1] == 0x80 &&
		    (unsigned char)b->p[i + 2] == 0x99) {
			c = '\'';
			i += 2;
		}
		if (c < 0x80 && !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z') &&
		    !(c >= 'A' && c <= 'Z') && c != '\'' && c != '&') {
			gap = k > 0;
			continue;
		}
		if (gap)
			b->p[k++] = ' ';
		gap = 0;
		b->p[k++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	b->len = k;
	b->p[k] = '\0';
}

/* Whether link n goes to another page: its href neither empty, nor a
 * fragment, nor a query of this page, nor a script.  A notice's answer
 * stays on the page; most links of a page go elsewhere, and their text
 * need not be read. */
static int
goes_elsewhere(const GumboNode *n)
{
	const char *h = tree_attr(n, "href");
	return h && *h && *h != '#' && *h != '?' && strncasecmp(h, "javascript:", 11) != 0;
}

/* Whether element n (its role attribute role) is a control answering
 * a consent notice. */
static int
answer(scan *s, const GumboNode *n, const char *role)
{
	pbuf *b = &s->b;
	GumboTag t = tree_tag(n);
	const char *v;
	pbuf_reset(b);
	if (t == GUMBO_TAG_INPUT) {
		const char *type = tree_attr(n, "type");
		if (!type || (strcasecmp(type, "button") != 0 && strcasecmp(type, "submit") != 0) ||
		    !(v = tree_attr(n, "value")))
			return 0;
		pbuf_put(b, v, strlen(v));
	} else if (t == GUMBO_TAG_BUTTON || (t == GUMBO_TAG_A && !goes_elsewhere(n)) ||
		   (role && strcasecmp(role, "button") == 0)) {
		if (count(s, n, CONSENT_LABEL) > CONSENT_LABEL)
			return 0;
		ex_text(b, n);
	} else {
		return 0;
	}
	if (!b->len)
		return 0;
	label(b);
	for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++)
		if (strcmp(b->p, answers[i]) == 0)
			return 1;
	return 0;
}

/* Whether n's text mentions cookies or consent. */
static int
on_topic(const GumboNode *n, pbuf *b)
{
	pbuf_reset(b);
	ex_text(b, n);
	if (!b->len)
		return 0;
	for (size_t i = 0; i < b->len; i++)
		if (b->p[i] >= 'A' && b->p[i] <= 'Z')
			b->p[i] = (char)(b->p[i] + 32);
	for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++)
		if (strstr(b->p, topics[i]))
			return 1;
	return 0;
}

/* Whether n is the page's html or body: never a notice. */
static int
page_level(const GumboNode *n)
{
	return !tree_is_element(n) || tree_tag(n) == GUMBO_TAG_HTML || tree_tag(n) == GUMBO_TAG_BODY;
}

/* The notice answered by control c, or NULL. */
static const GumboNode *
notice_of(scan *s, const GumboNode *c)
{
	const GumboNode *box = NULL;
	size_t chars = 0;
	for (const GumboNode *a = c->parent; a && !page_level(a); a = a->parent) {
		chars = count(s, a, CONSENT_BOX);
		if (chars > CONSENT_BOX)
			return NULL;
		if (on_topic(a, &s->b)) {
			box = a;
			break;
		}
	}
	if (!box)
		return NULL;
	for (const GumboNode *a = box->parent; a && !page_level(a); a = a->parent) {
		if (count(s, a, chars + CONSENT_WRAP) > chars + CONSENT_WRAP)
			break;
		box = a;
	}
	return box;
}

void
consent_notices(const GumboOutput *out, void (*each)(const GumboNode *n, void *arg), void *arg)
{
	scan s = { .left = CONSENT_VISITS };
	pbuf_init(&s.b);
	const GumboNode *top = out->document;
	for (const GumboNode *n = top; n && s.left;) {
		const GumboNode *found = NULL;
		if (tree_is_element(n) && !page_level(n)) {
			if (ex_is_hidden(n)) {
				n = tree_after(n, top);
				continue;
			}
			/* One pass over the attributes: this runs for every
			 * element of the page. */
			const char *id = NULL, *cls = NULL, *role = NULL;
			const GumboVector *v = &n->v.element.attributes;
			for (unsigned i = 0; i < v->length; i++) {
				const GumboAttribute *a = v->data[i];
				if (strcmp(a->name, "id") == 0)
					id = a->value;
				else if (strcmp(a->name, "class") == 0)
					cls = a->value;
				else if (strcmp(a->name, "role") == 0)
					role = a->value;
			}
			if (named(id, cls))
				found = n;
			else if (answer(&s, n, role))
				found = notice_of(&s, n);
		}
		if (found) {
			each(found, arg);
			n = tree_after(found, top);
		} else {
			n = tree_next(n, top);
		}
	}
	pbuf_free(&s.b);
}
