#include "markdown.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "extract.h"
#include "tree.h"
#include "xalloc.h"

/* The rules' limits, each after its row or paragraph of "Markdown" in
 * docs/parse.md. */

/* Escaping: up to MD_OL_DIGITS digits and a `.` or `)` start an
 * ordered list item (CommonMark's limit), so `ol` numbers stop at
 * MD_MAX_START, the largest of that many digits; a name of over
 * MD_ENTITY_NAME letters is no entity (HTML's longest has 31). */
#define MD_OL_DIGITS 9
#define MD_MAX_START 999999999
#define MD_ENTITY_NAME 40

/* `pre`: a fence is at least MD_FENCE_MIN backticks (or tildes). */
#define MD_FENCE_MIN 3

/* `table`: HTML's own cap on colspan. */
#define MD_MAX_COLSPAN 1000

/* What leaving an element does. */
enum {
	A_NONE,     /* inline, nothing to close */
	A_BLOCK,    /* ends the paragraph */
	A_SPACE,    /* a block flattened into a line: a word break */
	A_HEAD,     /* writes the heading */
	A_QUOTE,    /* closes a block quote */
	A_LIST,     /* closes a list */
	A_ITEM,     /* closes a list item; aux: 1 for a part's (md_enter_part) */
	A_PRE,      /* writes the fenced block */
	A_PREIN,    /* a pre inside a pre */
	A_CODE,     /* writes the code span */
	A_EM,       /* closes emphasis; aux: 1 or 2 asterisks */
	A_LINK,     /* closes a link; url in m->urls from off */
	A_TABLE,    /* writes the table */
	A_CELL,     /* ends a cell (or the caption) */
	A_ROW,      /* ends a row */
};

typedef struct md_frame {
	uint8_t act;
	uint8_t aux;
	uint8_t boxed;        /* A_QUOTE, A_ITEM: pushed a box */
	char ch;              /* A_LIST, A_ITEM: marker character */
	int ordered;          /* A_LIST */
	long num;             /* A_LIST: the next item's number */
	size_t off;           /* A_EM, A_LINK: opener's offset in pend; A_LIST: out's length at start */
	size_t url, urllen;   /* A_LINK: in m->urls */
} md_frame;

/* A container: what starts each of its lines. */
typedef struct md_box {
	uint8_t quote;        /* else a list item */
	uint8_t started;      /* a line of it has been written */
	uint8_t pending;      /* item: its marker is not written yet */
	uint8_t width;        /* item: the marker's width */
	char mark[16];        /* item: "- ", "12. " */
} md_box;

typedef struct md_cell {
	size_t off, len;      /* in m->cells */
	uint32_t row, span;
} md_cell;

struct md {
	pbuf out;        /* the Markdown */
	pbuf il;         /* inline Markdown of the block (or cell) being built */
	pbuf code;       /* text of a pre or an inline code */
	pbuf pend;       /* openers not written yet: they go before the next word */
	pbuf urls;       /* link destinations of the open links */
	pbuf cells;      /* table cells' Markdown */
	pbuf tmp;
	md_cell *cell;
	size_t ncell, capcell;
	uint32_t row;    /* rows begun in the table */
	int caption;     /* the table's caption: cell index + 1, 0 none */
	md_frame *st;
	size_t nst, capst;
	md_box box[MD_MAX_BOX];
	int nbox;
	int heading;     /* level of the block being built; 0: a paragraph */
	int blank;       /* a blank line is owed before the next block */
	int flat;        /* > 0: blocks are word breaks (heading, cell, link, emphasis) */
	int pre;         /* > 0: inside pre: text goes raw to code */
	int icode;       /* inside inline code: text goes collapsed to code */
	int table;       /* inside a data table */
	int incell;
	int em[3];       /* open emphasis by asterisks (1, 2) */
	int space;       /* a space is owed before the next word */
	int brk;         /* a hard break is owed before the next word */
	int closed_punct;/* an emphasis closed after punctuation */
	int last_para;   /* the last block written was a paragraph: the box depth + 1 */
	char lang[32];   /* the pre's language */
	/* Two lists in a row take different markers, or they would merge;
	 * a part's item right after another's continues its list. */
	size_t list_end;
	int list_depth;
	char list_ch;
	int list_part;   /* the list ending at list_end is one of parts */
	size_t post_at;  /* out's length after a thread's last post began; SIZE_MAX: none yet */
	size_t max;      /* out's cap */
	int full;        /* out reached max: the rest is dropped */
	size_t good;     /* out's length at the last block boundary */
	int nblocks;
	const GumboNode *head_node, *first_head;
	const content *ct;
	content_cur cur;
	lnk *links;
};

md *
md_new(void)
{
	md *m = xcalloc(1, sizeof *m);
	pbuf *bufs[] = { &m->out, &m->il, &m->code, &m->pend, &m->urls, &m->cells, &m->tmp };
	for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
		pbuf_init(bufs[i]);
	/* ex_is_inline's table is filled by ex_init. */
	ex_result r;
	ex_init(&r);
	ex_free(&r);
	return m;
}

void
md_free(md *m)
{
	if (!m)
		return;
	pbuf *bufs[] = { &m->out, &m->il, &m->code, &m->pend, &m->urls, &m->cells, &m->tmp };
	for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
		pbuf_free(bufs[i]);
	free(m->cell);
	free(m->st);
	free(m);
}

