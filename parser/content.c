#include "content.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "consent.h"
#include "extract.h"
#include "tree.h"
#include "xalloc.h"

#define CT_NONE UINT32_MAX

/* At least the number of words in ct_strong, ct_weak and ct_pos. */
#define CT_NWORDS 80

/* The rules' thresholds, each after its step of "Main content" in
 * docs/parse.md.  Lengths are visible characters (spaces not counted)
 * unless they say bytes. */

/* Step 2: an element holding over this share of the body's text is a
 * layout wrapper, whatever its name says. */
#define CT_LAYOUT_SHARE 0.5

/* Step 3: paragraphs shorter than CT_MIN_PARA say nothing about where
 * the article is (readability's 25 with spaces).  One scores a point
 * per CT_PARA_CHARS, at most CT_PARA_POINTS of them, and gives it to
 * CT_LEVELS ancestors: all to its parent, 1/CT_GRANDPARENT_DIV to its
 * grandparent, 1/(CT_ANCESTOR_DIV * level) above (readability's
 * weights). */
#define CT_MIN_PARA 20
#define CT_PARA_CHARS 100
#define CT_PARA_POINTS 3
#define CT_LEVELS 5
#define CT_GRANDPARENT_DIV 2
#define CT_ANCESTOR_DIV 3

/* Step 1, on a thread: comments on a post are furniture when the post
 * holds 1/CT_CMT_SHARE of their text or more (ct_commented). */
#define CT_CMT_SHARE 4

/* Step 3: an ancestor's starting score by its tag, and the weight of a
 * content or furniture name. */
enum {
	CT_W_BOX = 5,        /* div, section, article, main */
	CT_W_CELL = 3,       /* pre, td, blockquote */
	CT_W_LIST = -3,      /* lists, their items, address, form */
	CT_W_HEADING = -5,   /* h1 to h6, th */
	CT_W_NAME = 25,
};

/* Step 4: the best CT_NTOP candidates are kept; when CT_ALT_MIN of the
 * others score CT_ALT_SHARE of the best and share an ancestor with it,
 * that ancestor wins.  The climb from the winner stops under
 * 1/CT_CLIMB_DIV of its score. */
#define CT_NTOP 5
#define CT_ALT_MIN 3
#define CT_ALT_SHARE 0.75f
#define CT_CLIMB_DIV 3

/* Step 4, the title: a heading and a title of CT_TITLE_LETTERS bytes of
 * letters and digits or more can name each other; the title heading is
 * one of the first CT_TITLE_HEADINGS h1 and h2.  A candidate after it
 * wins over a better one elsewhere when it scores CT_TITLE_SHARE of the
 * best. */
#define CT_TITLE_LETTERS 10
#define CT_TITLE_HEADINGS 20
#define CT_TITLE_SHARE 0.3f

/* Step 5: a sibling of the winner joins it when it scores
 * CT_SIBLING_SHARE of the winner and CT_SIBLING_MIN, or is a <p> of
 * over CT_SIBLING_PARA characters under CT_SIBLING_LINKS link density,
 * or, on a thread, a comment-named block of as many characters under
 * that density (its replies). */
#define CT_SIBLING_SHARE 0.2f
#define CT_SIBLING_MIN 10
#define CT_SIBLING_PARA 80
#define CT_SIBLING_LINKS 0.25f

/* Step 6: a block with over CT_MENU_SHARE of its text in links is a
 * menu; a div, section or form with under CT_CLEAN_COMMAS commas, no
 * content name and over CT_CLEAN_LINKS of link text is a box of
 * teasers.  A figure with CT_FIGURE_TEXT characters or more is a slide
 * of a gallery, not an image with its caption and credit. */
#define CT_MENU_SHARE 0.5
#define CT_CLEAN_COMMAS 10
#define CT_CLEAN_LINKS 0.2f
#define CT_FIGURE_TEXT 100

/* On a thread or a page saying nothing of itself, a box of
 * CT_CLEAN_STOPS sentences or more is not cleaned so: it holds replies
 * or cards, with their links.  Nor, on a thread, is a box holding a
 * post's text by schema.org (CT_HASPOST), however short the reply. */
#define CT_CLEAN_STOPS 3

/* ... and a block holding CT_CUTS or more texts of CT_CUT_MIN
 * characters or more cut short ("A notice dated Decembe..."), as many
 * links, and a third or more of its sentence ends such cuts, is a box
 * of teasers: excerpts of other pages ("Latest news" under a story),
 * unless the page is a listing, whose entries they are. */
#define CT_CUTS 3
#define CT_CUT_MIN 40

/* Step 7: a block of prose has under CT_PROSE_LINKS of link text and
 * CT_PROSE characters (about 95 with spaces, near jusText's 70 to 200
 * for a good block), or CT_SENTENCE and a sentence's end (a short
 * closing line). */
#define CT_PROSE_LINKS (1.0f / 3)
#define CT_PROSE 80
#define CT_SENTENCE 30

/* Step 8: a first attempt shorter than CT_ENOUGH bytes (readability's
 * 500 characters) is tried again without class and id names; main
 * content shorter than CT_MIN_MAIN bytes is taken for a page that is
 * not an article. */
#define CT_ENOUGH 500
#define CT_MIN_MAIN 200

/* The hidden element read as shown, when it holds more text than the
 * page shows (ct_reveal), holds CT_REVEAL_MIN visible characters or
 * more: a hidden sign-up box or a cookie notice holds less. */
#define CT_REVEAL_MIN 500

/* Pages of parts: a block that is one of CT_REP_MIN alike siblings or
 * more (itself or an ancestor up to CT_REP_LEVELS - 1 up), which hold
 * CT_REP_SHARE of their parent's text, is one post or card of many. */
#define CT_REP_MIN 3
#define CT_REP_LEVELS 3
#define CT_REP_SHARE 0.5

/* A child holding CT_WRAP_SHARE of its parent's text is a wrapper
 * (ct_inner_run), looked through CT_WRAP_LEVELS deep at most. */
#define CT_WRAP_SHARE 0.8
#define CT_WRAP_LEVELS 4

/* On a page saying nothing of itself the siblings must be sections: a
 * heading among the first CT_HEAD_LOOK elements of each. */
#define CT_HEAD_LOOK 8

/* Where no schema.org type says the page's kind, a grid of cards is
 * content when most of its first CT_PRICE_LOOK cards show a price: a
 * shop's (ct_priced_only). */
#define CT_PRICE_LOOK 8

/* Pages of parts: on a page of parts or of no said kind, rules that
 * keep under CT_BODY_SHARE of the body's text without furniture and
 * link-dense blocks kept one part: the latter is the content. */
#define CT_BODY_SHARE 0.5

/* The same on a page that says it is an article or a manual: its rules
 * kept one teaser of a listing when they kept under CT_ARTICLE_SHARE;
 * an article's own text is most of what its page shows. */
#define CT_ARTICLE_SHARE 0.2

/* The same on a page whose kind no schema.org type says (its og:type,
 * an <article> element, its code or its URL do): a CMS's default
 * og:type article sits on its service pages too. */
#define CT_UNTYPED_SHARE 0.3

/* Pages of parts, the body's text: a block of links holding
 * CT_CARD_LINK visible characters or more a link is a list of cards (a
 * title and a blurb in each link), kept; a menu's links hold a word or
 * two. */
#define CT_CARD_LINK 20

/* Step 6: a quote CT_QUOTE_SHARE of whose pieces of CT_QUOTE_PIECE
 * bytes the text already holds repeats an earlier post.  At most
 * CT_QUOTE_PIECES pieces of a quote, spread over it, CT_QUOTE_MAX
 * quotes and as many blocks (CT_REPEAT_MIN) a text are looked for:
 * each look reads the text so far, and a hostile page holds thousands
 * of them. */
#define CT_QUOTE_PIECE 32
#define CT_QUOTE_SHARE 0.5
#define CT_QUOTE_PIECES 8
#define CT_QUOTE_MAX 64

/* A block of text of CT_REPEAT_MIN characters or more the text already
 * holds is shown twice; a shorter one is said twice ("+1", "Thanks!",
 * "Read more"). */
#define CT_REPEAT_MIN 128

/* Step 2: a heading of CT_OTHER_HEADING visible characters or fewer,
 * and CT_OTHER_ELEMENTS elements, can title a box of other pages ("You
 * may also like"), the box CT_OTHER_LEVELS up from it at most. */
#define CT_OTHER_HEADING 60
#define CT_OTHER_ELEMENTS 16
#define CT_OTHER_LEVELS 8

/* Step 2: a label of CT_KICKER visible characters or fewer may sit over
 * such a heading in its box (a section's kicker: "SEO Checker" over
 * "Frequently asked questions"). */
#define CT_KICKER 30

/* Step 2, on a thread: a definition of CT_FACT visible characters or
 * fewer is a poster's fact ("Joined" "Jun 29, 2016"), one of a post's
 * prose longer (ct_facts). */
#define CT_FACT 40

/* Step 2: CT_TICK children or more showing the same phrase of
 * CT_TICK_TEXT visible characters or fewer are a ticker (ct_ticker). */
#define CT_TICK 8
#define CT_TICK_TEXT 60

/* Step 2: at most CT_PANELS ids that buttons' aria-controls name, and
 * as many collapsed panels, are read a page (ct_panels). */
#define CT_PANELS 64

/* Per-element flags. */
enum {
	CT_HIDE = 1 << 0,      /* hidden: attribute, aria-hidden, display:none */
	CT_BOILTAG = 1 << 1,   /* nav, footer, aside, ... or a role saying so */
	CT_BOILCLS = 1 << 2,   /* class or id names boilerplate */
	CT_INBOIL = 1 << 3,    /* some ancestor is hidden or boilerplate */
	CT_HINT = 1 << 4,      /* articleBody, article, role=article */
	CT_BLOCKKID = 1 << 5,  /* has a child that is not inline */
	CT_SCORED = 1 << 6,    /* a candidate: score initialized */
	CT_POS = 1 << 7,       /* class or id names content */
	CT_HASHINT = 1 << 8,   /* a descendant has CT_HINT or CT_MAIN */
	CT_MAIN = 1 << 9,      /* main, role=main */
	CT_LEAFKID = 1 << 10,  /* has a child that starts a block of text */
	CT_DROP = 1 << 11,     /* a block trimmed from the content's edges */
	CT_NAMEBOIL = 1 << 12, /* the name's own verdicts, which ct_mark */
	CT_NAMEPOS = 1 << 13,  /* turns into CT_BOILCLS and CT_POS */
	CT_INPART = 1 << 14,   /* inside one of a run of alike siblings (ct_parts) */
	CT_FORMKID = 1 << 15,  /* is or holds a form field: input (not a hidden
				* one), select, textarea */
	CT_CMT = 1 << 16,      /* on a thread, named a comment (ct_thread) */
	CT_INPOST = 1 << 17,   /* on a thread, is or is inside a post by schema.org */
	CT_POSTTEXT = 1 << 18, /* on a thread, itemprop=text: a post's text */
	CT_HASPOST = 1 << 19,  /* is or holds a post's text (CT_POSTTEXT in a post) */
	CT_BUTTONKID = 1 << 20,/* is or holds a <button> */
	CT_INTAG = 1 << 21,    /* inside furniture by tag or role (CT_BOILTAG) */
	CT_INQA = 1 << 22,     /* on a thread, is or is inside a schema.org
				* Question or Answer */
	CT_QACMT = 1 << 23,    /* on a thread, a schema.org Comment (ct_flags);
				* inside a CT_INQA, furniture (ct_collect) */
	CT_PRICED = 1 << 24,   /* inside a grid of priced cards (ct_grid) */
	CT_NAMECAP = 1 << 25,  /* CT_NAMEBOIL by the caption word alone */
};

typedef struct ct_el {
	const GumboNode *n;
	uint32_t parent, end;  /* end: index past the last descendant */
	uint32_t text;         /* visible characters (not spaces) in the subtree */
	uint32_t pre;          /* visible characters before it in the document */
	uint32_t link;         /* of them, inside <a> */
	uint32_t links;        /* <a href> elements in the subtree */
	uint32_t commas;
	uint32_t stops;        /* sentence ends: . ! ? and their kin, then space */
	uint32_t cuts;         /* texts cut short (CT_CUTS) */
	uint32_t bytes;        /* the most bytes the subtree's text can write: its
				* non-space bytes and a space after each word */
	uint32_t flags;
	float score;
} ct_el;

struct content {
	ct_el *el;
	uint32_t nel, cap;
	uint32_t *cm;          /* ct_comments: text in comment-named elements */
	uint32_t body;    /* <body>; the <noscript> read instead (ct_noscript) */
	int ns;           /* <noscript> shows its content (ct_noscript) */
	int shown;        /* hidden attributes hide nothing (ct_unhide) */
	int kind;         /* what the page's kind says: CONTENT_* bits */
	uint32_t nstext;  /* visible characters inside the body's <noscript>s */
	uint32_t titleh;  /* the heading that names the page (ct_title), or CT_NONE */
	uint32_t faq;     /* the page's box of questions (ct_heading_boxes), or CT_NONE */
	uint32_t start;   /* ct_text leaves out what ends before this element */
	pbuf first;   /* the first attempt's text, while the second runs */
	pbuf tbuf, obuf;  /* the <title>'s and og:title's letters (ct_letters) */
	pbuf hbuf;        /* a heading's letters; a block's text */
	/* The class-name words by first byte: those starting with byte b
	 * are word[wstart[b]] .. word[wstart[b + 1] - 1]. */
	uint16_t wstart[257];
	struct ct_word { const char *w; size_t len; unsigned list; } word[CT_NWORDS];
	uint32_t *blk;   /* the content's blocks of text, in document order */
	uint32_t nblk, capblk;
	/* parse --markdown: what each attempt took (see "The choice, for
	 * other writers" below); tr_cur is the attempt running, tr_kept
	 * the one whose text content_main returned; parts: the tops of
	 * the parts ct_repeat or ct_inner_parts found. */
	struct ct_trace {
		uint32_t *roots, *skips, *parts;
		uint32_t nroots, nskips, nparts, caproots, capskips, capparts;
		int feed;  /* step 4 took the text under the title heading
			    * over a better candidate (ct_best) */
		int faq;   /* the content chosen is in the page's box of
			    * questions (c->faq) */
	} tr[2];
	int tr_cur, tr_kept;
	/* Collapsed panels (ct_panels), shown, and the buttons opening
	 * them (content_toggle). */
	const GumboNode *panels[CT_PANELS], *toggles[CT_PANELS];
	unsigned npanels, ntoggles;
	int notrace;      /* ct_text writes without noting its choice */
	unsigned quotes, repeats;  /* quotes and blocks looked for in the text being written */
};

