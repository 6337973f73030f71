/* refusal — whether a record is a page that refuses us: the first row
 * of the signature table (sig.h) it matches.  The table's patterns are
 * compiled on first use and kept for the run.
 */
#ifndef VALIDATE_REFUSAL_H
#define VALIDATE_REFUSAL_H

#include <msgpack.h>

#include "sig.h"

/* The first row of kind that rec (a map) matches, or NULL.  Reads the
 * record's status, url, final_url, headers, title, description, text,
 * main_text and body, each only when a row needs it. */
const struct sig *refusal_find(const msgpack_object *rec, enum sig_kind kind);

/* Frees the compiled patterns. */
void refusal_free(void);

#endif