static inline void
md_c(pbuf *b, char c)
{
	if (b->len + 2 > b->cap)
		pbuf_reserve(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

/* ---- Output lines ---- */

/* Appends s[0..n) to out unless that passes the cap; past it, nothing
 * more is written (md_render cuts back to the last block). */
static void
md_put(md *m, const char *s, size_t n)
{
	if (m->full)
		return;
	if (m->out.len + n > m->max) {
		m->full = 1;
		return;
	}
	pbuf_put(&m->out, s, n);
}

static void
md_puts(md *m, const char *s)
{
	md_put(m, s, strlen(s));
}

/* Starts a line inside the open containers: quote markers, an item's
 * marker on its first line, its indentation after. */
static void
md_line(md *m)
{
	for (int i = 0; i < m->nbox; i++) {
		md_box *b = &m->box[i];
		if (b->quote) {
			md_put(m, "> ", 2);
		} else if (b->pending) {
			md_puts(m, b->mark);
			b->pending = 0;
		} else {
			md_put(m, "                ", b->width);
		}
		b->started = 1;
	}
}

/* Before a block: the blank line owed, inside the containers already
 * begun (a quote not begun yet must not join the one before it). */
static void
md_begin(md *m)
{
	if (m->blank && m->out.len > 0) {
		char pre[MD_MAX_BOX * 12];
		size_t k = 0;
		for (int i = 0; i < m->nbox && m->box[i].started; i++) {
			if (m->box[i].quote) {
				pre[k++] = '>';
				pre[k++] = ' ';
			} else {
				memset(pre + k, ' ', m->box[i].width);
				k += m->box[i].width;
			}
		}
		while (k > 0 && pre[k - 1] == ' ')
			k--;
		pre[k++] = '\n';
		md_put(m, pre, k);
	}
	m->blank = 0;
}

/* After a block. */
static void
md_end(md *m, int para)
{
	m->blank = 1;
	m->last_para = para ? m->nbox + 1 : 0;
	m->nblocks++;
	if (!m->full)
		m->good = m->out.len;
}

/* Writes one line of a paragraph with what would make it another
 * block at a line's start escaped: # > + - = (headings, quotes, list
 * items, breaks, setext underlines) and "1." or "1)". */
static void
md_lead(md *m, const char *s, size_t n)
{
	if (n == 0)
		return;
	char c = s[0];
	if (c == '#' || c == '>' || c == '+' || c == '-' || c == '=') {
		md_put(m, "\\", 1);
	} else if (c >= '0' && c <= '9') {
		size_t k = 0;
		while (k < n && k <= MD_OL_DIGITS && s[k] >= '0' && s[k] <= '9')
			k++;
		if (k < n && k <= MD_OL_DIGITS && (s[k] == '.' || s[k] == ')')) {
			md_put(m, s, k);
			md_put(m, "\\", 1);
			s += k, n -= k;
		}
	}
	md_put(m, s, n);
}

/* Writes the paragraph or heading built in il, if any. */
static void
md_flush(md *m)
{
	m->pend.len = 0;
	m->space = m->brk = m->closed_punct = 0;
	pbuf *il = &m->il;
	if (il->len == 0) {
		m->heading = 0;
		return;
	}
	md_begin(m);
	if (m->heading) {
		if (m->nblocks == 0)
			m->first_head = m->head_node;
		static const char hashes[] = "###### ";
		md_line(m);
		md_put(m, hashes + 6 - m->heading, (size_t)m->heading + 1);
		/* A closing run of # would be taken for the optional closing
		 * sequence: escape it. */
		size_t k = il->len;
		while (k > 0 && il->p[k - 1] == '#')
			k--;
		md_put(m, il->p, k);
		if (k < il->len) {
			md_put(m, "\\", 1);
			md_put(m, il->p + k, il->len - k);
		}
		md_put(m, "\n", 1);
		md_end(m, 0);
	} else {
		const char *s = il->p, *e = il->p + il->len;
		while (s < e) {
			const char *nl = memchr(s, '\n', (size_t)(e - s));
			const char *le = nl ? nl : e;
			md_line(m);
			md_lead(m, s, (size_t)(le - s));
			md_put(m, "\n", 1);
			s = nl ? nl + 1 : e;
		}
		md_end(m, 1);
	}
	il->len = 0;
	il->p[0] = '\0';
	m->heading = 0;
}

/* ---- Inline text ---- */

/* Bytes of text that need a look: whitespace and Markdown's
 * punctuation. */
static unsigned char md_special[256];

static void
md_init_tables(void)
{
	if (md_special[' '])
		return;
	const char *s = " \t\n\r\f\\*`[]_<&|~";
	for (; *s; s++)
		md_special[(unsigned char)*s] = 1;
}

static int
md_alnum(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static int
md_punct(int c)
{
	return c > ' ' && c < 0x7f && !md_alnum(c);
}

/* Whether s[0..n), just after an '&', would read as an entity. */
static int
md_entity(const char *s, size_t n)
{
	size_t i = 0;
	if (i < n && s[i] == '#') {
		i++;
		if (i < n && (s[i] == 'x' || s[i] == 'X'))
			i++;
	}
	size_t start = i;
	while (i < n && i < MD_ENTITY_NAME && md_alnum((unsigned char)s[i]) && (unsigned char)s[i] < 0x80)
		i++;
	return i > start && i < n && s[i] == ';';
}

/* Before a word whose first byte is c: the owed hard break or space,
 * then the openers waiting for text. */
static void
md_word(md *m, int c)
{
	pbuf *il = &m->il;
	if (m->brk && il->len > 0) {
		pbuf_put(il, "\\\n", 2);
		m->space = 0;
	} else if (m->space && il->len > 0) {
		md_c(il, ' ');
		m->space = 0;
	}
	m->brk = 0;
	int last = il->len ? (unsigned char)il->p[il->len - 1] : ' ';
	/* Emphasis that closed on punctuation right before a letter would
	 * not close: a space makes it. */
	if (m->closed_punct && last == '*' && md_alnum(c))
		md_c(il, ' ');
	m->closed_punct = 0;
	if (m->pend.len) {
		/* Likewise an opener between a letter and punctuation. */
		if (m->pend.p[m->pend.len - 1] == '*' && md_alnum(last) && md_punct(c))
			md_c(il, ' ');
		pbuf_put(il, m->pend.p, m->pend.len);
		m->pend.len = 0;
	}
	m->space = 0;
}

/* Appends text s[0..n) to il, whitespace collapsed, escaped so that it
 * stays text. */
static void
md_text(md *m, const char *s, size_t n)
{
	pbuf *il = &m->il;
	size_t i = 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (pbuf_isspace(c)) {
			m->space = 1;
			i++;
			continue;
		}
		md_word(m, c);
		/* The word: plain runs copied at once. */
		while (i < n && !pbuf_isspace((unsigned char)s[i])) {
			size_t j = i;
			while (j < n && !md_special[(unsigned char)s[j]])
				j++;
			if (j > i) {
				pbuf_put(il, s + i, j - i);
				i = j;
				continue;
			}
			c = (unsigned char)s[i];
			if (pbuf_isspace(c))
				break;
			int next = i + 1 < n ? (unsigned char)s[i + 1] : 0;
			int prev = il->len ? (unsigned char)il->p[il->len - 1] : 0;
			int esc;
			switch (c) {
			case '_': esc = !(md_alnum(prev) && md_alnum(next)); break;
			case '<': esc = next == 0 || next == '/' || next == '!' || next == '?' ||
					((next | 0x20) >= 'a' && (next | 0x20) <= 'z'); break;
			case '&': esc = md_entity(s + i + 1, n - i - 1); break;
			case '|': esc = m->incell; break;
			case '~': esc = next == '~' || prev == '~'; break;
			default: esc = 1; break;
			}
			if (esc)
				md_c(il, '\\');
			md_c(il, (char)c);
			i++;
		}
	}
}

/* ---- Elements ---- */

/* Elements whose content is never Markdown: what `text` hides (a
 * <noscript> that its end tag closed, see ex_is_hidden), embedded
 * objects and form controls. */
static int
md_never(const GumboNode *n)
{
	if (ex_is_hidden(n))
		return 1;
	switch (tree_tag(n)) {
	case GUMBO_TAG_IFRAME: case GUMBO_TAG_OBJECT: case GUMBO_TAG_EMBED:
	case GUMBO_TAG_CANVAS: case GUMBO_TAG_SVG: case GUMBO_TAG_SELECT:
	case GUMBO_TAG_TEXTAREA: case GUMBO_TAG_INPUT: case GUMBO_TAG_BUTTON:
	case GUMBO_TAG_AUDIO: case GUMBO_TAG_VIDEO: case GUMBO_TAG_MAP:
	case GUMBO_TAG_DATALIST:
		return 1;
	default:
		return 0;
	}
}

/* Whether n is an element Markdown may write: tree_is_element but for
 * templates, whose content md_enter never enters. */
static int
md_is_el(const GumboNode *n)
{
	return n->type == GUMBO_NODE_ELEMENT;
}

/* Whether n has an element child that is a block. */
static int
md_block_kid(const GumboNode *n)
{
	for (const GumboNode *c = tree_kid(n, 0); c; c = tree_sibling(c))
		if (md_is_el(c) && !ex_is_inline(tree_tag(c)) && tree_tag(c) != GUMBO_TAG_BR &&
		    !md_never(c))
			return 1;
	return 0;
}

/* Whether table t holds data (GitHub's tables can say it): two cells
 * or more, and no nested table, heading, list, quote or pre, which
 * make it a layout table.  The scan stops at the first of those, so
 * nested tables scan each element once between them. */
static int
md_data_table(const GumboNode *t)
{
	int cells = 0;
	/* A template's content is not the table's (see md_is_el). */
	for (const GumboNode *n = tree_next(t, t); n;
	     n = n->type == GUMBO_NODE_TEMPLATE ? tree_after(n, t) : tree_next(n, t)) {
		if (!md_is_el(n))
			continue;
		switch (tree_tag(n)) {
		case GUMBO_TAG_TABLE: case GUMBO_TAG_PRE: case GUMBO_TAG_UL: case GUMBO_TAG_OL:
		case GUMBO_TAG_DL: case GUMBO_TAG_BLOCKQUOTE: case GUMBO_TAG_H1:
		case GUMBO_TAG_H2: case GUMBO_TAG_H3: case GUMBO_TAG_H4: case GUMBO_TAG_H5:
		case GUMBO_TAG_H6:
			return 0;
		case GUMBO_TAG_TD: case GUMBO_TAG_TH:
			cells++;
			break;
		default:
			break;
		}
	}
	return cells >= 2;
}

static md_frame *
md_push(md *m, int act)
{
	if (m->nst == m->capst) {
		m->capst = m->capst ? m->capst * 2 : 64;
		m->st = xrealloc(m->st, m->capst * sizeof *m->st);
	}
	md_frame *f = &m->st[m->nst++];
	memset(f, 0, sizeof *f);
	f->act = (uint8_t)act;
	return f;
}

/* A word break in flattened content, a paragraph's end otherwise. */
static int
md_block(md *m)
{
	if (m->flat) {
		m->space = 1;
		return A_SPACE;
	}
	md_flush(m);
	return A_BLOCK;
}

/* The language of a pre: class "language-x" or "lang-x" on it or on its
 * first element child, in lang (empty when none). */
static void
md_language(md *m, const GumboNode *pre)
{
	m->lang[0] = '\0';
	const GumboNode *n = pre;
	for (int k = 0; k < 2 && n; k++) {
		const char *cls = tree_attr(n, "class");
		const char *p = cls ? strstr(cls, "lang") : NULL;
		while (p) {
			int tok = p == cls || p[-1] == ' ';
			const char *v = !tok ? NULL :
				strncmp(p, "language-", 9) == 0 ? p + 9 :
				strncmp(p, "lang-", 5) == 0 ? p + 5 : NULL;
			if (v) {
				size_t i = 0;
				while (i + 1 < sizeof m->lang &&
				       (md_alnum((unsigned char)v[i]) && (unsigned char)v[i] < 0x80 ? 1 :
					v[i] == '-' || v[i] == '_' || v[i] == '+' || v[i] == '.' || v[i] == '#'))
					m->lang[i] = v[i], i++;
				m->lang[i] = '\0';
				return;
			}
			p = strstr(p + 4, "lang");
		}
		n = tree_kid(n, 0);
		while (n && !md_is_el(n))
			n = tree_sibling(n);
	}
}

/* Writes the pre's text as a fenced block, whitespace as it is. */
static void
md_fence(md *m)
{
	pbuf *c = &m->code;
	size_t run = 0, best = 0;
	int blank = 1;
	for (size_t i = 0; i < c->len; i++) {
		run = c->p[i] == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
		if (!pbuf_isspace((unsigned char)c->p[i]))
			blank = 0;
	}
	if (blank)
		return;
	char fence[64];
	size_t fl = best + 1 < MD_FENCE_MIN ? MD_FENCE_MIN : best + 1;
	if (fl >= sizeof fence) {
		/* A run of 63 backticks or more: a tilde fence cannot be
		 * closed by backticks, so only a tilde run would matter. */
		fl = MD_FENCE_MIN;
		memset(fence, '~', fl);
		for (size_t i = 0, r = 0; i < c->len; i++) {
			r = c->p[i] == '~' ? r + 1 : 0;
			if (r >= fl && fl + 1 < sizeof fence)
				fl = r + 1;
		}
		memset(fence, '~', fl);
	} else {
		memset(fence, '`', fl);
	}
	md_begin(m);
	md_line(m);
	md_put(m, fence, fl);
	md_puts(m, m->lang);
	md_put(m, "\n", 1);
	const char *s = c->p, *e = c->p + c->len;
	if (e > s && e[-1] == '\n')
		e--;
	while (s <= e) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		const char *le = nl ? nl : e;
		md_line(m);
		md_put(m, s, (size_t)(le - s));
		md_put(m, "\n", 1);
		s = le + 1;
	}
	md_line(m);
	md_put(m, fence, fl);
	md_put(m, "\n", 1);
	md_end(m, 0);
}

/* Writes the inline code collected in m->code as a code span. */
static void
md_code_span(md *m)
{
	pbuf *c = &m->code;
	if (c->len == 0)
		return;
	size_t run = 0, best = 0;
	for (size_t i = 0; i < c->len; i++) {
		run = c->p[i] == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	md_word(m, '`');
	pbuf *il = &m->il;
	int pad = c->p[0] == '`' || c->p[c->len - 1] == '`';
	for (size_t i = 0; i <= best; i++)
		md_c(il, '`');
	if (pad)
		md_c(il, ' ');
	if (m->incell) {
		for (size_t i = 0; i < c->len; i++) {
			if (c->p[i] == '|')
				md_c(il, '\\');
			md_c(il, c->p[i]);
		}
	} else {
		pbuf_put(il, c->p, c->len);
	}
	if (pad)
		md_c(il, ' ');
	for (size_t i = 0; i <= best; i++)
		md_c(il, '`');
}

/* Appends the destination s (resolved) to b, with what would end or
 * confuse it escaped. */
static void
md_dest(pbuf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '(' || s[i] == ')' || s[i] == '\\' || s[i] == '<' || s[i] == '>')
			md_c(b, '\\');
		md_c(b, s[i]);
	}
}

