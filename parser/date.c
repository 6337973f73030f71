#include "date.h"

#include <string.h>
#include <time.h>

/* A date is read as a short run of tokens: numbers, words (letters of
 * any script, so 年 and März are words) and single punctuation marks;
 * spaces only separate them, but each token knows whether one came
 * before it, since 2024-03-05 must be written without. */
enum { T_END, T_NUM, T_WORD, T_PUNCT };

typedef struct tok {
	int kind;
	size_t at, len;   /* in the text */
	int sp;           /* whitespace before it */
	long v;           /* T_NUM: its value (saturated), T_PUNCT: the byte */
} tok;

/* The most tokens one date with its time and zone spans. */
#define DATE_TOKS 24

/* Bytes of a UTF-8 sequence led by c (1 for a stray byte). */
static size_t
seq_len(unsigned char c)
{
	return c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
}

/* What the UTF-8 sequence at s[0..m) is: 's' a space (no-break and
 * Unicode spaces), 'p' punctuation (Latin-1's, dashes and quotes,
 * CJK punctuation), else 'l' a letter. */
static int
seq_class(const unsigned char *s, size_t m)
{
	if (m == 2 && s[0] == 0xc2)
		return s[1] == 0xa0 ? 's' : s[1] == 0xaa || s[1] == 0xba ? 'l' : 'p';
	if (m == 3 && s[0] == 0xe2 && s[1] == 0x80)
		return s[2] <= 0x8a || s[2] == 0xaf ? 's' : 'p';
	if (m == 3 && s[0] == 0xe3 && s[1] == 0x80)
		return s[2] == 0x80 ? 's' : 'p';
	return 'l';
}

static int
is_ascii_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int
is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Reads the token at or after s[i]; T_END at the end of s. */
static tok
tok_read(const char *str, size_t n, size_t i)
{
	const unsigned char *s = (const unsigned char *)str;
	tok t = { .kind = T_END, .at = n };
	for (; i < n; ) {
		if (is_ascii_space(s[i])) {
			t.sp = 1, i++;
			continue;
		}
		size_t m = seq_len(s[i]);
		if (m > 1 && i + m <= n && seq_class(s + i, m) == 's') {
			t.sp = 1, i += m;
			continue;
		}
		break;
	}
	if (i >= n)
		return t;
	t.at = i;
	if (s[i] >= '0' && s[i] <= '9') {
		t.kind = T_NUM;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			t.v = t.v < 100000000 ? t.v * 10 + (s[i] - '0') : t.v;
		t.len = i - t.at;
		return t;
	}
	size_t m = seq_len(s[i]);
	if (s[i] < 0x80 ? !is_alpha(s[i]) : i + m > n || seq_class(s + i, m) == 'p') {
		t.kind = T_PUNCT;
		t.v = s[i];
		t.len = s[i] < 0x80 || i + m > n ? 1 : m;
		return t;
	}
	t.kind = T_WORD;
	while (i < n) {
		if (s[i] < 0x80) {
			if (!is_alpha(s[i]))
				break;
			i++;
			continue;
		}
		m = seq_len(s[i]);
		if (i + m > n || seq_class(s + i, m) != 'l')
			break;
		i += m;
	}
	t.len = i - t.at;
	return t;
}

/* Whether word t is w (lowercase ASCII, or UTF-8 whose Latin-1 capitals
 * are lowered here: März, DÉC.). */
static int
word_is(const char *s, const tok *t, const char *w)
{
	size_t wn = strlen(w);
	if (t->kind != T_WORD || t->len != wn)
		return 0;
	const unsigned char *p = (const unsigned char *)s + t->at;
	for (size_t i = 0; i < wn; i++) {
		unsigned char c = p[i];
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c + 32);
		else if (i > 0 && p[i - 1] == 0xc3 && c >= 0x80 && c <= 0x9e && c != 0x97)
			c = (unsigned char)(c + 32);
		if (c != (unsigned char)w[i])
			return 0;
	}
	return 1;
}

/* Whether word t starts with the UTF-8 w: a CJK date's 年, written
 * without a space before the words after it. */