static void ct_note_root(content *c, uint32_t i);
static void ct_note_skip(content *c, uint32_t i);
static void ct_note_part(content *c, uint32_t i);
static void ct_trace_start(content *c, int attempt);
static void ct_unhide(content *c, pbuf *b);
static uint32_t ct_hidden_text(const content *c, uint32_t *big);
static int ct_tabular(GumboTag t);
static const pbuf *ct_block_text(content *c, uint32_t i);

/* Words in a class or id that name page furniture rather than content:
 * the well-known signals of readability and its descendants.  The
 * strong ones hold even beside a content word ("comments-main"); the
 * weak ones yield to one, as readability's unlikely candidates do. */
static const char *const ct_strong[] = {
	"cookie", "consent", "gdpr", "share", "sharing", "related",
	"breadcrumb",
	"disqus", "outbrain", "taboola",
	"skip-link", "dateline", "tags",
	"-ad-", "signature",
};

/* Strong words too, except on a paragraph: they name a part of the
 * page's layout, which holds paragraphs but is none ("contextmenu
 * body", a script's class on every paragraph of an article). */
static const char *const ct_layout[] = {
	"sidebar", "footer", "navbar", "navigation", "menu", "popup", "modal",
	"pagination", "pager",
};

/* Strong words too, except on a thread, whose posts are its content:
 * "comment" in English, German, Spanish and Portuguese, Polish. */
static const char *const ct_thread[] = {
	"comment", "kommentar", "comentario", "komentarz",
};

/* Strong words too on a product's page, whose customers' reviews are
 * not its description. */
static const char *const ct_product[] = {
	"review",
};

/* Weak words too, except on a listing or a collection, where a
 * card's caption is the item's name, price and blurb. */
static const char *const ct_caption[] = {
	"caption",
};

/* Strong words too, except on a listing or a collection, where a
 * card's author line says whose the item is (a paper's, a book's). */
static const char *const ct_byline[] = {
	"byline", "author",
};

/* Strong words too, except on a thread, where a post's meta line is
 * its author's name and its date, which the thread keeps with it. */
static const char *const ct_meta[] = {
	"-meta", "meta-",
};

static const char *const ct_weak[] = {
	"social", "recommend", "newsletter", "subscri", "banner", "promo",
	"sponsor", "advert", "masthead", "tagcloud", "shoutbox",
	"login", "signup", "toolbar", "rating", "credit", "copyright",
	"disclaimer", "disclosure",
};

static const char *const ct_pos[] = {
	"article", "content", "entry", "main", "post", "text", "story", "body",
	"blog", "column", "hero",
};

/* The lists, as bits. */
enum {
	CT_WSTRONG = 1, CT_WWEAK = 2, CT_WPOS = 4, CT_WTHREAD = 8, CT_WPRODUCT = 16,
	CT_WCAPTION = 32, CT_WLAYOUT = 64, CT_WBYLINE = 128, CT_WMETA = 256,
};

static const struct {
	const char *const *w;
	size_t n;
} ct_lists[] = {
	{ ct_strong, sizeof ct_strong / sizeof ct_strong[0] },
	{ ct_weak, sizeof ct_weak / sizeof ct_weak[0] },
	{ ct_pos, sizeof ct_pos / sizeof ct_pos[0] },
	{ ct_thread, sizeof ct_thread / sizeof ct_thread[0] },
	{ ct_product, sizeof ct_product / sizeof ct_product[0] },
	{ ct_caption, sizeof ct_caption / sizeof ct_caption[0] },
	{ ct_layout, sizeof ct_layout / sizeof ct_layout[0] },
	{ ct_byline, sizeof ct_byline / sizeof ct_byline[0] },
	{ ct_meta, sizeof ct_meta / sizeof ct_meta[0] },
};

/* The CT_W* bits of the lists with a word in s.  One pass over s: only
 * where a word of some list starts with the byte are words compared
 * (class names are matched on every element, so this is parse's hot
 * path under --main). */
static unsigned
ct_scan(const content *c, const char *s)
{
	unsigned found = 0;
	for (; *s; s++) {
		unsigned char b = (unsigned char)*s;
		for (unsigned k = c->wstart[b]; k < c->wstart[b + 1]; k++) {
			const struct ct_word *w = &c->word[k];
			if (found & w->list)
				continue;
			/* The first byte is b; s's NUL differs from any of w's
			 * bytes, so the loop stops at s's end. */
			size_t i = 1;
			while (i < w->len && s[i] == w->w[i])
				i++;
			if (i == w->len)
				found |= w->list;
		}
	}
	return found;
}

content *
content_new(void)
{
	content *c = xcalloc(1, sizeof(content));
	pbuf_init(&c->first);
	pbuf_init(&c->tbuf);
	pbuf_init(&c->obuf);
	pbuf_init(&c->hbuf);
	/* A counting sort of the words by first byte. */
	size_t nw = 0;
	for (unsigned l = 0; l < sizeof ct_lists / sizeof ct_lists[0]; l++)
		for (size_t k = 0; k < ct_lists[l].n; k++)
			c->wstart[(unsigned char)ct_lists[l].w[k][0] + 1]++, nw++;
	if (nw > CT_NWORDS)
		abort();   /* CT_NWORDS is too small: a programming error */
	for (int b = 0; b < 256; b++)
		c->wstart[b + 1] = (uint16_t)(c->wstart[b + 1] + c->wstart[b]);
	uint16_t next[256];
	memcpy(next, c->wstart, sizeof next);
	for (unsigned l = 0; l < sizeof ct_lists / sizeof ct_lists[0]; l++)
		for (size_t k = 0; k < ct_lists[l].n; k++) {
			const char *w = ct_lists[l].w[k];
			c->word[next[(unsigned char)w[0]]++] = (struct ct_word){ w, strlen(w), 1u << l };
		}
	return c;
}

void
content_free(content *c)
{
	if (!c)
		return;
	free(c->el);
	free(c->cm);
	free(c->blk);
	pbuf_free(&c->first);
	pbuf_free(&c->tbuf);
	pbuf_free(&c->obuf);
	pbuf_free(&c->hbuf);
	for (int k = 0; k < 2; k++) {
		free(c->tr[k].roots);
		free(c->tr[k].skips);
		free(c->tr[k].parts);
	}
	free(c);
}

/* An element's class and id, lowercased, in buf (cap bytes).  A token with
 * a ':' or a '[' is a utility class's variant or value
 * ("lg:has-[>[data-slot=banner]]:pt-0"): it says how the element looks
 * under a condition, not what it is, and is left out. */
static void
ct_classid(const char *cls, const char *id, char *buf, size_t cap)
{
	size_t k = 0;
	for (int j = 0; j < 2; j++) {
		const char *s = j ? id : cls;
		while (s && *s && k + 2 < cap) {
			size_t len = strcspn(s, " \t\n\f\r");
			if (len && !memchr(s, ':', len) && !memchr(s, '[', len)) {
				for (size_t i = 0; i < len && k + 2 < cap; i++)
					buf[k++] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
				buf[k++] = ' ';
			}
			s += len;
			s += strspn(s, " \t\n\f\r");
		}
	}
	buf[k] = '\0';
}