/* An image: ![alt](src) when src resolves to an http(s) URL. */
static void
md_image(md *m, const GumboNode *n)
{
	const char *src = tree_attr(n, "src"), *u;
	size_t un;
	if (!src || !lnk_resolve(m->links, src, &u, &un))
		return;
	pbuf *tmp = &m->tmp;
	pbuf_reset(tmp);
	md_dest(tmp, u, un);
	md_word(m, '!');
	pbuf_put(&m->il, "![", 2);
	const char *alt = tree_attr(n, "alt");
	if (alt) {
		/* The alt is escaped like text, inside the brackets. */
		md_text(m, alt, strlen(alt));
		m->space = 0;
	}
	pbuf_put(&m->il, "](", 2);
	pbuf_put(&m->il, tmp->p, tmp->len);
	md_c(&m->il, ')');
}

/* The list frame an <li> belongs to, or NULL. */
static md_frame *
md_list_of(md *m, const GumboNode *li)
{
	if (m->nst == 0 || !li->parent)
		return NULL;
	md_frame *f = &m->st[m->nst - 1];
	return f->act == A_LIST ? f : NULL;
}

/* Empties the inline state between cells. */
static void
md_il_clear(md *m)
{
	pbuf_reset(&m->il);
	m->pend.len = 0;
	m->space = m->brk = 0;
}