static int
word_starts(const char *s, const tok *t, const char *w)
{
	size_t wn = strlen(w);
	return t->kind == T_WORD && t->len >= wn && memcmp(s + t->at, w, wn) == 0;
}

/* Month names and abbreviations, lowercase.  English words that are
 * also abbreviations elsewhere (Portuguese "set", "out") are left out:
 * "5 set 2024" in English text is no date. */
static const struct { const char *name; int month; } months[] = {
	{ "january", 1 }, { "jan", 1 }, { "february", 2 }, { "feb", 2 },
	{ "march", 3 }, { "mar", 3 }, { "april", 4 }, { "apr", 4 }, { "may", 5 },
	{ "june", 6 }, { "jun", 6 }, { "july", 7 }, { "jul", 7 }, { "august", 8 },
	{ "aug", 8 }, { "september", 9 }, { "sep", 9 }, { "sept", 9 },
	{ "october", 10 }, { "oct", 10 }, { "november", 11 }, { "nov", 11 },
	{ "december", 12 }, { "dec", 12 },
	/* German */
	{ "januar", 1 }, { "jänner", 1 }, { "februar", 2 }, { "märz", 3 }, { "mär", 3 },
	{ "mai", 5 }, { "juni", 6 }, { "juli", 7 }, { "oktober", 10 }, { "okt", 10 },
	{ "dezember", 12 }, { "dez", 12 },
	/* French */
	{ "janvier", 1 }, { "janv", 1 }, { "février", 2 }, { "févr", 2 }, { "mars", 3 },
	{ "avril", 4 }, { "avr", 4 }, { "juin", 6 }, { "juillet", 7 }, { "juil", 7 },
	{ "août", 8 }, { "septembre", 9 }, { "octobre", 10 }, { "novembre", 11 },
	{ "décembre", 12 }, { "déc", 12 },
	/* Spanish */
	{ "enero", 1 }, { "ene", 1 }, { "febrero", 2 }, { "marzo", 3 }, { "abril", 4 },
	{ "abr", 4 }, { "mayo", 5 }, { "junio", 6 }, { "julio", 7 }, { "agosto", 8 },
	{ "ago", 8 }, { "septiembre", 9 }, { "setiembre", 9 }, { "octubre", 10 },
	{ "noviembre", 11 }, { "diciembre", 12 }, { "dic", 12 },
	/* Italian */
	{ "gennaio", 1 }, { "gen", 1 }, { "febbraio", 2 }, { "aprile", 4 },
	{ "maggio", 5 }, { "giugno", 6 }, { "luglio", 7 }, { "lug", 7 },
	{ "settembre", 9 }, { "ottobre", 10 }, { "ott", 10 }, { "dicembre", 12 },
	/* Portuguese */
	{ "janeiro", 1 }, { "fevereiro", 2 }, { "fev", 2 }, { "março", 3 },
	{ "maio", 5 }, { "junho", 6 }, { "julho", 7 }, { "setembro", 9 },
	{ "outubro", 10 }, { "novembro", 11 }, { "dezembro", 12 },
	/* Dutch */
	{ "januari", 1 }, { "februari", 2 }, { "maart", 3 }, { "mrt", 3 },
	{ "mei", 5 }, { "augustus", 8 },
};

/* The months' entries by first letter: those of letter c are
 * by_letter[from[c - 'a']] up to by_letter[from[c - 'a' + 1]].  Every
 * word of a text is looked up, so the table is not walked whole. */
#define DATE_NMONTHS (sizeof months / sizeof months[0])
static unsigned char by_letter[DATE_NMONTHS];
static unsigned char from[27];

static void
index_months(void)
{
	size_t k = 0;
	for (int c = 'a'; c <= 'z'; c++) {
		from[c - 'a'] = (unsigned char)k;
		for (size_t i = 0; i < DATE_NMONTHS; i++)
			if (months[i].name[0] == c)
				by_letter[k++] = (unsigned char)i;
	}
	from[26] = (unsigned char)k;
}