/* Whether style hides the element. */
static int
ct_style_hidden(const char *style)
{
	char buf[128];
	size_t k = 0;
	for (const char *s = style; *s && k + 1 < sizeof buf; s++)
		if (!pbuf_isspace((unsigned char)*s))
			buf[k++] = (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
	buf[k] = '\0';
	return strstr(buf, "display:none") || strstr(buf, "visibility:hidden");
}

/* What attribute a says of its element's visibility: 1 it hides it
 * (hidden, aria-hidden, display:none or visibility:hidden in style), -1
 * it never is hidden (a tab's panel is content a click shows), else 0. */
static int
ct_attr_hides(const GumboAttribute *a)
{
	const char *k = a->name;
	if ((k[0] == 'h' && strcmp(k, "hidden") == 0) ||
	    (k[0] == 'a' && strcmp(k, "aria-hidden") == 0 && strcasecmp(a->value, "true") == 0) ||
	    (k[0] == 's' && strcmp(k, "style") == 0 && ct_style_hidden(a->value)))
		return 1;
	if (k[0] == 'r' && strcmp(k, "role") == 0 && strcasecmp(a->value, "tabpanel") == 0)
		return -1;
	return 0;
}

/* The CT_* flags itemtype v gives an element of a thread: CT_INPOST for
 * a post (a schema.org Comment, DiscussionForumPosting, Question or
 * Answer), with CT_QACMT for a Comment and CT_INQA for a Question or an
 * Answer; 0 for any other type. */
static uint32_t
ct_post_type(const char *v)
{
	static const struct {
		const char *type;
		uint32_t flags;
	} post[] = {
		{ "/Comment", CT_INPOST | CT_QACMT }, { "/DiscussionForumPosting", CT_INPOST },
		{ "/Question", CT_INPOST | CT_INQA }, { "/Answer", CT_INPOST | CT_INQA },
	};
	size_t n = strlen(v);
	for (size_t k = 0; k < sizeof post / sizeof post[0]; k++) {
		size_t m = strlen(post[k].type);
		if (n >= m && strcasecmp(v + n - m, post[k].type) == 0)
			return post[k].flags;
	}
	return 0;
}

/* Whether class value v hides its element but from screen readers:
 * the CSS frameworks' "sr-only" and "visually-hidden" (Etsy's
 * "screen-reader-only"), labels a person does not see ("Regular
 * price" beside a price, "Number of reviews:").  A library's prefix
 * ("tw-sr-only", Bulma's "is-sr-only") or a BEM modifier (Shopify's
 * "visually-hidden--inline") names it too; a token showing it again
 * at some width (Tailwind's "md:not-sr-only") does not hide.
 * WordPress's "screen-reader-text" is left alone: WooCommerce says a
 * card's prices in it. */
static int
ct_sr_only(const char *v)
{
	static const char *const w[] = {
		"sr-only", "visually-hidden", "visuallyhidden", "screen-reader-only",
	};
	/* Every element's class comes here: most say neither word. */
	if (!strstr(v, "-only") && !strstr(v, "hidden"))
		return 0;
	int hide = 0;
	while (*v) {
		v += strspn(v, " \t\n\f\r");
		size_t n = strcspn(v, " \t\n\f\r");
		if (n >= 11 && memmem(v, n, "not-sr-only", 11))
			return 0;
		/* The token's base, before a BEM modifier, is the word or
		 * ends with it after a prefix's "-" or "_". */
		const char *mod = memmem(v, n, "--", 2);
		size_t b = mod ? (size_t)(mod - v) : n;
		for (size_t i = 0; i < sizeof w / sizeof w[0] && !hide; i++) {
			size_t k = strlen(w[i]);
			hide = b >= k && strncmp(v + b - k, w[i], k) == 0 &&
			       (b == k || v[b - k - 1] == '-' || v[b - k - 1] == '_');
		}
		v += n;
	}
	return hide;
}

/* The flags n's own tag and attributes give; *ctl: the ids its
 * aria-controls names when it is a disclosure's button (a button, a
 * link or role=button: pages use all three over an accordion's
 * answers, aria-expanded or not).  One pass over the attributes: this
 * runs for every element of the page. */
static uint32_t
ct_flags(const content *c, const GumboNode *n, const char **ctl)
{
	GumboTag t = tree_tag(n);
	uint32_t f = 0;
	switch (t) {
	case GUMBO_TAG_NAV: case GUMBO_TAG_FOOTER: case GUMBO_TAG_ASIDE:
	case GUMBO_TAG_BUTTON: case GUMBO_TAG_SELECT:
	case GUMBO_TAG_TEXTAREA: case GUMBO_TAG_INPUT: case GUMBO_TAG_IFRAME:
	case GUMBO_TAG_MENU:
		f |= CT_BOILTAG;
		break;
	case GUMBO_TAG_ARTICLE:
		f |= CT_HINT;
		break;
	case GUMBO_TAG_MAIN:
		f |= CT_MAIN;
		break;
	default:
		break;
	}
	const GumboVector *attrs = &n->v.element.attributes;
	if (attrs->length == 0)
		return f;
	const char *cls = NULL, *id = NULL, *v = NULL, *prop = NULL, *controls = NULL;
	int hides = 0;
	for (unsigned i = 0; i < attrs->length; i++) {
		const GumboAttribute *a = attrs->data[i];
		const char *k = a->name;
		/* A tab's panel is never hidden, whichever attribute comes
		 * first. */
		int h = ct_attr_hides(a);
		hides = hides < 0 ? hides : h ? h : hides;
		if (strcmp(k, "class") == 0)
			cls = a->value;
		else if (strcmp(k, "id") == 0)
			id = a->value;
		else if (strcmp(k, "role") == 0)
			v = a->value;
		else if (strcmp(k, "itemprop") == 0)
			prop = a->value;
		else if (strcmp(k, "aria-controls") == 0)
			controls = a->value;
		else if (strcmp(k, "itemtype") == 0 && (c->kind & CONTENT_THREAD))
			f |= ct_post_type(a->value);
		else if (strcmp(k, "aria-roledescription") == 0 &&
			 strcasecmp(a->value, "carousel") == 0 && (c->kind & CONTENT_PRODUCT))
			f |= CT_BOILTAG;
	}
	if (controls && (t == GUMBO_TAG_BUTTON || t == GUMBO_TAG_A ||
			 (v && strcasecmp(v, "button") == 0)))
		*ctl = controls;
	if (hides > 0)
		f |= CT_HIDE;
	if (cls && ct_sr_only(cls))
		f |= CT_HIDE;
	if (v) {
		if (strcasecmp(v, "main") == 0)
			f |= CT_MAIN;
		else if (strcasecmp(v, "article") == 0)
			f |= CT_HINT;
		else if (strcasecmp(v, "navigation") == 0 || strcasecmp(v, "complementary") == 0 ||
			 strcasecmp(v, "contentinfo") == 0 || strcasecmp(v, "banner") == 0 ||
			 strcasecmp(v, "dialog") == 0 || strcasecmp(v, "alertdialog") == 0 ||
			 strcasecmp(v, "menu") == 0 || strcasecmp(v, "menubar") == 0 ||
			 strcasecmp(v, "search") == 0)
			f |= CT_BOILTAG;
	}
	if (prop && strcasestr(prop, "articlebody"))
		f |= CT_HINT;
	if (prop && strcasecmp(prop, "text") == 0 && (c->kind & CONTENT_THREAD))
		f |= CT_POSTTEXT;
	char buf[256];
	ct_classid(cls, id, buf, sizeof buf);
	/* The article's own element is never boilerplate by name: its
	 * classes list its categories and tags ("category-social-media"). */
	if (buf[0] && !(f & (CT_HINT | CT_MAIN)) && t != GUMBO_TAG_BODY && t != GUMBO_TAG_HTML) {
		unsigned w = ct_scan(c, buf);
		if ((w & CT_WTHREAD) && (c->kind & CONTENT_THREAD))
			w |= CT_WPOS, f |= CT_CMT;
		else if (w & CT_WTHREAD)
			w |= CT_WSTRONG;
		if ((w & CT_WPRODUCT) && (c->kind & CONTENT_PRODUCT))
			w |= CT_WSTRONG;
		unsigned weak0 = w & CT_WWEAK;
		if ((w & CT_WCAPTION) && !(c->kind & CONTENT_ITEMS))
			w |= CT_WWEAK;
		if ((w & CT_WLAYOUT) && t != GUMBO_TAG_P)
			w |= CT_WSTRONG;
		if ((w & CT_WBYLINE) && !(c->kind & CONTENT_ITEMS))
			w |= CT_WSTRONG;
		if ((w & CT_WMETA) && !(c->kind & CONTENT_THREAD))
			w |= CT_WSTRONG;
		int pos = (w & CT_WPOS) != 0;
		if ((w & CT_WSTRONG) || (!pos && (w & CT_WWEAK)))
			f |= CT_NAMEBOIL;
		else if (pos)
			f |= CT_NAMEPOS;
		if ((f & CT_NAMEBOIL) && (w & CT_WCAPTION) && !(w & CT_WSTRONG) && !weak0)
			f |= CT_NAMECAP;  /* a card's caption, on a priced grid */
	}
	return f;
}

/* Whether element n hides its content from main_text: as in `text`,
 * except a <noscript> when the page is read as a browser without
 * scripts shows it (ct_noscript). */
static int
ct_hides(const content *c, const GumboNode *n)
{
	return ex_is_hidden(n) && !(c->ns && tree_tag(n) == GUMBO_TAG_NOSCRIPT);
}

/* The visible characters of s[0..n): UTF-8 lead bytes, not spaces. */
static uint32_t
ct_visible(const char *s, size_t n)
{
	uint32_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += (s[i] & 0xC0) != 0x80 && !pbuf_isspace((unsigned char)s[i]);
	return k;
}

/* Whether text u[0..n) ends with "..." or "\u2026" right after a letter
 * or a digit, spaces after it aside: cut short, not a sentence ended
 * with a pause ("and then... "). */
static int
ct_cut(const unsigned char *u, size_t n)
{
	while (n && pbuf_isspace(u[n - 1]))
		n--;
	if (n < 4 || (memcmp(u + n - 3, "...", 3) != 0 && memcmp(u + n - 3, "\xe2\x80\xa6", 3) != 0))
		return 0;
	return isalnum(u[n - 4]) || u[n - 4] >= 0x80;
}

/* ct_count's byte classes, a table as it reads every byte of a page's
 * text: whitespace, UTF-8 continuation bytes, commas, sentence ends,
 * and the lead bytes of the other scripts' commas and stops. */
enum { CC_CHAR, CC_SPACE, CC_TAIL, CC_COMMA, CC_STOP, CC_LEAD };
static const unsigned char ct_class[256] = {
	[' '] = CC_SPACE, ['\t'] = CC_SPACE, ['\n'] = CC_SPACE, ['\r'] = CC_SPACE, ['\f'] = CC_SPACE,
	[','] = CC_COMMA, ['.'] = CC_STOP, ['!'] = CC_STOP, ['?'] = CC_STOP,
	[0x80 ... 0xBF] = CC_TAIL,
	[0xD8] = CC_LEAD, [0xE0] = CC_LEAD, [0xE3] = CC_LEAD, [0xEF] = CC_LEAD,
};

/* Counts s[0..n)'s visible characters (UTF-8 lead bytes, whitespace
 * excluded), the bytes its text can write, commas (ASCII, Arabic,
 * full-width), sentence ends and a cut (ct_cut) into e. */
static void
ct_count(ct_el *e, const char *s, size_t n, int inlink)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t k = 0, commas = 0, stops = 0, bytes = 0;
	int space = 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = u[i];
		unsigned cl = ct_class[ch];
		if (cl == CC_SPACE) {
			space = 1;
			continue;
		}
		bytes += 1 + space;
		space = 0;
		if (cl == CC_TAIL)
			continue;
		k++;
		if (cl == CC_CHAR)
			continue;
		if (cl == CC_COMMA) {
			commas++;
			continue;
		}
		if (cl == CC_STOP) {
			/* A full stop, question or exclamation mark ends a
			 * sentence when a space, a quote or the end of the text
			 * follows (not a date's "12.04.2020"). */
			stops += i + 1 == n || pbuf_isspace(u[i + 1]) || u[i + 1] == '"' ||
				 u[i + 1] == 0xE2;
			continue;
		}
		/* Arabic comma and question mark; full-width comma, full
		 * stop... (U+FF0C, U+FF01, U+FF1F); ideographic full stop
		 * (U+3002); the danda (U+0964). */
		unsigned b1 = i + 1 < n ? u[i + 1] : 0, b2 = i + 2 < n ? u[i + 2] : 0;
		if (ch == 0xD8)
			commas += b1 == 0x8C, stops += b1 == 0x9F;
		else if (ch == 0xEF && b1 == 0xBC)
			commas += b2 == 0x8C, stops += b2 == 0x81 || b2 == 0x9F;
		else if (ch == 0xE3)
			stops += b1 == 0x80 && b2 == 0x82;
		else if (ch == 0xE0)
			stops += b1 == 0xA5 && b2 == 0xA4;
	}
	e->text += k;
	e->bytes += bytes;
	e->commas += commas;
	e->stops += stops;
	e->cuts += k >= CT_CUT_MIN && ct_cut(u, n);
	if (inlink)
		e->link += k;
}

/* An id a disclosure's button names, and the button (ct_collect). */
typedef struct ct_control {
	const char *id;
	size_t len;
	uint32_t button;
} ct_control;

/* Adds the ids of aria-controls value v, of button element b, to
 * ctl[*n] while there is room. */
static void
ct_controls(ct_control *ctl, unsigned *n, const char *v, uint32_t b)
{
	while (*v && *n < CT_PANELS) {
		v += strspn(v, " \t\n\f\r");
		size_t len = strcspn(v, " \t\n\f\r");
		if (len)
			ctl[(*n)++] = (ct_control){ v, len, b };
		v += len;
	}
}

/* The outermost element that hides element i when it is collapsed:
 * among i and its ancestors CT_LEVELS up at most holding no more text
 * than i (a collapse's wrapper: a UI kit animating the panel's height
 * hides a <div> around it), the outermost hidden one; CT_NONE when none
 * is. */
static uint32_t
ct_collapsed(const content *c, uint32_t i)
{
	uint32_t h = CT_NONE;
	for (uint32_t a = i, up = 0; a != CT_NONE && up <= CT_LEVELS && c->el[a].text == c->el[i].text;
	     up++, a = c->el[a].parent)
		if (c->el[a].flags & CT_HIDE)
			h = a;
	return h;
}

/* A hidden element that a disclosure's button names (aria-controls)
 * is a collapsed panel (an accordion's answer), content a click shows,
 * as a tab's panel is: it is shown, here and to content_hidden; the
 * button says what the panel holds (an FAQ's question): it is no form
 * control (content_toggle).  A panel mostly of links is a menu's
 * dropdown, one holding a form field a search box or a sign-in: those
 * stay hidden. */
static void
ct_panels(content *c, const ct_control *ctl, unsigned nctl)
{
	for (uint32_t i = 0; nctl && i < c->nel && c->npanels < CT_PANELS; i++) {
		ct_el *e = &c->el[i];
		const char *id;
		uint32_t h = ct_collapsed(c, i);
		if (h == CT_NONE || (e->flags & CT_FORMKID) ||
		    e->link > CT_MENU_SHARE * e->text || !(id = tree_attr(e->n, "id")) || !*id)
			continue;
		size_t n = strlen(id);
		for (unsigned k = 0; k < nctl; k++)
			if (ctl[k].len == n && memcmp(ctl[k].id, id, n) == 0) {
				/* The panel and each wrapper hiding it. */
				for (uint32_t a = i;; a = c->el[a].parent) {
					if ((c->el[a].flags & CT_HIDE) && c->npanels < CT_PANELS) {
						c->el[a].flags &= ~(uint32_t)CT_HIDE;
						c->panels[c->npanels++] = c->el[a].n;
					}
					if (a == h)
						break;
				}
				ct_el *b = &c->el[ctl[k].button];
				if (c->ntoggles < CT_PANELS) {
					b->flags &= ~(uint32_t)CT_BOILTAG;
					c->toggles[c->ntoggles++] = b->n;
				}
				break;
			}
	}
}

/* A hidden element holding more text than the rest of the page shows,
 * CT_REVEAL_MIN at least and not mostly links (a menu's dropdowns), is
 * the page's content waiting for a script to show it (a storefront's
 * lock-down or anti-flicker wrapper): it is shown, here and to
 * content_hidden, as a panel is. */
static void
ct_reveal(content *c)
{
	if (c->body == CT_NONE || c->npanels == CT_PANELS)
		return;
	uint32_t big, hidden = ct_hidden_text(c, &big);
	if (big == CT_NONE)
		return;
	ct_el *e = &c->el[big];
	if (e->text < CT_REVEAL_MIN || e->text <= c->el[c->body].text - hidden ||
	    e->link > CT_MENU_SHARE * e->text)
		return;
	e->flags &= ~(uint32_t)CT_HIDE;
	c->panels[c->npanels++] = e->n;
}

/* On a thread, marks definition list i furniture by tag when it is a
 * poster's facts beside each post ("Joined", "Posts", "Reaction
 * score"): definitions of CT_FACT characters or fewer and nothing else
 * but terms.  One term and one definition are a fact with its label:
 * the list goes; one term (the poster's name) or none over two
 * definitions or more: the definitions go.  Terms of their own over
 * several definitions are a glossary. */
static void
ct_facts(content *c, uint32_t i)
{
	uint32_t ndt = 0, ndd = 0;
	for (uint32_t k = i + 1; k < c->el[i].end; k = c->el[k].end) {
		GumboTag t = tree_tag(c->el[k].n);
		if (t == GUMBO_TAG_DT)
			ndt++;
		else if (t == GUMBO_TAG_DD && c->el[k].text <= CT_FACT)
			ndd++;
		else if (c->el[k].text)
			return;
	}
	if (ndt == 1 && ndd == 1 && c->el[i].text <= 2 * CT_FACT)
		c->el[i].flags |= CT_BOILTAG;
	else if (ndt <= 1 && ndd >= 2)
		for (uint32_t k = i + 1; k < c->el[i].end; k = c->el[k].end)
			if (tree_tag(c->el[k].n) == GUMBO_TAG_DD)
				c->el[k].flags |= CT_BOILTAG;
}

/* Marks element i furniture by tag when it is a ticker: CT_TICK
 * children or more that show text all show the same phrase of
 * CT_TICK_TEXT characters or fewer ("Book Now *" a hundred times in a
 * marquee, "Loading..." in every placeholder), not a table's, a list's
 * or code's, whose cells and items may repeat a word ("Yes", "this").
 * Each child's text is read only when all have as many characters. */