static void
md_cell_begin(md *m)
{
	md_il_clear(m);
	m->incell = 1;
	m->flat++;
}

/* Ends a cell: its Markdown goes to m->cells, in row m->row (0: the
 * caption). */
static void
md_cell_end(md *m, uint32_t span)
{
	if (m->ncell == m->capcell) {
		m->capcell = m->capcell ? m->capcell * 2 : 64;
		m->cell = xrealloc(m->cell, m->capcell * sizeof *m->cell);
	}
	md_cell *c = &m->cell[m->ncell++];
	c->off = m->cells.len;
	c->len = m->il.len;
	c->row = m->row;
	c->span = span;
	pbuf_put(&m->cells, m->il.p ? m->il.p : "", m->il.len);
	md_il_clear(m);
	m->incell = 0;
	m->flat--;
}

/* Writes the table collected: the caption as a paragraph, the first row
 * as the header (as wide as the widest row: GitHub drops cells past the
 * header's), the delimiter row, the others. */
static void
md_table_out(md *m)
{
	uint32_t ncols = 0, w = 0, row = UINT32_MAX;
	for (size_t i = 0; i < m->ncell; i++) {
		md_cell *c = &m->cell[i];
		if (c->row == 0)
			continue;
		if (c->row != row)
			w = 0, row = c->row;
		w += c->span;
		if (w > ncols)
			ncols = w;
	}
	for (size_t i = 0; i < m->ncell; i++) {
		md_cell *c = &m->cell[i];
		if (c->row == 0 && c->len) {
			md_begin(m);
			md_line(m);
			md_put(m, m->cells.p + c->off, c->len);
			md_put(m, "\n", 1);
			md_end(m, 1);
		}
	}
	if (ncols == 0)
		return;
	md_begin(m);
	row = UINT32_MAX;
	int header = 1;
	uint32_t used = 0;
	for (size_t i = 0; i <= m->ncell && !m->full; i++) {
		md_cell *c = i < m->ncell ? &m->cell[i] : NULL;
		if (c && c->row == 0)
			continue;
		if (!c || c->row != row) {
			if (row != UINT32_MAX) {
				if (header) {
					for (; used < ncols; used++)
						md_put(m, "  |", 3);
					md_put(m, "\n", 1);
					md_line(m);
					md_put(m, "|", 1);
					for (uint32_t k = 0; k < ncols && !m->full; k++)
						md_put(m, " --- |", 6);
					header = 0;
				}
				md_put(m, "\n", 1);
			}
			if (!c)
				break;
			row = c->row;
			used = 0;
			md_line(m);
			md_put(m, "|", 1);
		}
		md_put(m, " ", 1);
		md_put(m, m->cells.p + c->off, c->len);
		md_put(m, " |", 2);
		for (uint32_t k = 1; k < c->span && !m->full; k++)
			md_put(m, "  |", 3);
		used += c->span;
	}
	md_end(m, 0);
}