/* The month word t names (1 to 12), or 0. */
static int
month_of(const char *s, const tok *t)
{
	if (t->kind != T_WORD || t->len < 3 || t->len > 11)
		return 0;
	if (!from[26])
		index_months();
	unsigned char c = (unsigned char)s[t->at];
	if (c >= 'A' && c <= 'Z')
		c = (unsigned char)(c + 32);
	if (c < 'a' || c > 'z')
		return 0;
	for (int k = from[c - 'a']; k < from[c - 'a' + 1]; k++)
		if (word_is(s, t, months[by_letter[k]].name))
			return months[by_letter[k]].month;
	return 0;
}

static int
leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Whether y-m-d is a day of the calendar with min_year <= y <= 2099. */
static int
valid_day(int y, int m, int d, int min_year)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (y < min_year || y > 2099 || m < 1 || m > 12 || d < 1)
		return 0;
	return d <= mdays[m - 1] + (m == 2 && leap(y));
}

/* A run of tokens read ahead from one position of the text. */
typedef struct run {
	const char *s;
	size_t n;
	tok t[DATE_TOKS];
	int nt;
} run;

/* Reads up to DATE_TOKS tokens from s[i]. */
static void
run_read(run *r, const char *s, size_t n, size_t i)
{
	r->s = s, r->n = n, r->nt = 0;
	while (r->nt < DATE_TOKS) {
		tok t = tok_read(s, n, i);
		if (t.kind == T_END)
			break;
		r->t[r->nt++] = t;
		i = t.at + t.len;
	}
}

/* Token k of r, or an end token. */
static const tok *
run_tok(const run *r, int k)
{
	static const tok end = { .kind = T_END };
	return k < r->nt ? &r->t[k] : &end;
}

static int
is_num(const tok *t, int min_digits, int max_digits)
{
	return t->kind == T_NUM && (int)t->len >= min_digits && (int)t->len <= max_digits;
}

static int
is_punct(const tok *t, int c)
{
	return t->kind == T_PUNCT && t->v == c;
}

/* A date found: y-m-d and, when tm, the time with its zone. */
typedef struct when {
	int y, m, d;
	int tm, hh, mi, ss, off;   /* off: minutes east of UTC */
	int end;                   /* the token after it */
} when;

/* Reads a time and zone from token k of r ("10:00", "10:00:00.123",
 * then Z, UTC, GMT, +01:00, +0100, -05); sets w's time when both are
 * there, and w->end past them. */
static void
read_time(const run *r, int k, when *w)
{
	const tok *h = run_tok(r, k);
	if (!is_num(h, 1, 2) || !is_punct(run_tok(r, k + 1), ':') || run_tok(r, k + 1)->sp ||
	    !is_num(run_tok(r, k + 2), 2, 2) || run_tok(r, k + 2)->sp)
		return;
	int hh = (int)h->v, mi = (int)run_tok(r, k + 2)->v, ss = 0;
	k += 3;
	if (is_punct(run_tok(r, k), ':') && !run_tok(r, k)->sp && is_num(run_tok(r, k + 1), 2, 2) &&
	    !run_tok(r, k + 1)->sp) {
		ss = (int)run_tok(r, k + 1)->v;
		k += 2;
		if (is_punct(run_tok(r, k), '.') && !run_tok(r, k)->sp && is_num(run_tok(r, k + 1), 1, 9))
			k += 2;
	}
	if (hh > 23 || mi > 59 || ss > 60)
		return;
	const tok *z = run_tok(r, k);
	int off;
	if (!z->sp && (word_is(r->s, z, "z")))
		off = 0, k++;
	else if (word_is(r->s, z, "utc") || word_is(r->s, z, "gmt"))
		off = 0, k++;
	else if ((is_punct(z, '+') || is_punct(z, '-')) && is_num(run_tok(r, k + 1), 2, 4) &&
		 !run_tok(r, k + 1)->sp) {
		const tok *o = run_tok(r, k + 1);
		int oh, om = 0;
		if (o->len == 4)
			oh = (int)o->v / 100, om = (int)o->v % 100, k += 2;
		else if (o->len == 2 && is_punct(run_tok(r, k + 2), ':') &&
			 is_num(run_tok(r, k + 3), 2, 2))
			oh = (int)o->v, om = (int)run_tok(r, k + 3)->v, k += 4;
		else if (o->len == 2)
			oh = (int)o->v, k += 2;
		else
			return;
		if (oh > 14 || om > 59)
			return;
		off = (oh * 60 + om) * (is_punct(z, '-') ? -1 : 1);
	} else {
		return;
	}
	w->tm = 1, w->hh = hh, w->mi = mi, w->ss = ss, w->off = off;
	w->end = k;
}