static void
ct_ticker(content *c, uint32_t i)
{
	GumboTag t = tree_tag(c->el[i].n);
	if (ct_tabular(t) || t == GUMBO_TAG_UL || t == GUMBO_TAG_OL || t == GUMBO_TAG_PRE ||
	    t == GUMBO_TAG_CODE || t == GUMBO_TAG_SELECT)
		return;
	uint32_t n = 0, first = CT_NONE;
	for (uint32_t k = i + 1; k < c->el[i].end; k = c->el[k].end) {
		if (!c->el[k].text)
			continue;
		if (first == CT_NONE)
			first = k;
		else if (c->el[k].text != c->el[first].text)
			return;
		n++;
	}
	if (n < CT_TICK || c->el[first].text < 2 || c->el[first].text > CT_TICK_TEXT)
		return;
	const pbuf *a = ct_block_text(c, first);
	pbuf b;
	pbuf_init(&b);
	int same = 1;
	for (uint32_t k = c->el[first].end; same && k < c->el[i].end; k = c->el[k].end) {
		if (!c->el[k].text)
			continue;
		pbuf_reset(&b);
		ex_text(&b, c->el[k].n);
		same = b.len == a->len && memcmp(a->p, b.p, a->len) == 0;
	}
	pbuf_free(&b);
	if (same)
		c->el[i].flags |= CT_BOILTAG;
}

/* Records every element of the document in c->el, in document order,
 * with its subtree's counts; c->nstext counts what the body's
 * <noscript>s alone hide. */
static void
ct_collect(content *c, const GumboOutput *out)
{
	c->nel = 0;
	c->body = CT_NONE;
	c->nstext = 0;
	c->npanels = c->ntoggles = 0;
	ct_control ctl[CT_PANELS];
	unsigned nctl = 0;
	uint32_t cur = CT_NONE;
	/* hidden: open elements hiding their text; nshidden: of them, the
	 * <noscript>s. */
	int hidden = 0, nshidden = 0, inlink = 0;
	uint32_t seen = 0;
	const GumboNode *top = out->document, *n = top;
	for (;;) {
		int el = tree_is_element(n);
		if (el) {
			if (c->nel == c->cap) {
				c->cap = c->cap ? c->cap * 2 : 1024;
				c->el = xrealloc(c->el, c->cap * sizeof *c->el);
			}
			uint32_t i = c->nel++;
			ct_el *e = &c->el[i];
			memset(e, 0, sizeof *e);
			e->n = n;
			e->parent = cur;
			e->pre = seen;
			const char *ids = NULL;
			e->flags = ct_flags(c, n, &ids);
			if (ids && !hidden)
				ct_controls(ctl, &nctl, ids, i);
			GumboTag t = tree_tag(n);
			/* A hidden input is no field a reader fills. */
			const char *type = t == GUMBO_TAG_INPUT ? tree_attr(n, "type") : NULL;
			if ((t == GUMBO_TAG_INPUT && !(type && strcasecmp(type, "hidden") == 0)) ||
			    t == GUMBO_TAG_SELECT || t == GUMBO_TAG_TEXTAREA)
				e->flags |= CT_FORMKID;
			else if (t == GUMBO_TAG_BUTTON)
				e->flags |= CT_BUTTONKID;
			if (cur != CT_NONE) {
				ct_el *p = &c->el[cur];
				e->flags |= p->flags & (CT_INPOST | CT_INQA);
				/* Comments on a question or an answer (Stack
				 * Exchange's under each) are not the thread's
				 * posts: a forum's replies are comments on the
				 * DiscussionForumPosting. */
				if ((e->flags & CT_QACMT) && (p->flags & CT_INQA))
					e->flags |= CT_BOILTAG;
				if (p->flags & (CT_BOILTAG | CT_INTAG))
					e->flags |= CT_INTAG;
				uint32_t post = CT_INPOST | CT_POSTTEXT;
				if ((e->flags & post) == post)
					e->flags |= CT_HASPOST;
				if (!ex_is_inline(t))
					p->flags |= CT_BLOCKKID;
				if (!ex_is_inline(t) && !ct_hides(c, n) && t != GUMBO_TAG_BR &&
				    t != GUMBO_TAG_HR)
					p->flags |= CT_LEAFKID;
			}
			if (t == GUMBO_TAG_BODY && c->body == CT_NONE)
				c->body = i;
			if (ct_hides(c, n)) {
				hidden++;
				nshidden += t == GUMBO_TAG_NOSCRIPT;
			}
			if (t == GUMBO_TAG_A) {
				inlink++;
				if (tree_attr(n, "href"))
					e->links = 1;
			}
			cur = i;
		} else if ((n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA) &&
			   !hidden && cur != CT_NONE) {
			uint32_t was = c->el[cur].text;
			ct_count(&c->el[cur], n->v.text.text, strlen(n->v.text.text), inlink);
			seen += c->el[cur].text - was;
		} else if ((n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA) &&
			   hidden && hidden == nshidden && c->body != CT_NONE) {
			c->nstext += ct_visible(n->v.text.text, strlen(n->v.text.text));
		}
		const GumboNode *kid = tree_kid(n, 0);
		if (kid) {
			n = kid;
			continue;
		}
		for (;;) {
			if (tree_is_element(n)) {
				ct_el *e = &c->el[cur];
				e->end = c->nel;
				GumboTag t = tree_tag(n);
				if (ct_hides(c, n)) {
					hidden--;
					nshidden -= t == GUMBO_TAG_NOSCRIPT;
				}
				if (t == GUMBO_TAG_A)
					inlink--;
				if (t == GUMBO_TAG_DL && (c->kind & CONTENT_THREAD))
					ct_facts(c, cur);
				if (e->text)
					ct_ticker(c, cur);
				cur = e->parent;
				if (cur != CT_NONE) {
					ct_el *p = &c->el[cur];
					p->text += e->text;
					p->bytes += e->bytes;
					p->link += e->link;
					p->links += e->links;
					p->commas += e->commas;
					p->stops += e->stops;
					p->cuts += e->cuts;
					if (e->flags & (CT_HINT | CT_MAIN | CT_HASHINT))
						p->flags |= CT_HASHINT;
					p->flags |= e->flags &
						    (CT_FORMKID | CT_BUTTONKID | CT_HASPOST);
				}
			}
			if (n == top) {
				ct_panels(c, ctl, nctl);
				ct_reveal(c);
				return;
			}
			const GumboNode *s = tree_sibling(n);
			if (s) {
				n = s;
				break;
			}
			n = n->parent;
		}
	}
}

/* Reduces b in place to its letters and digits, ASCII ones lowercased:
 * a title and its heading differ in spaces (a no-break one), quotes,
 * dashes and ellipses ("--" for an en dash, straight for curly). */
static void
ct_letters(pbuf *b)
{
	const unsigned char *u = (const unsigned char *)b->p;
	size_t k = 0;
	for (size_t i = 0; i < b->len; i++) {
		unsigned char ch = u[i];
		if (ch < 0x80) {
			if ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z'))
				b->p[k++] = (char)ch;
			else if (ch >= 'A' && ch <= 'Z')
				b->p[k++] = (char)(ch + 32);
			continue;
		}
		/* U+00A0..U+00BF (no-break space, guillemets, middle dot) and
		 * U+2000..U+203F (spaces, dashes, quotes, ellipsis) */
		if (ch == 0xC2 && i + 1 < b->len && u[i + 1] >= 0xA0) {
			i++;
			continue;
		}
		if (ch == 0xE2 && i + 2 < b->len && u[i + 1] == 0x80) {
			i += 2;
			continue;
		}
		b->p[k++] = (char)ch;
	}
	b->len = k;
	if (b->p)
		b->p[k] = '\0';
}

/* Whether needle (n bytes) occurs in hay (h bytes). */
static int
ct_has(const char *hay, size_t h, const char *needle, size_t n)
{
	return n <= h && memmem(hay, h, needle, n) != NULL;
}

/* Whether the heading with letters h (ct_letters) names the page titled
 * t: it is in t (sites add their name to a title) or holds it. */
static int
ct_names(const pbuf *t, const pbuf *h)
{
	return t->len >= CT_TITLE_LETTERS && h->len >= CT_TITLE_LETTERS &&
	       (ct_has(t->p, t->len, h->p, h->len) || ct_has(h->p, h->len, t->p, t->len));
}

/* Finds the page's title heading: among the first CT_TITLE_HEADINGS
 * h1 and h2, the first that names the page after its <title>, else
 * after its og:title (the title without the site's name, when the
 * <title> holds a shortened or reworded one). */
static void
ct_title(content *c)
{
	c->titleh = CT_NONE;
	pbuf_reset(&c->tbuf);
	pbuf_reset(&c->obuf);
	for (uint32_t i = 0; i < c->body; i++) {
		const GumboNode *n = c->el[i].n;
		const char *v, *og;
		if (tree_tag(n) == GUMBO_TAG_TITLE && !c->tbuf.len)
			ex_text(&c->tbuf, n);
		else if (tree_tag(n) == GUMBO_TAG_META && !c->obuf.len &&
			 (v = tree_attr(n, "property")) && strcmp(v, "og:title") == 0 &&
			 (og = tree_attr(n, "content")))
			pbuf_text(&c->obuf, og, strlen(og));
	}
	ct_letters(&c->tbuf);
	ct_letters(&c->obuf);
	for (int pass = 0; pass < 2; pass++) {
		const pbuf *t = pass ? &c->obuf : &c->tbuf;
		int seen = 0;
		for (uint32_t i = 0; i < c->nel && seen < CT_TITLE_HEADINGS; i++) {
			GumboTag g = tree_tag(c->el[i].n);
			if (g != GUMBO_TAG_H1 && g != GUMBO_TAG_H2)
				continue;
			seen++;
			pbuf_reset(&c->hbuf);
			ex_text(&c->hbuf, c->el[i].n);
			ct_letters(&c->hbuf);
			if (ct_names(t, &c->hbuf)) {
				c->titleh = i;
				return;
			}
		}
	}
}

/* Headings that title a box of other pages or products: the phrases
 * shops and CMSs start them with (a shop's carousels, a site's
 * "related" box), as ct_letters writes them; and a box of legal fine
 * print. */
static const char *const ct_other_pages[] = {
	"youmayalsolike", "youmightalsolike", "youmayalsoenjoy", "youmightalsoenjoy",
	"youmayalsobeinterested", "youmightalsobeinterested", "relatedproducts",
	"relateditems", "relatedarticles", "relatedposts", "relatedstories", "relatedcontent",
	"similaritems", "similarproducts", "customersalso", "peoplewhoviewed", "peoplealso",
	"alsoviewed", "alsobought", "frequentlyboughttogether", "recommendedforyou",
	"recommendedproducts", "recentlyviewed", "sellersotheritems", "morefromthisseller",
	"explorerelated", "completethelook", "shopthelook", "morelikethis", "readnext",
	"morestories", "disclaimer",
};

/* Phrases a heading over a page's questions and answers holds, as
 * words: "Frequently asked questions", "FAQs", in English, German,
 * Spanish, French, Portuguese, Italian, Dutch. */
static const char *const ct_faq_words[] = {
	"faq", "faqs", "frequently asked questions", "common questions",
	"h\xc3\xa4ufig gestellte fragen", "preguntas frecuentes", "questions fr\xc3\xa9quentes",
	"perguntas frequentes", "domande frequenti", "veelgestelde vragen",
};

/* Whether s[0..n) holds phrase p as words: not inside a longer word
 * ("Reef aquarium", "Uncommon questions"), ASCII case ignored, a space
 * of p matching any run of white space. */
static int
ct_phrase(const char *s, size_t n, const char *p)
{
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && isalnum((unsigned char)s[i - 1]))
			continue;
		size_t j = i;
		const char *q = p;
		for (; *q && j < n; q++) {
			if (*q == ' ') {
				if (!pbuf_isspace((unsigned char)s[j]))
					break;
				while (j < n && pbuf_isspace((unsigned char)s[j]))
					j++;
			} else if (tolower((unsigned char)s[j]) == *q) {
				j++;
			} else {
				break;
			}
		}
		if (!*q && (j == n || !isalnum((unsigned char)s[j])))
			return 1;
	}
	return 0;
}

/* The box heading h titles: its nearest ancestor holding more than the
 * heading, CT_OTHER_LEVELS up at most, whose text all comes from the
 * heading on but for a kicker of CT_KICKER characters (their counts of
 * text before them differ by that at most), and, when small is set,
 * under CT_LAYOUT_SHARE of the body (furniture is a small part of a
 * page); else CT_NONE. */
static uint32_t
ct_heading_box(const content *c, uint32_t h, int small)
{
	const ct_el *e = &c->el[h];
	uint32_t a = e->parent;
	for (int up = 1; a != CT_NONE && a != c->body && c->el[a].text <= e->text &&
			 up < CT_OTHER_LEVELS; up++)
		a = c->el[a].parent;
	if (a == CT_NONE || a == c->body || c->el[a].text <= e->text ||
	    (small && c->el[a].text > CT_LAYOUT_SHARE * c->el[c->body].text))
		return CT_NONE;
	return e->pre - c->el[a].pre <= CT_KICKER ? a : CT_NONE;
}

/* Reads what headings (h2 to h6, not the page's title heading) say of
 * the boxes they title.  Marks as furniture (CT_BOILTAG: the heading
 * says what the box is, as a role does, with class names read or not)
 * each box that a heading starting with a phrase of ct_other_pages
 * titles; sets c->faq to the first box that a heading holding a
 * phrase of ct_faq_words titles. */