/* Writes a thematic break. */
static void
md_hr(md *m)
{
	md_flush(m);
	md_begin(m);
	md_line(m);
	md_put(m, "___\n", 4);
	md_end(m, 0);
}

/* Opens a list item, its marker "NUMCH " or "CH ", in a box of its own
 * (room for one is the caller's to check); returns its frame. */
static md_frame *
md_item(md *m, int ordered, long num, char ch)
{
	md_frame *f = md_push(m, A_ITEM);
	f->boxed = 1;
	f->ch = ch;
	md_box *b = &m->box[m->nbox++];
	memset(b, 0, sizeof *b);
	b->pending = 1;
	int w;
	if (ordered)
		w = snprintf(b->mark, sizeof b->mark, "%ld%c ", num, ch);
	else
		w = snprintf(b->mark, sizeof b->mark, "%c ", ch);
	b->width = (uint8_t)w;
	return f;
}

/* Enters the top of a part (content_part says which); non-zero when
 * that opened the part's item, whose frame md_leave pops.  A thread's
 * posts are sections: a thematic break between two (after one that
 * wrote something) shows where one post ends.  A listing's parts that
 * are plain containers and no list items of their own (cards, entries)
 * are the items of a bullet list, each part's blocks inside: a part
 * begun where the last one ended continues its list, one begun where
 * another list ended takes the other marker. */