/* Whether word t is an ordinal's ending after a day: 5th, 1er, 1º. */
static int
ordinal(const char *s, const tok *t)
{
	return !t->sp && (word_is(s, t, "st") || word_is(s, t, "nd") || word_is(s, t, "rd") ||
			  word_is(s, t, "th") || word_is(s, t, "er") ||
			  word_starts(s, t, "\xc2\xba"));
}

/* y-m-d from numbers a/b/y written with separator c: dots are day
 * first; else a number above 12 says which is the day; else order. */
static void
numeric_order(long a, long b, int c, int order, int *m, int *d)
{
	if (c == '.' || a > 12 || (b <= 12 && order == DATE_DMY))
		*d = (int)a, *m = (int)b;
	else
		*m = (int)a, *d = (int)b;
}

/* Reads a date starting at token 0 of r; 1 with w filled, else 0.
 * value: r is the start of a metadata value, not running text, where
 * a year may come before a month's name ("2023 Jan 7"): in text that
 * is a headline's year and the date under it ("Best of 2024 / March
 * 5, 2024"). */
static int
read_date(const run *r, int order, int min_year, int value, when *w)
{
	const char *s = r->s;
	const tok *t0 = run_tok(r, 0), *t1 = run_tok(r, 1), *t2 = run_tok(r, 2),
		  *t3 = run_tok(r, 3), *t4 = run_tok(r, 4), *t5 = run_tok(r, 5);
	memset(w, 0, sizeof *w);
	int k;
	if (is_num(t0, 4, 4)) {
		/* 2024-03-05, 2024/03/05, 2024.03.05 */
		if (t1->kind == T_PUNCT && (t1->v == '-' || t1->v == '/' || t1->v == '.') &&
		    !t1->sp && is_num(t2, 1, 2) && !t2->sp && is_punct(t3, (int)t1->v) &&
		    !t3->sp && is_num(t4, 1, 2) && !t4->sp) {
			w->y = (int)t0->v, w->m = (int)t2->v, w->d = (int)t4->v;
			w->end = 5;
			if (t1->v == '-') {
				/* The time after a T or one space. */
				const tok *t = run_tok(r, 5);
				if (word_is(s, t, "t") && !t->sp)
					read_time(r, 6, w);
				else
					read_time(r, 5, w);
			}
			return valid_day(w->y, w->m, w->d, min_year);
		}
		/* 2024年3月5日, 2024년 3월 5일 */
		int cjk = word_starts(s, t1, "\xe5\xb9\xb4");
		int ko = word_starts(s, t1, "\xeb\x85\x84");
		if ((cjk || ko) && is_num(t2, 1, 2) && is_num(t4, 1, 2) &&
		    word_starts(s, t3, cjk ? "\xe6\x9c\x88" : "\xec\x9b\x94") &&
		    word_starts(s, t5, cjk ? "\xe6\x97\xa5" : "\xec\x9d\xbc")) {
			w->y = (int)t0->v, w->m = (int)t2->v, w->d = (int)t4->v;
			w->end = 6;
			return valid_day(w->y, w->m, w->d, min_year);
		}
		/* 2023 Jan 7: the order of PubMed's and citation_*'s dates */
		int m = value ? month_of(s, t1) : 0;
		if (m && t1->sp && is_num(t2, 1, 2) && t2->sp) {
			w->y = (int)t0->v, w->m = m, w->d = (int)t2->v;
			w->end = 3;
			return valid_day(w->y, w->m, w->d, min_year);
		}
		return 0;
	}
	if (is_num(t0, 1, 2)) {
		/* 05/03/2024, 5.3.2024, 05-03-2024 */
		if (t1->kind == T_PUNCT && (t1->v == '/' || t1->v == '.' || t1->v == '-') &&
		    !t1->sp && is_num(t2, 1, 2) && !t2->sp && is_punct(t3, (int)t1->v) &&
		    !t3->sp && is_num(t4, 4, 4) && !t4->sp) {
			numeric_order(t0->v, t2->v, (int)t1->v, order, &w->m, &w->d);
			w->y = (int)t4->v;
			w->end = 5;
			read_time(r, 5, w);
			return valid_day(w->y, w->m, w->d, min_year);
		}
		/* 5 March 2024, 5th of March, 2024, 5. März 2024,
		 * 5 de marzo de 2024 */
		k = 1;
		if (is_punct(run_tok(r, k), '.') && !run_tok(r, k)->sp)
			k++;
		else if (ordinal(s, run_tok(r, k)))
			k++;
		if (word_is(s, run_tok(r, k), "of") || word_is(s, run_tok(r, k), "de"))
			k++;
		int m = month_of(s, run_tok(r, k));
		if (!m)
			return 0;
		k++;
		if (is_punct(run_tok(r, k), '.') && !run_tok(r, k)->sp)
			k++;
		if (word_is(s, run_tok(r, k), "de") || is_punct(run_tok(r, k), ','))
			k++;
		if (!is_num(run_tok(r, k), 4, 4))
			return 0;
		w->y = (int)run_tok(r, k)->v, w->m = m, w->d = (int)t0->v;
		w->end = k + 1;
		read_time(r, k + 1, w);
		return valid_day(w->y, w->m, w->d, min_year);
	}
	/* March 5, 2024; Mar. 5th 2024 */
	int m = month_of(s, t0);
	if (!m)
		return 0;
	k = 1;
	if (is_punct(run_tok(r, k), '.') && !run_tok(r, k)->sp)
		k++;
	const tok *d = run_tok(r, k);
	if (!is_num(d, 1, 2))
		return 0;
	k++;
	if (ordinal(s, run_tok(r, k)))
		k++;
	if (is_punct(run_tok(r, k), ','))
		k++;
	if (!is_num(run_tok(r, k), 4, 4))
		return 0;
	w->y = (int)run_tok(r, k)->v, w->m = m, w->d = (int)d->v;
	w->end = k + 1;
	/* RFC 2822 has the day first; a time after this form is rare, and
	 * then usually "at 3:00 pm" with a zone's name: the date only. */
	return valid_day(w->y, w->m, w->d, min_year);
}