static void
ct_heading_boxes(content *c)
{
	c->faq = CT_NONE;
	if (c->body == CT_NONE)
		return;
	for (uint32_t h = c->body; h < c->el[c->body].end; h++) {
		const ct_el *e = &c->el[h];
		GumboTag g = tree_tag(e->n);
		/* A heading of many elements titles nothing: this bounds the
		 * text read on a page of thousands of nested headings. */
		if (g < GUMBO_TAG_H2 || g > GUMBO_TAG_H6 || h == c->titleh || !e->text ||
		    e->text > CT_OTHER_HEADING || e->end - h > CT_OTHER_ELEMENTS)
			continue;
		pbuf_reset(&c->hbuf);
		ex_text(&c->hbuf, e->n);
		int other = 0, faq = 0;
		for (size_t k = 0; k < sizeof ct_faq_words / sizeof ct_faq_words[0] && !faq &&
				   c->faq == CT_NONE; k++)
			faq = ct_phrase(c->hbuf.p, c->hbuf.len, ct_faq_words[k]);
		ct_letters(&c->hbuf);
		size_t nother = sizeof ct_other_pages / sizeof ct_other_pages[0];
		for (size_t k = 0; k < nother && !other; k++) {
			size_t n = strlen(ct_other_pages[k]);
			other = c->hbuf.len >= n && memcmp(c->hbuf.p, ct_other_pages[k], n) == 0;
		}
		faq &= !other;
		uint32_t a = other || faq ? ct_heading_box(c, h, other) : CT_NONE;
		if (a != CT_NONE && other)
			c->el[a].flags |= CT_BOILTAG;
		else if (a != CT_NONE)
			c->faq = a;
	}
	/* The heading says what the box is, as a role does: a name inside
	 * it (an FAQ widget's "tabs-menu") makes none of its answers
	 * furniture. */
	if (c->faq != CT_NONE)
		for (uint32_t i = c->faq; i < c->el[c->faq].end; i++)
			c->el[i].flags &= ~(uint32_t)CT_NAMEBOIL;
}

/* The post that comment-named element i comments on: its nearest
 * ancestor, CT_LEVELS up at most and under the body, with CT_MIN_PARA
 * characters of prose of its own (text outside links and outside
 * comment-named elements), when that holds a 1/CT_CMT_SHARE of the
 * prose its comments hold; else CT_NONE.  A thread's replies named
 * "comment" outweigh what sits beside them (a title, a header line of
 * links); the comments under an answer (Stack Exchange's) seldom
 * outweigh the answer that many times. */
static uint32_t
ct_commented(const content *c, uint32_t i)
{
	uint32_t p = c->el[i].parent;
	for (int up = 0; p != CT_NONE && p != c->body && up < CT_LEVELS;
	     up++, p = c->el[p].parent) {
		uint32_t own = c->el[p].text - c->el[p].link - c->cm[p];
		if (own >= CT_MIN_PARA)
			return own * CT_CMT_SHARE >= c->cm[p] ? p : CT_NONE;
	}
	return CT_NONE;
}

/* On a thread, marks as furniture (CT_NAMEBOIL) the comments on posts:
 * the outermost comment-named elements holding prose, not inside
 * furniture by tag or role (a sidebar's "Recent comments"), that
 * comment on a post (ct_commented), when two posts or more have them.
 * One post with comments is a blog post, or a thread's opening post
 * with its replies named "comment".  c->cm[i]: the prose of i's
 * outermost comment-named elements, summed children first, so the
 * whole is linear. */
static void
ct_comments(content *c)
{
	if (!(c->kind & CONTENT_THREAD))
		return;
	c->cm = xrealloc(c->cm, (c->nel ? c->nel : 1) * sizeof *c->cm);
	memset(c->cm, 0, c->nel * sizeof *c->cm);
	for (uint32_t i = c->nel; i-- > 0;) {
		const ct_el *e = &c->el[i];
		if ((e->flags & (CT_CMT | CT_INTAG)) == CT_CMT)
			c->cm[i] = e->text - e->link;
		if (e->parent != CT_NONE)
			c->cm[e->parent] += c->cm[i];
	}
	uint32_t posts = 0, last = CT_NONE;
	for (uint32_t i = 0; i < c->nel; i++)
		if (c->el[i].flags & CT_CMT) {
			uint32_t p = c->cm[i] ? ct_commented(c, i) : CT_NONE;
			posts += p != CT_NONE && p != last;
			last = p != CT_NONE ? p : last;
			i = c->el[i].end - 1;  /* its descendants are inside it */
		}
	if (posts < 2)
		return;
	for (uint32_t i = 0; i < c->nel; i++)
		if (c->el[i].flags & CT_CMT) {
			if (c->cm[i] && ct_commented(c, i) != CT_NONE) {
				c->el[i].flags |= CT_NAMEBOIL;
				c->el[i].flags &= ~(uint32_t)CT_NAMEPOS;
			}
			i = c->el[i].end - 1;
		}
}

/* Sets CT_INBOIL below boilerplate.  A wrapper named or tagged like
 * furniture ("content-sidebar-wrap", an <aside> around the page's
 * <main>) that holds the article's own element is layout, not
 * furniture; with classes off (the second attempt), names
 * count for nothing. */
static void
ct_mark(content *c, int classes)
{
	for (uint32_t i = 0; i < c->nel; i++) {
		ct_el *e = &c->el[i];
		e->flags &= ~(uint32_t)(CT_INBOIL | CT_SCORED | CT_DROP | CT_BOILCLS | CT_POS |
					CT_INPART | CT_PRICED);
		if (e->flags & CT_NAMEBOIL)
			e->flags |= CT_BOILCLS;
		if (e->flags & CT_NAMEPOS)
			e->flags |= CT_POS;
		e->score = 0;
		if (e->flags & CT_HASHINT)
			e->flags &= ~(uint32_t)(CT_BOILCLS | CT_BOILTAG);
		/* Furniture is a small part of a page: a "footer" that holds
		 * over half the page's text is a layout wrapper
		 * ("above-footer"). */
		if (c->body != CT_NONE && e->text > CT_LAYOUT_SHARE * c->el[c->body].text)
			e->flags &= ~(uint32_t)CT_BOILCLS;
		if (!classes)
			e->flags &= ~(uint32_t)(CT_BOILCLS | CT_POS);
		if (e->parent != CT_NONE &&
		    (c->el[e->parent].flags & (CT_HIDE | CT_BOILTAG | CT_BOILCLS | CT_INBOIL)))
			e->flags |= CT_INBOIL;
	}
}

/* The link density of e: the share of its text inside links. */
static float
ct_density(const ct_el *e)
{
	return e->text ? (float)e->link / (float)e->text : 0;
}

/* Starts e as a candidate: a base score by tag and class. */
static void
ct_init_score(ct_el *e)
{
	float s = 0;
	switch (tree_tag(e->n)) {
	case GUMBO_TAG_DIV: case GUMBO_TAG_ARTICLE: case GUMBO_TAG_MAIN:
	case GUMBO_TAG_SECTION:
		s = CT_W_BOX;
		break;
	case GUMBO_TAG_PRE: case GUMBO_TAG_TD: case GUMBO_TAG_BLOCKQUOTE:
		s = CT_W_CELL;
		break;
	case GUMBO_TAG_ADDRESS: case GUMBO_TAG_OL: case GUMBO_TAG_UL:
	case GUMBO_TAG_DL: case GUMBO_TAG_DD: case GUMBO_TAG_DT:
	case GUMBO_TAG_LI: case GUMBO_TAG_FORM:
		s = CT_W_LIST;
		break;
	case GUMBO_TAG_H1: case GUMBO_TAG_H2: case GUMBO_TAG_H3:
	case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6:
	case GUMBO_TAG_TH:
		s = CT_W_HEADING;
		break;
	default:
		break;
	}
	if (e->flags & CT_POS)
		s += CT_W_NAME;
	if (e->flags & CT_BOILCLS)
		s -= CT_W_NAME;
	e->score = s;
	e->flags |= CT_SCORED;
}

/* Whether e is a paragraph for scoring: a p, pre, td or blockquote, or
 * any other block with no block children, outside boilerplate. */
static int
ct_paragraph(const content *c, const ct_el *e)
{
	if (e->flags & (CT_HIDE | CT_BOILTAG | CT_BOILCLS | CT_INBOIL))
		return 0;
	GumboTag t = tree_tag(e->n);
	switch (t) {
	case GUMBO_TAG_P: case GUMBO_TAG_PRE: case GUMBO_TAG_TD:
	case GUMBO_TAG_BLOCKQUOTE:
		return 1;
	case GUMBO_TAG_H1: case GUMBO_TAG_H2: case GUMBO_TAG_H3:
	case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6:
	case GUMBO_TAG_BODY: case GUMBO_TAG_HTML: case GUMBO_TAG_A:
		return 0;
	default:
		return !ex_is_inline(t) && !ct_hides(c, e->n) && !(e->flags & CT_BLOCKKID);
	}
}

/* Whether element i is its parent's only element child. */
static int
ct_only_child(const content *c, uint32_t i)
{
	uint32_t p = c->el[i].parent;
	return p + 1 == i && c->el[i].end == c->el[p].end;
}

/* Scores the candidates and returns the best, or CT_NONE. */
static uint32_t
ct_best(content *c)
{
	for (uint32_t i = 0; i < c->nel; i++) {
		ct_el *e = &c->el[i];
		if (e->text < CT_MIN_PARA || !ct_paragraph(c, e))
			continue;
		uint32_t pts = e->text / CT_PARA_CHARS;
		float s = 1 + (float)e->commas + (pts < CT_PARA_POINTS ? (float)pts : CT_PARA_POINTS);
		uint32_t a = e->parent;
		for (int level = 0; level < CT_LEVELS && a != CT_NONE; level++, a = c->el[a].parent) {
			ct_el *p = &c->el[a];
			if (!(p->flags & CT_SCORED))
				ct_init_score(p);
			p->score += level == 0 ? s : level == 1 ? s / CT_GRANDPARENT_DIV :
				    s / (float)(level * CT_ANCESTOR_DIV);
		}
	}
	/* The CT_NTOP best, best first. */
	uint32_t top[CT_NTOP];
	int ntop = 0;
	for (uint32_t i = 0; i < c->nel; i++) {
		ct_el *e = &c->el[i];
		if (!(e->flags & CT_SCORED))
			continue;
		e->score *= 1 - ct_density(e);
		int k = ntop < CT_NTOP ? ntop++ : CT_NTOP;
		while (k > 0 && c->el[top[k - 1]].score < e->score) {
			if (k < CT_NTOP)
				top[k] = top[k - 1];
			k--;
		}
		if (k < CT_NTOP)
			top[k] = i;
	}
	if (ntop == 0)
		return CT_NONE;
	uint32_t best = top[0];
	float bs = c->el[best].score;
	/* A page with several articles (a feed, "read next" below) has
	 * its own under the heading that repeats its <title>: the first
	 * strong candidate after that heading, unless it holds the best. */
	if (c->titleh != CT_NONE &&
	    !(c->titleh >= best && c->titleh < c->el[best].end)) {
		for (uint32_t i = c->titleh + 1; i < c->nel; i++) {
			const ct_el *e = &c->el[i];
			if (!(e->flags & CT_SCORED) || e->score < CT_TITLE_SHARE * bs)
				continue;
			if (!(i <= best && best < e->end)) {
				best = i;
				bs = e->score;
				c->tr[c->tr_cur].feed = 1;
			}
			break;
		}
	}
	/* readability: when three other strong candidates share an
	 * ancestor with the best, the article is that ancestor (its parts
	 * are split across blocks). */
	int nalt = 0;
	for (int k = 1; k < ntop; k++)
		nalt += bs > 0 && c->el[top[k]].score / bs >= CT_ALT_SHARE;
	if (nalt >= CT_ALT_MIN) {
		for (uint32_t a = c->el[best].parent; a != CT_NONE && a != c->body;
		     a = c->el[a].parent) {
			int in = 0;
			for (int k = 1; k < ntop; k++)
				in += c->el[top[k]].score / bs >= CT_ALT_SHARE && a < top[k] &&
				      top[k] < c->el[a].end;
			if (in >= CT_ALT_MIN) {
				best = a;
				break;
			}
		}
	}
	/* readability: climb while a parent scores higher than the block
	 * below it, and past parents with nothing else in them. */
	float last = c->el[best].score, floor = last / CT_CLIMB_DIV;
	for (uint32_t a = c->el[best].parent; a != CT_NONE && a != c->body; a = c->el[a].parent) {
		const ct_el *p = &c->el[a];
		if (!(p->flags & CT_SCORED))
			continue;
		if (p->score < floor)
			break;
		if (p->score > last) {
			best = a;
			break;
		}
		last = p->score;
	}
	while (c->el[best].parent != CT_NONE && c->el[best].parent != c->body &&
	       ct_only_child(c, best))
		best = c->el[best].parent;
	return best;
}

/* What the text leaves out besides its mask: nothing more; blocks made
 * mostly of links (menus, teasers); or those but lists of cards. */
enum { CT_LINKS, CT_DENSE, CT_CARDS };

/* The walk's question for the main content: leave out hidden elements,
 * boilerplate by tag, role, class or id, and blocks mostly made of
 * links. */
typedef struct ct_skip {
	content *c;
	uint32_t i;
	uint32_t mask;
	int dense;
	const pbuf *out;  /* the text written so far */
} ct_skip;

/* Whether t is a table or one of its parts. */
static int
ct_tabular(GumboTag t)
{
	return t == GUMBO_TAG_TABLE || t == GUMBO_TAG_THEAD || t == GUMBO_TAG_TBODY ||
	       t == GUMBO_TAG_TFOOT || t == GUMBO_TAG_TR || t == GUMBO_TAG_TD ||
	       t == GUMBO_TAG_TH;
}