static int
md_enter_part(md *m, const GumboNode *n, int part)
{
	md_flush(m);
	if (part == CONTENT_POST) {
		if (m->post_at != SIZE_MAX && m->out.len > m->post_at)
			md_hr(m);
		m->post_at = m->out.len;
		return 0;
	}
	/* Only a plain container becomes an item: a part that is a quote,
	 * a pre, a table or a link keeps its own form. */
	GumboTag t = tree_tag(n);
	if ((t != GUMBO_TAG_DIV && t != GUMBO_TAG_ARTICLE && t != GUMBO_TAG_SECTION &&
	     t != GUMBO_TAG_SPAN && t != GUMBO_TAG_LI) ||
	    (t == GUMBO_TAG_LI && md_list_of(m, n)) || m->nbox == MD_MAX_BOX)
		return 0;
	char ch = '-';
	if (m->list_end == m->out.len && m->list_depth == m->nbox)
		ch = m->list_part ? m->list_ch : m->list_ch == '-' ? '*' : '-';
	md_item(m, 0, 0, ch)->aux = 1;
	return 1;
}

/* Enters element n (non-zero: its children are walked, and a frame was
 * pushed for md_leave). */
static int
md_enter_el(md *m, const GumboNode *n, int top)
{
	GumboTag t = tree_tag(n);
	/* A root of the main content may be a <noscript> main_text reads
	 * (content.h): what it shows is written. */
	if ((md_never(n) && !(top && tree_tag(n) == GUMBO_TAG_NOSCRIPT) &&
	     !content_toggle(m->ct, n)) ||
	    n->v.element.tag_namespace == GUMBO_NAMESPACE_SVG)
		return 0;
	if (m->ct && !top && content_skipped(m->ct, &m->cur, n)) {
		if (!ex_is_inline(t))
			m->space = 1;
		return 0;
	}
	if (n->v.element.attributes.length && content_hidden(m->ct, n))
		return 0;
	if (m->pre) {
		if (t == GUMBO_TAG_BR)
			md_c(&m->code, '\n');
		md_push(m, t == GUMBO_TAG_PRE ? A_PREIN : A_NONE);
		if (t == GUMBO_TAG_PRE)
			m->pre++;
		return 1;
	}
	if (m->icode) {
		if (t == GUMBO_TAG_BR || !ex_is_inline(t))
			pbuf_break(&m->code);
		md_push(m, A_NONE);
		return 1;
	}
	/* In a data table, only cells and the caption hold text. */
	if (m->table && !m->incell) {
		switch (t) {
		case GUMBO_TAG_TD: case GUMBO_TAG_TH: case GUMBO_TAG_CAPTION: {
			md_frame *f = md_push(m, A_CELL);
			if (t == GUMBO_TAG_CAPTION) {
				f->aux = 1;
			} else {
				const char *cs = tree_attr(n, "colspan");
				long span = cs ? strtol(cs, NULL, 10) : 1;
				f->num = span < 1 ? 1 : span > MD_MAX_COLSPAN ? MD_MAX_COLSPAN : span;
			}
			md_cell_begin(m);
			return 1;
		}
		case GUMBO_TAG_TR:
			m->row++;
			md_push(m, A_ROW);
			return 1;
		default:
			md_push(m, A_NONE);
			return 1;
		}
	}
	if (m->ct && !top && !m->flat) {
		int part = content_part(m->ct, &m->cur, n);
		if (part && md_enter_part(m, n, part))
			return 1;
	}
	md_frame *f;
	switch (t) {
	case GUMBO_TAG_BR:
		if (m->flat || m->heading)
			m->space = 1;
		else
			m->brk = 1;
		return 0;
	case GUMBO_TAG_IMG:
		md_image(m, n);
		return 0;
	case GUMBO_TAG_HR:
		if (m->flat) {
			m->space = 1;
			return 0;
		}
		md_hr(m);
		return 0;
	case GUMBO_TAG_H1: case GUMBO_TAG_H2: case GUMBO_TAG_H3:
	case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6:
		if (m->flat)
			break;
		md_flush(m);
		m->heading = 1 + (int)(t - GUMBO_TAG_H1);
		m->head_node = n;
		m->flat++;
		md_push(m, A_HEAD);
		return 1;
	case GUMBO_TAG_PRE:
		if (m->flat)
			break;
		md_flush(m);
		md_language(m, n);
		pbuf_reset(&m->code);
		m->pre = 1;
		md_push(m, A_PRE);
		return 1;
	case GUMBO_TAG_CODE: case GUMBO_TAG_KBD: case GUMBO_TAG_SAMP: case GUMBO_TAG_TT:
		pbuf_reset(&m->code);
		m->icode = 1;
		md_push(m, A_CODE);
		return 1;
	case GUMBO_TAG_EM: case GUMBO_TAG_I: case GUMBO_TAG_STRONG: case GUMBO_TAG_B: {
		int k = t == GUMBO_TAG_EM || t == GUMBO_TAG_I ? 1 : 2;
		if (m->em[k] || md_block_kid(n))
			break;
		f = md_push(m, A_EM);
		f->aux = (uint8_t)k;
		f->off = m->pend.len;
		pbuf_put(&m->pend, "**", (size_t)k);
		m->em[k]++;
		m->flat++;
		return 1;
	}
	case GUMBO_TAG_A: {
		const char *href = tree_attr(n, "href"), *u;
		size_t un;
		if (!href || href[strspn(href, " \t\n\r\f")] == '#' || md_block_kid(n) ||
		    !lnk_resolve(m->links, href, &u, &un))
			break;
		f = md_push(m, A_LINK);
		f->off = m->pend.len;
		f->url = m->urls.len;
		md_dest(&m->urls, u, un);
		f->urllen = m->urls.len - f->url;
		md_c(&m->pend, '[');
		m->flat++;
		return 1;
	}
	case GUMBO_TAG_BLOCKQUOTE:
		if (m->flat)
			break;
		md_flush(m);
		f = md_push(m, A_QUOTE);
		if (m->nbox < MD_MAX_BOX) {
			md_box *b = &m->box[m->nbox++];
			memset(b, 0, sizeof *b);
			b->quote = 1;
			f->boxed = 1;
		}
		return 1;
	case GUMBO_TAG_UL: case GUMBO_TAG_OL: case GUMBO_TAG_MENU: {
		if (m->flat)
			break;
		md_flush(m);
		int ordered = t == GUMBO_TAG_OL;
		long start = 1;
		const char *s = ordered ? tree_attr(n, "start") : NULL;
		if (s) {
			start = strtol(s, NULL, 10);
			start = start < 0 ? 0 : start > MD_MAX_START ? MD_MAX_START : start;
		}
		/* A bullet list, or one from 1, may follow its item's first
		 * paragraph without a blank line: the list stays tight. */
		if (m->nbox && !m->box[m->nbox - 1].quote && m->last_para == m->nbox + 1 &&
		    (!ordered || start == 1) && m->out.len == m->good)
			m->blank = 0;
		f = md_push(m, A_LIST);
		f->ordered = ordered;
		f->num = start;
		char a = ordered ? '.' : '-', b = ordered ? ')' : '*';
		f->ch = m->list_end == m->out.len && m->list_depth == m->nbox && m->list_ch == a ? b : a;
		f->off = m->out.len;
		return 1;
	}
	case GUMBO_TAG_LI: {
		md_frame *l = md_list_of(m, n);
		if (!l || m->flat || m->nbox == MD_MAX_BOX)
			break;
		md_flush(m);
		if (m->out.len > l->off)
			m->blank = 0;
		/* Read before md_item's push, which may move the stack. */
		long num = l->num;
		int ordered = l->ordered;
		char ch = l->ch;
		if (l->num < MD_MAX_START)
			l->num++;
		md_item(m, ordered, num, ch);
		return 1;
	}
	case GUMBO_TAG_TABLE:
		if (m->flat || !md_data_table(n))
			break;
		md_flush(m);
		m->table = 1;
		m->row = 0;
		m->ncell = 0;
		pbuf_reset(&m->cells);
		md_push(m, A_TABLE);
		return 1;
	default:
		break;
	}
	md_push(m, ex_is_inline(t) ? A_NONE : md_block(m));
	return 1;
}