/* Writes v as n digits at p; returns the end. */
static char *
digits(char *p, int v, int n)
{
	for (int i = n - 1; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	return p + n;
}

static void
put(const when *w, char out[DATE_MAX])
{
	char *p = digits(out, w->y, 4);
	*p++ = '-';
	p = digits(p, w->m, 2);
	*p++ = '-';
	p = digits(p, w->d, 2);
	if (w->tm) {
		int a = w->off < 0 ? -w->off : w->off;
		*p++ = 'T';
		p = digits(p, w->hh, 2);
		*p++ = ':';
		p = digits(p, w->mi, 2);
		*p++ = ':';
		p = digits(p, w->ss, 2);
		*p++ = w->off < 0 ? '-' : '+';
		p = digits(p, a / 60, 2);
		*p++ = ':';
		p = digits(p, a % 60, 2);
	}
	*p = '\0';
}

int
date_find(const char *s, size_t n, int order, int min_year, char out[DATE_MAX], size_t *at,
	  size_t *len)
{
	size_t i = 0;
	run r;
	for (;;) {
		tok t = tok_read(s, n, i);
		if (t.kind == T_END)
			return 0;
		i = t.at + t.len;
		if (t.kind == T_PUNCT || (t.kind == T_WORD && !month_of(s, &t)))
			continue;
		run_read(&r, s, n, t.at);
		when w;
		if (read_date(&r, order, min_year, 0, &w)) {
			put(&w, out);
			*at = t.at;
			const tok *last = &r.t[w.end - 1];
			*len = last->at + last->len - t.at;
			return 1;
		}
	}
}

int
date_iso(const char *s, size_t n, int order, int min_year, char out[DATE_MAX])
{
	/* 20240305: only as a whole value, never in text. */
	run r;
	run_read(&r, s, n, 0);
	const tok *t = run_tok(&r, 0);
	if (r.nt == 1 && is_num(t, 8, 8)) {
		when w = { .y = (int)(t->v / 10000), .m = (int)(t->v / 100 % 100),
			   .d = (int)(t->v % 100) };
		if (!valid_day(w.y, w.m, w.d, min_year))
			return 0;
		put(&w, out);
		return 1;
	}
	when w;
	if (read_date(&r, order, min_year, 1, &w)) {
		put(&w, out);
		return 1;
	}
	size_t at, len;
	return date_find(s, n, order, min_year, out, &at, &len);
}

/* Reads n digits of s at *i into *v; 0 when they are not there. */
static int
date_digits(const char *s, size_t len, size_t *i, int n, int *v)
{
	*v = 0;
	for (int k = 0; k < n; k++, (*i)++) {
		if (*i >= len || s[*i] < '0' || s[*i] > '9')
			return 0;
		*v = *v * 10 + (s[*i] - '0');
	}
	return 1;
}

int
date_w3c(const char *s, size_t len, double *t)
{
	struct tm tm = { .tm_mday = 1 };
	size_t i = 0;
	int y, mo = 1, d = 1, h = 0, mi = 0, sec = 0;
	double frac = 0;
	if (!date_digits(s, len, &i, 4, &y))
		return 0;
	if (i < len && s[i] == '-') {
		i++;
		if (!date_digits(s, len, &i, 2, &mo) || mo < 1 || mo > 12)
			return 0;
		if (i < len && s[i] == '-') {
			i++;
			if (!date_digits(s, len, &i, 2, &d) || d < 1 || d > 31)
				return 0;
		}
	}
	long off = 0;
	if (i < len && s[i] == 'T') {
		i++;
		if (!date_digits(s, len, &i, 2, &h) || i >= len || s[i++] != ':' ||
		    !date_digits(s, len, &i, 2, &mi) || h > 23 || mi > 59)
			return 0;
		if (i < len && s[i] == ':') {
			i++;
			if (!date_digits(s, len, &i, 2, &sec) || sec > 60)
				return 0;
			if (i < len && s[i] == '.') {
				double scale = 0.1;
				for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, scale /= 10)
					frac += (s[i] - '0') * scale;
			}
		}
		if (i < len && s[i] == 'Z') {
			i++;
		} else if (i < len && (s[i] == '+' || s[i] == '-')) {
			int sign = s[i++] == '-' ? -1 : 1, oh, om;
			if (!date_digits(s, len, &i, 2, &oh) || i >= len || s[i++] != ':' ||
			    !date_digits(s, len, &i, 2, &om) || oh > 23 || om > 59)
				return 0;
			off = sign * (oh * 3600L + om * 60L);
		}
	}
	if (i != len)
		return 0;
	tm.tm_year = y - 1900, tm.tm_mon = mo - 1, tm.tm_mday = d;
	tm.tm_hour = h, tm.tm_min = mi, tm.tm_sec = sec;
	*t = (double)timegm(&tm) - (double)off + frac;
	return 1;
}

int
date_same_instant(const char *a, const char *b)
{
	/* "YYYY-MM-DDTHH:MM:SS+HH:MM", as date_iso writes a time with
	 * its zone. */
	size_t n = DATE_MAX - 1;
	double x, y;
	return strlen(a) == n && strlen(b) == n && a[10] == 'T' && b[10] == 'T' &&
	       (a[19] == '+' || a[19] == '-') && (b[19] == '+' || b[19] == '-') &&
	       date_w3c(a, n, &x) && date_w3c(b, n, &y) && x == y;
}