/* Whether e is a box of teasers (CT_CUTS) on a page that is no
 * listing. */
static int
ct_teasers(const content *c, const ct_el *e)
{
	GumboTag t = tree_tag(e->n);
	return !(c->kind & CONTENT_ITEMS) && e->cuts >= CT_CUTS && e->links >= e->cuts &&
	       3 * e->cuts >= e->stops + e->cuts && !ex_is_inline(t) && !ct_tabular(t);
}

/* Whether the text leaves element i out (with its subtree). */
static int
ct_skipped(const content *c, uint32_t i, uint32_t mask, int dense)
{
	const ct_el *e = &c->el[i];
	/* A priced card's caption is its name and price, as on a
	 * collection (ct_caption). */
	if ((e->flags & (CT_PRICED | CT_NAMECAP)) == (CT_PRICED | CT_NAMECAP))
		mask &= ~(uint32_t)CT_BOILCLS;
	if (e->flags & mask)
		return 1;
	if (dense == CT_LINKS || (e->flags & CT_INPART))
		return 0;
	GumboTag t = tree_tag(e->n);
	if (dense == CT_CARDS && e->links && e->link >= CT_CARD_LINK * e->links)
		return 0;
	/* The body's text: a block holding most of the page is its
	 * layout, a wrapper whose parts are judged, not it. */
	if (dense == CT_CARDS && e->text > CT_LAYOUT_SHARE * c->el[c->body].text)
		return 0;
	/* A block that is mostly link text is a menu, a list of related
	 * articles or a "read also" line; not a definition list's term,
	 * which names what it defines (an API's member, a paper), nor a
	 * table, its rows or its cells, which link what they list (a list
	 * of laureates, a league's standings, a spec's fields). */
	if (e->links >= 1 && e->link > CT_MENU_SHARE * e->text && !ex_is_inline(t) &&
	    t != GUMBO_TAG_DT && !ct_tabular(t))
		return 1;
	/* Excerpts of other pages, cut short (CT_CUTS). */
	if (ct_teasers(c, e))
		return 1;
	/* readability's conditional cleaning: a container with few commas
	 * (little prose), no content name and over a fifth link text is a
	 * box of teasers or links.  Lists and tables in the article often
	 * link a name or a term in each item ("Ada Lovelace, engineer at
	 * X"): they go only when mostly links, by the rule above.  A
	 * listing's grid is such a box, and its content; so is a box
	 * holding sentences on a thread (replies, with their authors' and
	 * buttons' links) or on a page saying nothing of itself (a landing
	 * page's cards). */
	int sentences = (c->kind & (CONTENT_THREAD | CONTENT_UNSAID)) &&
			(e->stops >= CT_CLEAN_STOPS || (e->flags & CT_HASPOST));
	if (!(c->kind & CONTENT_ITEMS) && !sentences && e->commas < CT_CLEAN_COMMAS &&
	    e->links >= 1 && !(e->flags & CT_POS) &&
	    (t == GUMBO_TAG_DIV || t == GUMBO_TAG_SECTION || t == GUMBO_TAG_FORM) &&
	    (float)e->link > CT_CLEAN_LINKS * (float)e->text)
		return 1;
	/* A form inside the article asks for a comment, a search or an
	 * address: nothing to read.  Figures' captions and credits are not
	 * the article's prose. */
	if (t == GUMBO_TAG_FIGURE)
		return e->text < CT_FIGURE_TEXT;
	/* A form holding most of the page is its layout (ASP.NET wraps
	 * every page in one); one without a field to fill or a button
	 * wraps text (old Reddit's comments, each in a form to edit it). */
	if (t == GUMBO_TAG_FORM)
		return e->text <= CT_LAYOUT_SHARE * c->el[c->body].text &&
		       (e->flags & (CT_FORMKID | CT_BUTTONKID));
	return t == GUMBO_TAG_FIGCAPTION;
}

/* Block i's text, as the content's text writes it, in c->hbuf. */
static const pbuf *
ct_block_text(content *c, uint32_t i)
{
	pbuf_reset(&c->hbuf);
	ex_text(&c->hbuf, c->el[i].n);
	return &c->hbuf;
}

/* Whether quote i repeats what out already holds (a reply quoting an
 * earlier post, which the thread shows once): CT_QUOTE_SHARE of its
 * pieces of CT_QUOTE_PIECE bytes are found there.  A quote shorter than
 * a piece is kept. */
static int
ct_quoted(content *c, uint32_t i, const pbuf *out)
{
	if (!out->len)
		return 0;
	const pbuf *t = ct_block_text(c, i);
	size_t step = t->len / CT_QUOTE_PIECES;
	if (step < CT_QUOTE_PIECE)
		step = CT_QUOTE_PIECE;
	unsigned n = 0, found = 0;
	for (size_t at = 0; at + CT_QUOTE_PIECE <= t->len && n < CT_QUOTE_PIECES;
	     at += step, n++)
		found += memmem(out->p, out->len, t->p + at, CT_QUOTE_PIECE) != NULL;
	return n && found >= CT_QUOTE_SHARE * n;
}

/* Whether out already holds block i's text whole: a block the page
 * shows twice (a layout for phones beside one for desktops, a thread's
 * best answer above its posts). */
static int
ct_repeated(content *c, uint32_t i, const pbuf *out)
{
	if (!out->len)
		return 0;
	const pbuf *t = ct_block_text(c, i);
	return t->len && memmem(out->p, out->len, t->p, t->len) != NULL;
}

/* Whether a grid of cards is content on the page only when priced
 * (ct_priced): no schema.org type says the page's kind (it says none,
 * or only its og:type, markup or URL do: og:type article is a CMS's
 * default, on a shop's category pages too), and it is no listing,
 * collection or product, whose grids have rules of their own. */
static int
ct_priced_only(const content *c)
{
	return (c->kind & CONTENT_UNTYPED) && !(c->kind & (CONTENT_ITEMS | CONTENT_PRODUCT));
}

static void ct_grid(content *c, uint32_t i, uint32_t mask);

static int
ct_skip_fn(const GumboNode *n, void *ctx)
{
	ct_skip *k = ctx;
	content *c = k->c;
	uint32_t i = k->i;
	while (i < c->nel && c->el[i].n != n)
		i++;
	if (i == c->nel)
		return 0;
	const ct_el *e = &c->el[i];
	/* On a listing or a collection, a block mostly of links may be a
	 * grid of cards (a name, "Add to cart" and "Wish list" in each),
	 * content; so on a page that only its og:type, markup or URL calls
	 * a product: shops say og:type product on their category pages
	 * too; and on a page whose kind no schema.org type says, a grid
	 * of priced cards (ct_priced_only) in a block that ct_skipped's
	 * cleaning would drop (a fifth of it links). */
	int untyped = CONTENT_PRODUCT | CONTENT_UNTYPED, priced = ct_priced_only(c);
	float links = priced ? CT_CLEAN_LINKS : CT_MENU_SHARE;
	if (((k->dense == CT_CARDS && ((c->kind & CONTENT_ITEMS) || priced)) ||
	     (c->kind & untyped) == untyped) &&
	    e->end > c->start && !(e->flags & (CT_INPART | k->mask)) &&
	    e->links && (float)e->link > links * (float)e->text)
		ct_grid(c, i, k->mask);
	/* A quote repeating an earlier post goes, and so does a block of
	 * text (not code) shown already, but on a manual's page, which
	 * repeats a parameter's line wherever it is taken.  Each has its
	 * budget of looks: a long thread's paragraphs leave its quotes
	 * theirs. */
	int skip = e->end <= c->start || ct_skipped(c, i, k->mask, k->dense) ||
		   (tree_tag(n) == GUMBO_TAG_BLOCKQUOTE && c->quotes++ < CT_QUOTE_MAX &&
		    ct_quoted(c, i, k->out)) ||
		   (!(c->kind & CONTENT_DOCS) && !(e->flags & CT_BLOCKKID) &&
		    e->text >= CT_REPEAT_MIN && !ex_is_inline(tree_tag(n)) &&
		    tree_tag(n) != GUMBO_TAG_PRE && c->repeats++ < CT_QUOTE_MAX &&
		    ct_repeated(c, i, k->out));
	k->i = skip ? c->el[i].end : i + 1;
	if (skip)
		ct_note_skip(c, i);
	return skip;
}

/* Appends the text of element top without what k skips. */
static void
ct_text(content *c, uint32_t top, pbuf *b, uint32_t mask, int dense)
{
	ct_skip k = { c, top + 1, mask, dense, b };
	ct_note_root(c, top);
	pbuf_break(b);
	ex_text_skip(b, c->el[top].n, ct_skip_fn, &k);
}

/* Whether e is a heading, h1 to h6. */
static int
ct_heading(const ct_el *e)
{
	GumboTag t = tree_tag(e->n);
	return t >= GUMBO_TAG_H1 && t <= GUMBO_TAG_H6;
}

/* Whether e is an item of a list or a cell of a table. */
static int
ct_item(const ct_el *e)
{
	GumboTag t = tree_tag(e->n);
	return t == GUMBO_TAG_LI || t == GUMBO_TAG_TD || t == GUMBO_TAG_TH ||
	       t == GUMBO_TAG_DD || t == GUMBO_TAG_DT;
}

/* Whether block e reads as prose: long enough, or a sentence, and under
 * a third link text. */
static int
ct_good(const ct_el *e)
{
	if (ct_density(e) >= CT_PROSE_LINKS)
		return 0;
	return e->text >= CT_PROSE || (e->text >= CT_SENTENCE && e->stops >= 1);
}

/* Appends to c->blk the blocks of text among elements lo .. hi - 1
 * (document order) that the text keeps: elements that start a block and
 * hold no other block.  For the content's own subtree (lead 0) lo is
 * its top, kept whatever it is; for the lead (lo .. hi - 1 a stretch of
 * the page between the title heading and the content) only blocks of
 * prose outside boilerplate count. */
static void
ct_blocks(content *c, uint32_t lo, uint32_t hi, uint32_t mask, int lead)
{
	if (c->capblk < c->nel) {
		c->capblk = c->nel;
		c->blk = xrealloc(c->blk, c->capblk * sizeof *c->blk);
	}
	for (uint32_t i = lo; i < hi;) {
		const ct_el *e = &c->el[i];
		GumboTag t = tree_tag(e->n);
		if ((lead && (e->flags & CT_INBOIL)) ||
		    ((lead || i != lo) && ct_skipped(c, i, mask, CT_DENSE)) || ct_hides(c, e->n)) {
			i = e->end;
			continue;
		}
		if (!(e->flags & CT_LEAFKID) && !ex_is_inline(t) && t != GUMBO_TAG_BR &&
		    t != GUMBO_TAG_HR) {
			if (lead ? ct_good(e) : e->text != 0)
				c->blk[c->nblk++] = i;
			i = e->end;
			continue;
		}
		i++;
	}
}

/* Whether block i, right after block prev (nothing left out between),
 * is the author's sign-off: a paragraph beside the last prose (same
 * parent) with no link, no colon (it introduces a contact or "more on
 * this:") and no question (to the reader: "Did you like it?"). */
static int
ct_signoff(content *c, uint32_t i, uint32_t prev, uint32_t parent)
{
	const ct_el *e = &c->el[i];
	if (tree_tag(e->n) != GUMBO_TAG_P || e->parent != parent || e->link ||
	    c->el[prev].end != i)
		return 0;
	pbuf_reset(&c->hbuf);
	ex_text(&c->hbuf, e->n);
	return c->hbuf.len && !memchr(c->hbuf.p, ':', c->hbuf.len) &&
	       !memchr(c->hbuf.p, '?', c->hbuf.len);
}

/* jusText's edges: blocks before the first block of prose and after the
 * last one are a date, a byline, a share line, a "related" heading or a
 * rating rather than the article.  Before the first prose, a heading is
 * the article's title and a list item or table cell is content that is
 * not prose (a recipe's ingredients): they stay; after the last, a
 * sign-off stays.  Preformatted text (code, a poem) is content wherever
 * it is. */
static void
ct_trim(content *c)
{
	uint32_t first = 0, last;
	while (first < c->nblk && !ct_good(&c->el[c->blk[first]]))
		first++;
	if (first == c->nblk)
		return;
	last = c->nblk - 1;
	while (!ct_good(&c->el[c->blk[last]]))
		last--;
	for (uint32_t k = 0; k < first; k++) {
		const ct_el *e = &c->el[c->blk[k]];
		if (!ct_heading(e) && !ct_item(e) && tree_tag(e->n) != GUMBO_TAG_PRE)
			c->el[c->blk[k]].flags |= CT_DROP;
	}
	uint32_t k = last + 1;
	while (k < c->nblk &&
	       ct_signoff(c, c->blk[k], c->blk[k - 1], c->el[c->blk[last]].parent))
		k++;
	for (; k < c->nblk; k++)
		if (tree_tag(c->el[c->blk[k]].n) != GUMBO_TAG_PRE)
			c->el[c->blk[k]].flags |= CT_DROP;
}

/* The first word of e's class ("" for none), its length in *n. */
static const char *
ct_class1(const ct_el *e, size_t *n)
{
	const char *v = e->n->v.element.attributes.length ? tree_attr(e->n, "class") : NULL;
	if (!v)
		v = "";
	v += strspn(v, " \t\n\r\f");
	*n = strcspn(v, " \t\n\r\f");
	return v;
}

/* What alike elements share: the tag and the first class word, read
 * once from the element the others are compared with (a class can be
 * long, and a run has thousands of siblings). */