/* Leaves the element of the top frame. */
static void
md_leave(md *m)
{
	md_frame *f = &m->st[--m->nst];
	switch (f->act) {
	case A_BLOCK:
		md_flush(m);
		break;
	case A_SPACE:
		m->space = 1;
		break;
	case A_HEAD:
		m->flat--;
		md_flush(m);
		break;
	case A_QUOTE:
		md_flush(m);
		if (f->boxed)
			m->nbox--;
		m->blank = 1;
		break;
	case A_LIST:
		md_flush(m);
		m->blank = 1;
		m->list_end = m->out.len;
		m->list_depth = m->nbox;
		m->list_ch = f->ch;
		m->list_part = 0;
		break;
	case A_ITEM: {
		md_flush(m);
		md_box *b = &m->box[--m->nbox];
		/* An empty item was never written: its number is the next's. */
		if (b->pending && m->nst && m->st[m->nst - 1].act == A_LIST)
			m->st[m->nst - 1].num--;
		if (f->aux) {
			m->list_end = m->out.len;
			m->list_depth = m->nbox;
			m->list_ch = f->ch;
			m->list_part = 1;
		}
		break;
	}
	case A_PRE:
		m->pre = 0;
		md_fence(m);
		break;
	case A_PREIN:
		m->pre--;
		break;
	case A_CODE:
		m->icode = 0;
		md_code_span(m);
		break;
	case A_EM:
		m->em[f->aux]--;
		m->flat--;
		if (m->pend.len > f->off) {
			m->pend.len = f->off;   /* nothing inside */
		} else {
			int last = m->il.len ? (unsigned char)m->il.p[m->il.len - 1] : 0;
			pbuf_put(&m->il, "**", f->aux);
			m->closed_punct = md_punct(last);
		}
		break;
	case A_LINK:
		m->flat--;
		if (m->pend.len > f->off) {
			m->pend.len = f->off;
		} else {
			pbuf_put(&m->il, "](", 2);
			pbuf_put(&m->il, m->urls.p + f->url, f->urllen);
			md_c(&m->il, ')');
		}
		m->urls.len = f->url;
		break;
	case A_CELL:
		if (f->aux) {
			uint32_t r = m->row;
			m->row = 0;
			md_cell_end(m, 1);
			m->row = r;
		} else {
			if (m->row == 0)
				m->row = 1;   /* a cell outside any tr */
			md_cell_end(m, (uint32_t)f->num);
		}
		break;
	case A_TABLE:
		m->table = 0;
		md_table_out(m);
		m->ncell = 0;
		break;
	default:
		break;
	}
}

