/* JSON rendering of records: the human-facing form of the stream. */
#include "rec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Appends n bytes of s to out. */
static void
put(msgpack_sbuffer *out, const char *s, size_t n)
{
	msgpack_sbuffer_write(out, s, n);
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0. */
static size_t
utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len;
	unsigned min;
	if (c < 0x80)
		return 1;
	else if ((c & 0xe0) == 0xc0)
		len = 2, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		len = 3, min = 0x800;
	else if ((c & 0xf8) == 0xf0)
		len = 4, min = 0x10000;
	else
		return 0;
	if (len > n)
		return 0;
	unsigned cp = c & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* Appends s[0..n) as a JSON string: quote, backslash and control bytes
 * escaped (at most 6 output bytes per input byte, for \u00XX), invalid
 * UTF-8 as U+FFFD per bad byte; the output is always valid UTF-8. */
static void
json_str(const char *s, size_t n, msgpack_sbuffer *out)
{
	const unsigned char *p = (const unsigned char *)s;
	put(out, "\"", 1);
	size_t i = 0;
	while (i < n) {
		unsigned c = p[i];
		char esc[8];
		if (c == '"' || c == '\\') {
			esc[0] = '\\', esc[1] = (char)c;
			put(out, esc, 2), i++;
		} else if (c < 0x20) {
			const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t" :
					    c == '\r' ? "\\r" : NULL;
			if (named)
				put(out, named, 2);
			else
				put(out, esc, (size_t)snprintf(esc, sizeof esc, "\\u%04x", c));
			i++;
		} else {
			size_t len = utf8_len(p + i, n - i);
			if (len == 0)
				put(out, "\xef\xbf\xbd", 3), i++;   /* U+FFFD */
			else
				put(out, s + i, len), i += len;
		}
	}
	put(out, "\"", 1);
}

/* Appends s[0..n) as a quoted standard base64 string, padded. */
static void
json_base64(const char *s, size_t n, msgpack_sbuffer *out)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)s;
	put(out, "\"", 1);
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);
		char q[4] = { tab[v >> 18 & 63], tab[v >> 12 & 63],
			      i + 1 < n ? tab[v >> 6 & 63] : '=',
			      i + 2 < n ? tab[v & 63] : '=' };
		put(out, q, 4);
	}
	put(out, "\"", 1);
}

static void json_value(const msgpack_object *o, msgpack_sbuffer *out, int in_key);

/* Appends map key k.  A string key is a JSON string as usual.  Any other
 * key is rendered once as JSON text into a scratch buffer, with every
 * non-string key nested inside it written as its own text unquoted, and
 * that text is escaped once as the key string.  Escaping each nesting
 * level again would double every backslash per level: 49 bytes of
 * nested map keys used to render as 12 MB. */
static void
json_key(const msgpack_object *k, msgpack_sbuffer *out, int in_key)
{
	if (k->type == MSGPACK_OBJECT_STR || in_key) {
		json_value(k, out, in_key);
		return;
	}
	msgpack_sbuffer text;
	msgpack_sbuffer_init(&text);
	json_value(k, &text, 1);
	json_str(text.data, text.size, out);
	msgpack_sbuffer_destroy(&text);
}

/* Appends o as JSON; in_key is set while rendering the text of a
 * non-string key, where nested non-string keys stay unquoted. */
static void
json_value(const msgpack_object *o, msgpack_sbuffer *out, int in_key)
{
	char num[40];
	switch (o->type) {
	case MSGPACK_OBJECT_NIL:
		put(out, "null", 4);
		break;
	case MSGPACK_OBJECT_BOOLEAN:
		o->via.boolean ? put(out, "true", 4) : put(out, "false", 5);
		break;
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
		put(out, num, (size_t)snprintf(num, sizeof num, "%llu",
					       (unsigned long long)o->via.u64));
		break;
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
		put(out, num, (size_t)snprintf(num, sizeof num, "%lld",
					       (long long)o->via.i64));
		break;
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		if (isfinite(o->via.f64))
			put(out, num, (size_t)snprintf(num, sizeof num, "%.17g", o->via.f64));
		else
			put(out, "null", 4);
		break;
	case MSGPACK_OBJECT_STR:
		json_str(o->via.str.ptr, o->via.str.size, out);
		break;
	case MSGPACK_OBJECT_BIN:
		json_base64(o->via.bin.ptr, o->via.bin.size, out);
		break;
	case MSGPACK_OBJECT_ARRAY:
		put(out, "[", 1);
		for (uint32_t i = 0; i < o->via.array.size; i++) {
			if (i)
				put(out, ",", 1);
			json_value(&o->via.array.ptr[i], out, in_key);
		}
		put(out, "]", 1);
		break;
	case MSGPACK_OBJECT_MAP:
		put(out, "{", 1);
		for (uint32_t i = 0; i < o->via.map.size; i++) {
			const msgpack_object_kv *kv = &o->via.map.ptr[i];
			if (i)
				put(out, ",", 1);
			json_key(&kv->key, out, in_key);
			put(out, ":", 1);
			json_value(&kv->val, out, in_key);
		}
		put(out, "}", 1);
		break;
	default:
		put(out, "null", 4);
		break;
	}
}

void
rec_json(const msgpack_object *o, msgpack_sbuffer *out)
{
	json_value(o, out, 0);
}