typedef struct ct_shape {
	GumboTag tag;
	const char *cls;
	size_t n;
} ct_shape;

static ct_shape
ct_shape_of(const ct_el *e)
{
	ct_shape s = { tree_tag(e->n), NULL, 0 };
	s.cls = ct_class1(e, &s.n);
	return s;
}

/* What ct_part_of asks of a part besides its shape, as bits. */
enum {
	CT_PART_BLOCKS = 1,  /* it holds blocks */
	CT_PART_HEADED = 2,  /* a heading among its first CT_HEAD_LOOK elements */
};

/* Whether child k is a part of shape s: not masked, alike, and as need
 * asks (CT_PART_*). */
static int
ct_part_of(const content *c, uint32_t k, const ct_shape *s, uint32_t mask, int need)
{
	const ct_el *e = &c->el[k];
	if ((e->flags & mask) || ((need & CT_PART_BLOCKS) && !(e->flags & CT_BLOCKKID)) ||
	    tree_tag(e->n) != s->tag)
		return 0;
	size_t n;
	const char *cls = ct_class1(e, &n);
	if (n != s->n || memcmp(cls, s->cls, n) != 0)
		return 0;
	if (!(need & CT_PART_HEADED))
		return 1;
	for (uint32_t d = k + 1; d < e->end && d <= k + CT_HEAD_LOOK; d++) {
		GumboTag t = tree_tag(c->el[d].n);
		if (t >= GUMBO_TAG_H1 && t <= GUMBO_TAG_H6)
			return 1;
	}
	return 0;
}

/* Whether a's children of shape s are a run of parts: CT_REP_MIN or
 * more, holding CT_REP_SHARE of a's text. */
static int
ct_run(const content *c, uint32_t a, const ct_shape *s, uint32_t mask, int need)
{
	unsigned n = 0;
	uint32_t text = 0;
	for (uint32_t k = a + 1; k < c->el[a].end; k = c->el[k].end)
		if (ct_part_of(c, k, s, mask, need))
			n++, text += c->el[k].text;
	return n >= CT_REP_MIN && text >= CT_REP_SHARE * c->el[a].text;
}

/* Marks a's children of shape s, a run of parts (ct_run), CT_INPART
 * (a post's author line is a link and a date; a card's title is a
 * link) and notes them in the trace (ct_note_part). */
static void
ct_mark_run(content *c, uint32_t a, const ct_shape *s, uint32_t mask, int need)
{
	for (uint32_t k = a + 1; k < c->el[a].end; k = c->el[k].end)
		if (ct_part_of(c, k, s, mask, need)) {
			ct_note_part(c, k);
			for (uint32_t d = k; d < c->el[k].end; d++)
				c->el[d].flags |= CT_INPART;
		}
}

/* Whether a's children of shape s are a run of parts (ct_run); if so
 * they are marked (ct_mark_run). */
static int
ct_parts(content *c, uint32_t a, const ct_shape *s, uint32_t mask, int need)
{
	if (!ct_run(c, a, s, mask, need))
		return 0;
	ct_mark_run(c, a, s, mask, need);
	return 1;
}

/* A run of alike siblings (posts, cards, entries) holding the block
 * root: the nearest of root and its CT_REP_LEVELS - 1 ancestors below
 * the body with CT_REP_MIN siblings or more like it, counting itself,
 * that together hold CT_REP_SHARE of their parent's text (ct_parts).
 * Returns their parent, or CT_NONE. */
static uint32_t
ct_repeat(content *c, uint32_t root, uint32_t mask, int need)
{
	uint32_t p = root;
	for (int l = 0; l < CT_REP_LEVELS && p != c->body && c->el[p].parent != c->body &&
	     c->el[p].parent != CT_NONE; l++, p = c->el[p].parent) {
		ct_shape s = ct_shape_of(&c->el[p]);
		if (ct_parts(c, c->el[p].parent, &s, mask, need))
			return c->el[p].parent;
	}
	return CT_NONE;
}

/* The parts block i holds: its children alike to the one holding the
 * most text (masked ones aside), each holding blocks (a text's
 * paragraphs are no parts), when they are a run (ct_run); with deep
 * set, when they are not and that child holds CT_WRAP_SHARE of its
 * parent's text or more, it is a wrapper (a grid inside its container
 * inside its section) and the parts are looked for inside it,
 * CT_WRAP_LEVELS down at most.  Returns the parts' parent, their
 * shape in *s, or CT_NONE. */
static uint32_t
ct_inner_run(const content *c, uint32_t i, uint32_t mask, int deep, ct_shape *s)
{
	for (int l = 0;; l++) {
		uint32_t big = CT_NONE;
		for (uint32_t k = i + 1; k < c->el[i].end; k = c->el[k].end)
			if (!(c->el[k].flags & mask) &&
			    (big == CT_NONE || c->el[k].text > c->el[big].text))
				big = k;
		if (big == CT_NONE || !(c->el[big].flags & CT_BLOCKKID))
			return CT_NONE;
		*s = ct_shape_of(&c->el[big]);
		if (ct_run(c, i, s, mask, CT_PART_BLOCKS))
			return i;
		if (!deep || l == CT_WRAP_LEVELS || c->el[big].text < CT_WRAP_SHARE * c->el[i].text)
			return CT_NONE;
		i = big;
	}
}

/* The length of a space or a no-break space at s[at..n), else 0. */
static size_t
ct_space(const char *s, size_t n, size_t at)
{
	return at < n && s[at] == ' ' ? 1 :
	       at + 1 < n && s[at] == '\xc2' && s[at + 1] == '\xa0' ? 2 : 0;
}

/* Whether s[0..n) shows a price: a currency sign ($, euro, pound, yen,
 * rupee) with a digit before it or after it, a space (or a no-break
 * space) between at most: "$24", "24,00 €". */
static int
ct_price(const char *s, size_t n)
{
	static const char *const signs[] = {
		"$", "\xe2\x82\xac", "\xc2\xa3", "\xc2\xa5", "\xe2\x82\xb9",
	};
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '$' && s[i] != '\xc2' && s[i] != '\xe2')
			continue;
		for (size_t k = 0; k < sizeof signs / sizeof signs[0]; k++) {
			size_t m = strlen(signs[k]), a = i + m, b = i;
			if (a > n || memcmp(s + i, signs[k], m) != 0)
				continue;
			a += ct_space(s, n, a);
			if (b > 0 && s[b - 1] == ' ')
				b--;
			else if (b > 1 && ct_space(s, n, b - 2) == 2)
				b -= 2;
			if ((b > 0 && (unsigned)(s[b - 1] - '0') < 10) ||
			    (a < n && (unsigned)(s[a] - '0') < 10))
				return 1;
		}
	}
	return 0;
}

/* Whether most of the first CT_PRICE_LOOK parts of shape s in a show a
 * price (ct_price). */
static int
ct_priced(content *c, uint32_t a, const ct_shape *s, uint32_t mask)
{
	unsigned n = 0, priced = 0;
	for (uint32_t k = a + 1; k < c->el[a].end && n < CT_PRICE_LOOK; k = c->el[k].end)
		if (ct_part_of(c, k, s, mask, CT_PART_BLOCKS)) {
			const pbuf *t = ct_block_text(c, k);
			n++;
			priced += ct_price(t->p, t->len);
		}
	return 2 * priced > n;
}

/* When element i is a grid of cards (a run of parts it holds,
 * ct_inner_run: a card's title, price and button; a menu's items hold
 * a link each), marks it, the wrappers down to its cards and the cards
 * CT_INPART (ct_mark_run); where ct_priced_only says so, only a grid
 * of priced cards: a shop's, not an article's links to others, and
 * what it holds CT_PRICED. */
static void
ct_grid(content *c, uint32_t i, uint32_t mask)
{
	ct_shape s;
	uint32_t in = ct_inner_run(c, i, mask, 1, &s);
	int priced = ct_priced_only(c);
	if (in == CT_NONE || (priced && !ct_priced(c, in, &s, mask)))
		return;
	ct_mark_run(c, in, &s, mask, CT_PART_BLOCKS);
	if (priced)
		for (uint32_t d = in; d < c->el[in].end; d++)
			c->el[d].flags |= CT_PRICED;
	for (uint32_t a = in; a != i; a = c->el[a].parent)
		c->el[a].flags |= CT_INPART;
	c->el[i].flags |= CT_INPART;
}

/* The parts of a block that holds a run of posts or cards rather than
 * being one of them (ct_repeat looks up from the block, this into it):
 * the run ct_inner_run finds, as ct_mark_run marks it.  Not through
 * wrappers on a thread: parts are kept whole, and a post's own
 * furniture (its author's box, its signature, its buttons) goes only
 * when the post is not one. */
static void
ct_inner_parts(content *c, uint32_t root, uint32_t mask)
{
	ct_shape s;
	uint32_t in = ct_inner_run(c, root, mask, !(c->kind & CONTENT_THREAD), &s);
	if (in != CT_NONE)
		ct_mark_run(c, in, &s, mask, CT_PART_BLOCKS);
}

/* Writes the main content found with the flags as they are to b;
 * returns whether a block was found. */
static int
ct_extract(content *c, pbuf *b)
{
	pbuf_reset(b);
	c->start = 0;
	uint32_t best = ct_best(c);
	if (best == CT_NONE)
		return 0;
	/* A strong hint around the best block widens it to the whole
	 * article (its title and every part of its body). */
	uint32_t root = best;
	for (uint32_t a = best; a != CT_NONE && a != c->body; a = c->el[a].parent)
		if (c->el[a].flags & CT_HINT) {
			root = a;
			break;
		}
	/* A manual's page is its <main> whole: its sections of reference
	 * (lists of a name and a line each) score low beside its
	 * introduction. */
	if (c->kind & CONTENT_DOCS)
		for (uint32_t a = root; a != CT_NONE && a != c->body; a = c->el[a].parent)
			if (c->el[a].flags & CT_MAIN) {
				root = a;
				break;
			}
	uint32_t mask = CT_HIDE | CT_BOILTAG | CT_BOILCLS;
	/* The block is one post or card of many, or one section of a
	 * manual's many alike (AsciiDoc's sect1), or of a page saying
	 * nothing of itself, each under its heading (an article's
	 * paragraphs, each in its <div>, are alike but not headed): the
	 * content is all of them. */
	int rep = 0;
	if (c->kind & (CONTENT_PARTS | CONTENT_DOCS | CONTENT_UNSAID)) {
		uint32_t a = ct_repeat(c, root, mask,
				       (c->kind & (CONTENT_PARTS | CONTENT_DOCS)) ? 0 : CT_PART_HEADED);
		if (a != CT_NONE)
			root = a, rep = 1;
		else if (c->kind & CONTENT_PARTS)
			ct_inner_parts(c, root, mask);
	}
	/* A page of many parts (posts, cards, a product's sections) has
	 * them under its title: the content is what holds the title
	 * heading and the best block, from that heading on. */
	uint32_t h = c->titleh;
	if ((c->kind & CONTENT_PARTS) && h != CT_NONE) {
		while (root != c->body && !(root <= h && h < c->el[root].end))
			root = c->el[root].parent;
		c->start = h;
	}
	/* readability's siblings: parts of the article split across blocks
	 * next to the best one (top).  On a thread whose root rose above
	 * the best block, next to the root: the replies beside an opening
	 * post (Vanilla's comments after the discussion). */
	uint32_t top = best;
	int one = root != best || c->el[best].parent == CT_NONE;
	if (one && (c->kind & CONTENT_THREAD) && root != c->body && c->el[root].parent != CT_NONE) {
		one = 0;
		top = root;
	}
	const ct_el *be = &c->el[best];
	float th = be->score * CT_SIBLING_SHARE > CT_SIBLING_MIN ? be->score * CT_SIBLING_SHARE :
		   CT_SIBLING_MIN;
	uint32_t par = one ? root : c->el[top].parent;
	uint32_t from = one ? root : par + 1, to = one ? root + 1 : c->el[par].end;
	/* Twice: the blocks of every part first, to trim the edges of the
	 * whole, then the text. */
	c->nblk = 0;
	/* The lead: prose between the title heading (else the last h1
	 * above the content) and the content (a standfirst in a block of
	 * its own above the body). */
	uint32_t anchor = c->titleh;
	if (anchor == CT_NONE)
		for (uint32_t i = from; i-- > 0;)
			if (tree_tag(c->el[i].n) == GUMBO_TAG_H1) {
				anchor = i;
				break;
			}
	/* A title heading among the content's siblings: what lies between
	 * it and the best block is the lead, not siblings to score. */
	uint32_t skipfrom = 0, skipto = 0;
	if (anchor != CT_NONE && c->el[anchor].end <= from)
		ct_blocks(c, c->el[anchor].end, from, mask, 1);
	else if (anchor != CT_NONE && !one && c->el[anchor].parent == par && anchor < top) {
		ct_blocks(c, c->el[anchor].end, top, mask, 1);
		skipfrom = anchor + 1, skipto = top;
	}
	uint32_t nlead = c->nblk;
	/* The page's questions and answers after the content, outside it,
	 * are content too (a service page's FAQ below its sections). */
	uint32_t faq = c->faq;
	c->tr[c->tr_cur].faq = faq != CT_NONE && root >= faq && root < c->el[faq].end;
	if (faq != CT_NONE && (faq <= best || (faq >= root && faq < c->el[root].end) ||
			       (c->el[faq].flags & (mask | CT_INBOIL))))
		faq = CT_NONE;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t k = 0; pass == 1 && k < nlead; k++)
			if (!(c->el[c->blk[k]].flags & CT_DROP))
				ct_text(c, c->blk[k], b, mask | CT_DROP, CT_DENSE);
		for (uint32_t i = from; i < to; i = c->el[i].end) {
			const ct_el *e = &c->el[i];
			int take = one || i == top;
			if (!take && !(e->flags & mask)) {
				float d = ct_density(e);
				if ((e->flags & CT_SCORED) && e->score >= th && !ct_teasers(c, e))
					take = 1;
				else if ((tree_tag(e->n) == GUMBO_TAG_P ||
					  ((c->kind & CONTENT_THREAD) && (e->flags & CT_CMT))) &&
					 e->text > CT_SIBLING_PARA && d < CT_SIBLING_LINKS)
					take = 1;   /* a paragraph, or a thread's replies */
			}
			if (!take || (e->flags & CT_DROP) || (i >= skipfrom && i < skipto))
				continue;
			if (i <= faq && faq < e->end)
				faq = CT_NONE;
			if (pass == 0)
				ct_blocks(c, i, c->el[i].end, mask, 0);
			else  /* a listing's cards, a manual's links to its
			       * chapters, are its content */
				ct_text(c, i, b, mask | CT_DROP,
					(c->kind & (CONTENT_ITEMS | CONTENT_DOCS)) ? CT_CARDS : CT_DENSE);
		}
		/* The edges of a page of parts are parts too: a price, a
		 * specification table, the last card. */
		if (pass == 0 && !(c->kind & CONTENT_PARTS) && !rep)
			ct_trim(c);
	}
	if (faq != CT_NONE)
		ct_text(c, faq, b, mask, CT_DENSE);
	c->start = 0;
	return 1;
}