/* Enters node n below (or at) top; non-zero when its children are to be
 * walked (an element whose frame md_leave pops). */
static int
md_enter(md *m, const GumboNode *n, int top)
{
	switch (n->type) {
	case GUMBO_NODE_ELEMENT:
		return md_enter_el(m, n, top);
	case GUMBO_NODE_TEXT: case GUMBO_NODE_CDATA: case GUMBO_NODE_WHITESPACE: {
		const char *s = n->v.text.text;
		size_t len = strlen(s);
		if (m->pre)
			pbuf_put(&m->code, s, len);
		else if (m->icode)
			pbuf_text(&m->code, s, len);
		else if (!m->table || m->incell)
			md_text(m, s, len);
		return 0;
	}
	default:
		return 0;
	}
}

/* Walks top's subtree in document order, iteratively: the stack of open
 * elements is m->st, on the heap. */
static void
md_walk(md *m, const GumboNode *top)
{
	const GumboNode *n = top;
	for (;;) {
		if (m->full)
			return;
		int down = md_enter(m, n, n == top);
		const GumboNode *kid = down ? tree_kid(n, 0) : NULL;
		if (kid) {
			n = kid;
			continue;
		}
		for (;;) {
			if (down)
				md_leave(m);
			down = 1;
			if (n == top)
				return;
			const GumboNode *s = tree_sibling(n);
			if (s) {
				n = s;
				break;
			}
			n = n->parent;
		}
	}
}

/* The body element of out, or NULL. */
static const GumboNode *
md_body(const GumboOutput *out)
{
	const GumboNode *html = out->root;
	if (!html || html->type != GUMBO_NODE_ELEMENT)
		return NULL;
	for (const GumboNode *c = tree_kid(html, 0); c; c = tree_sibling(c))
		if (md_is_el(c) && tree_tag(c) == GUMBO_TAG_BODY)
			return c;
	return NULL;
}

/* Whether a[0..an) is b[0..bn), or its first or last part at a word's
 * edge ("Heading" in "Heading | Site"). */
static int
md_part(const char *a, size_t an, const char *b, size_t bn)
{
	if (an == 0 || an > bn)
		return 0;
	if (an == bn)
		return memcmp(a, b, an) == 0;
	if (memcmp(a, b, an) == 0 && !md_alnum((unsigned char)b[an]))
		return 1;
	return memcmp(a, b + bn - an, an) == 0 && !md_alnum((unsigned char)b[bn - an - 1]);
}

/* Whether heading h and the title t[0..tn) are the same, one being the
 * other with a site's or a section's name added. */
static int
md_same_title(md *m, const GumboNode *h, const char *t, size_t tn)
{
	pbuf *b = &m->tmp;
	pbuf_reset(b);
	ex_text(b, h);
	return md_part(b->p, b->len, t, tn) || md_part(t, tn, b->p, b->len);
}

/* Resets the per-page state. */
static void
md_reset(md *m, const md_page *pg)
{
	pbuf_reset(&m->out);
	pbuf_reset(&m->il);
	pbuf_reset(&m->pend);
	pbuf_reset(&m->urls);
	m->nst = 0;
	m->nbox = 0;
	m->heading = m->blank = m->flat = m->pre = m->icode = m->table = m->incell = 0;
	m->em[1] = m->em[2] = 0;
	m->space = m->brk = m->closed_punct = m->last_para = 0;
	m->list_end = SIZE_MAX;
	m->list_depth = 0;
	m->list_ch = 0;
	m->list_part = 0;
	m->post_at = SIZE_MAX;
	m->max = pg->max;
	m->full = 0;
	m->good = 0;
	m->nblocks = 0;
	m->head_node = m->first_head = NULL;
	m->ct = pg->ct;
	memset(&m->cur, 0, sizeof m->cur);
	m->links = pg->links;
}

void
md_render(md *m, const md_page *pg, const char **s, size_t *n)
{
	md_init_tables();
	md_reset(m, pg);
	size_t tl = 0;
	if (pg->title && pg->title_len) {
		m->heading = 1;
		md_text(m, pg->title, pg->title_len);
		md_flush(m);
		tl = m->out.len;
		m->nblocks = 0;
		m->first_head = NULL;
	}
	if (pg->ct) {
		size_t k = content_nroots(pg->ct);
		for (size_t i = 0; i < k && !m->full; i++)
			md_walk(m, content_root(pg->ct, i));
	} else {
		const GumboNode *body = md_body(pg->out);
		if (body)
			md_walk(m, body);
	}
	md_flush(m);
	if (m->full)
		m->out.len = m->good;
	if (tl && m->first_head && m->out.len > tl &&
	    md_same_title(m, m->first_head, pg->title, pg->title_len)) {
		/* The title line and the blank line after it go. */
		memmove(m->out.p, m->out.p + tl + 1, m->out.len - tl - 1);
		m->out.len -= tl + 1;
	}
	if (m->out.p)
		m->out.p[m->out.len] = '\0';
	*s = m->out.p ? m->out.p : "";
	*n = m->out.len;
}
