/* check — judges one record against the rules that apply to its host.
 *
 * Checks run in a fixed order and the first failure is the reason, most
 * specific diagnosis first: a dead letter, a page that refuses us (a
 * challenge, a captcha, a login wall: before the status, which a 403 or
 * 503 interstitial would fail with less to say), the HTTP status, the
 * content type, a consent wall over a page that answered well, a reject
 * pattern (soft errors: a 200 "Access Denied" page), the
 * JavaScript-shell signal, required fields, markers.
 */
#ifndef VALIDATE_CHECK_H
#define VALIDATE_CHECK_H

#include <msgpack.h>
#include <stddef.h>

#include "rules.h"

/* Reason codes: the stable first word of `reason`, and the summary's
 * buckets.  VCODE_NONE means accepted. */
enum vcode {
	VCODE_NONE, VCODE_FETCH_ERROR, VCODE_BLOCKED, VCODE_STATUS, VCODE_CTYPE,
	VCODE_CONSENT, VCODE_REJECTED, VCODE_JS_SHELL, VCODE_MISSING, VCODE_NO_MARKER,
	VCODE_COUNT
};

/* The code's name as written in reasons and summaries. */
const char *vcheck_code_name(enum vcode c);

/* Judges rec (a map).  Returns VCODE_NONE when accepted, else the code,
 * with the full reason ("status 503", "missing fields.price") in
 * reason, truncated to len. */
enum vcode vcheck_record(const vrules *rs, const msgpack_object *rec,
			 char *reason, size_t len);

#endif