/* A page that shows almost nothing but holds text in <noscript> is
 * built by scripts, and serves its content to browsers without them
 * (and to crawlers) there: it is read as such a browser reads it, from
 * the <noscript> holding the most text.  A line asking for JavaScript
 * is no content: the noscript text must be CT_MIN_MAIN or more. */
static void
ct_noscript(content *c, const GumboOutput *out)
{
	if (c->el[c->body].text >= CT_MIN_MAIN || c->nstext < CT_MIN_MAIN ||
	    c->nstext <= c->el[c->body].text)
		return;
	c->ns = 1;
	ct_collect(c, out);
	uint32_t best = CT_NONE;
	for (uint32_t i = c->body; i < c->el[c->body].end; i++)
		if (tree_tag(c->el[i].n) == GUMBO_TAG_NOSCRIPT &&
		    (best == CT_NONE || c->el[i].text > c->el[best].text))
			best = i;
	if (best != CT_NONE)
		c->body = best;
}

/* consent_notices' answer: a cookie notice is hidden from every
 * attempt, however much of the page it holds (parser/consent.h).  The
 * notices come in document order, as the elements are: each is looked
 * for from the last one on (and then from the start, for one holding
 * it), so a page of thousands costs one pass. */
typedef struct ct_notices {
	content *c;
	uint32_t at;
} ct_notices;

static void
ct_consent(const GumboNode *n, void *arg)
{
	ct_notices *h = arg;
	content *c = h->c;
	for (uint32_t k = 0; k < c->nel; k++) {
		uint32_t i = (h->at + k) % c->nel;
		if (c->el[i].n == n) {
			c->el[i].flags |= CT_HIDE;
			h->at = i;
			return;
		}
	}
}

static void ct_rules(content *c, const GumboOutput *out, pbuf *b);

void
content_main(content *c, const GumboOutput *out, int kind, pbuf *b)
{
	pbuf_reset(b);
	c->kind = kind;
	ct_rules(c, out, b);
	/* The rules look for one text; a page of many parts (or one that
	 * does not say it is an article) whose rules kept a small share of
	 * what it shows kept one part: the content is the body without
	 * furniture and menus, its lists of cards kept.  What it shows
	 * counts those cards (a thread's, a service page's sections),
	 * except on a listing, a collection or a product's page, where
	 * the alike-siblings rule has found them (a grid of products) when
	 * they are the content.  On a page that says it is an article (as
	 * many a listing does: og:type article is a CMS's default) the
	 * rules kept one part only when they kept under CT_ARTICLE_SHARE,
	 * or CT_UNTYPED_SHARE when no schema.org type says so (its
	 * og:type, an <article>, its code or its URL do).  An article in a
	 * feed is the text under its title heading, unless that is too
	 * short for one (a list of features under a product's name). */
	if (c->body == CT_NONE ||
	    (!(kind & CONTENT_PARTS) && c->tr[c->tr_kept].feed && b->len >= CT_ENOUGH &&
	     !c->tr[c->tr_kept].faq))
		return;
	double share = c->tr[c->tr_kept].faq ? 1 :
		       (kind & (CONTENT_PARTS | CONTENT_UNSAID)) ? CT_BODY_SHARE :
		       (kind & CONTENT_UNTYPED) ? CT_UNTYPED_SHARE : CT_ARTICLE_SHARE;
	/* All the body's text bounds what it shows: most pages need not
	 * be walked again. */
	if ((double)b->len >= share * (double)c->el[c->body].bytes)
		return;
	ct_mark(c, 1);
	pbuf_reset(&c->first);
	c->notrace = 1;
	c->quotes = c->repeats = 0;
	ct_text(c, c->body, &c->first, CT_HIDE | CT_BOILTAG | CT_BOILCLS,
		(kind & (CONTENT_ITEMS | CONTENT_PRODUCT)) ? CT_DENSE : CT_CARDS);
	c->notrace = 0;
	if ((double)b->len >= share * (double)c->first.len)
		return;
	pbuf_reset(b);
	ct_trace_start(c, 1);
	ct_text(c, c->body, b, CT_HIDE | CT_BOILTAG | CT_BOILCLS, CT_CARDS);
}

/* The rules of docs/parse.md's "Main content", steps 1 to 8. */
static void
ct_rules(content *c, const GumboOutput *out, pbuf *b)
{
	ct_trace_start(c, 0);
	c->ns = c->shown = 0;
	ct_collect(c, out);
	if (c->body == CT_NONE)
		return;
	ct_noscript(c, out);
	consent_notices(out, ct_consent, &(ct_notices){ c, 0 });
	ct_title(c);
	ct_heading_boxes(c);
	ct_comments(c);
	/* As readability does: when names mislead (a wrapper called
	 * "has-sidebar"), try again without them, and take the longer of
	 * two short texts. */
	ct_mark(c, 1);
	ct_extract(c, b);
	if (b->len >= CT_ENOUGH)
		return;
	pbuf_reset(&c->first);
	pbuf_put(&c->first, b->p ? b->p : "", b->len);
	ct_trace_start(c, 1);
	ct_mark(c, 0);
	ct_extract(c, b);
	if (b->len < c->first.len) {
		pbuf_reset(b);
		pbuf_put(b, c->first.p, c->first.len);
		c->tr_kept = 0;
	}
	if (b->len >= CT_MIN_MAIN)
		return;
	/* Not an article: the body's text, without what is named or
	 * tagged as furniture; a page whose every block is named so gives
	 * its whole body rather than nothing. */
	pbuf_reset(b);
	ct_trace_start(c, 1);
	ct_mark(c, 1);
	ct_text(c, c->body, b, CT_HIDE | CT_BOILTAG | CT_BOILCLS, CT_LINKS);
	if (b->len >= CT_MIN_MAIN)
		return;
	pbuf_reset(b);
	ct_trace_start(c, 1);
	ct_text(c, c->body, b, CT_HIDE | CT_BOILTAG, CT_LINKS);
	/* Nothing shown, or under CT_MIN_MAIN shown but CT_ENOUGH hidden:
	 * the rest waits for a script to show it. */
	uint32_t big;
	if (b->len == 0 || (b->len < CT_MIN_MAIN && ct_hidden_text(c, &big) >= CT_ENOUGH))
		ct_unhide(c, b);
}

/* The text of the body's hidden elements (the outermost of each
 * subtree); *big: the one holding the most, or CT_NONE. */
static uint32_t
ct_hidden_text(const content *c, uint32_t *big)
{
	uint32_t n = 0;
	*big = CT_NONE;
	for (uint32_t i = c->body + 1; i < c->el[c->body].end;) {
		const ct_el *e = &c->el[i];
		if (!(e->flags & CT_HIDE)) {
			i++;
			continue;
		}
		n += e->text;
		if (*big == CT_NONE || e->text > c->el[*big].text)
			*big = i;
		i = e->end;
	}
	return n;
}

/* The last steps of "never empty": under CT_MIN_MAIN of the body's
 * text is shown, the rest is hidden by an attribute or is furniture.
 * A page built by scripts often
 * holds its content hidden until a script shows it (a framework
 * streaming it into a hidden <div>, an anti-flicker wrapper): the rules
 * run again reading hidden elements as shown, then the body's text
 * without furniture, then all of it, as `text` has it. */
static void
ct_unhide(content *c, pbuf *b)
{
	pbuf_reset(b);
	c->shown = 1;
	for (uint32_t i = 0; i < c->nel; i++)
		c->el[i].flags &= ~(uint32_t)CT_HIDE;
	ct_trace_start(c, 1);
	ct_mark(c, 1);
	ct_extract(c, b);
	if (b->len >= CT_MIN_MAIN)
		return;
	pbuf_reset(b);
	ct_trace_start(c, 1);
	ct_text(c, c->body, b, CT_BOILTAG | CT_BOILCLS, CT_LINKS);
	if (b->len)
		return;
	ct_trace_start(c, 1);
	ct_text(c, c->body, b, 0, CT_LINKS);
}

/* ---- The choice, for other writers (parse --markdown) ----
 *
 * Kept apart from the scoring: ct_text notes each subtree it writes
 * (ct_note_root), ct_skip_fn each element it leaves out (ct_note_skip),
 * ct_repeat and ct_inner_parts each part they find (ct_note_part), and
 * content_main starts a trace per attempt (ct_trace_start) and says
 * which attempt it kept.  The lists are element indexes in document
 * order. */

/* Starts attempt's trace (0 or 1) empty and makes it the kept one. */
static void
ct_trace_start(content *c, int attempt)
{
	c->tr_cur = c->tr_kept = attempt;
	c->quotes = c->repeats = 0;
	for (int k = attempt; k < 2; k++) {
		c->tr[k].nroots = c->tr[k].nskips = c->tr[k].nparts = 0;
		c->tr[k].feed = c->tr[k].faq = 0;
	}
}

/* Appends i to list (n entries, room for cap). */
static void
ct_note(uint32_t **list, uint32_t *n, uint32_t *cap, uint32_t i)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*list = xrealloc(*list, *cap * sizeof **list);
	}
	(*list)[(*n)++] = i;
}

static void
ct_note_root(content *c, uint32_t i)
{
	if (c->notrace)
		return;
	struct ct_trace *t = &c->tr[c->tr_cur];
	ct_note(&t->roots, &t->nroots, &t->caproots, i);
}

static void
ct_note_skip(content *c, uint32_t i)
{
	if (c->notrace)
		return;
	struct ct_trace *t = &c->tr[c->tr_cur];
	ct_note(&t->skips, &t->nskips, &t->capskips, i);
}

/* The parts are noted rather than flagged: the flags are those of the
 * last attempt (content_main marks again after the rules), which need
 * not be the one kept. */
static void
ct_note_part(content *c, uint32_t i)
{
	struct ct_trace *t = &c->tr[c->tr_cur];
	ct_note(&t->parts, &t->nparts, &t->capparts, i);
}

size_t
content_nroots(const content *c)
{
	return c->tr[c->tr_kept].nroots;
}

const GumboNode *
content_root(const content *c, size_t i)
{
	return c->el[c->tr[c->tr_kept].roots[i]].n;
}

int
content_skipped(const content *c, content_cur *k, const GumboNode *n)
{
	const struct ct_trace *t = &c->tr[c->tr_kept];
	uint32_t i = k->el;
	while (i < c->nel && c->el[i].n != n)
		i++;
	if (i == c->nel)
		return 0;
	while (k->skip < t->nskips && t->skips[k->skip] < i)
		k->skip++;
	int skip = k->skip < t->nskips && t->skips[k->skip] == i;
	k->el = skip ? c->el[i].end : i + 1;
	return skip;
}

int
content_part(const content *c, content_cur *k, const GumboNode *n)
{
	const struct ct_trace *t = &c->tr[c->tr_kept];
	/* content_skipped left k just past n. */
	if (k->el == 0 || c->el[k->el - 1].n != n)
		return 0;
	uint32_t i = k->el - 1;
	while (k->part < t->nparts && t->parts[k->part] < i)
		k->part++;
	if (k->part == t->nparts || t->parts[k->part] != i)
		return 0;
	return (c->kind & CONTENT_THREAD) ? CONTENT_POST :
	       (c->kind & CONTENT_ITEMS) ? CONTENT_ITEM : 0;
}

int
content_toggle(const content *c, const GumboNode *n)
{
	for (unsigned i = 0; c && i < c->ntoggles; i++)
		if (c->toggles[i] == n)
			return 1;
	return 0;
}

int
content_hidden(const content *c, const GumboNode *n)
{
	if (c && c->shown)
		return 0;
	/* One pass over the attributes: this runs for every element of
	 * the Markdown walk. */
	const GumboVector *v = &n->v.element.attributes;
	int hidden = 0;
	for (unsigned i = 0; i < v->length; i++) {
		int h = ct_attr_hides(v->data[i]);
		if (h < 0)
			return 0;
		hidden |= h;
	}
	for (unsigned i = 0; hidden && c && i < c->npanels; i++)
		if (c->panels[i] == n)
			return 0;
	return hidden;
}
