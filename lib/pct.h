/* pct — percent-encoding's two small pieces, shared by the URL parser
 * (lib/wurl) and robots.txt matching (lib/robots), so both read and
 * write %xx the same way. */
#ifndef SLUICE_PCT_H
#define SLUICE_PCT_H

#include <stddef.h>

/* The value of hex digit c, or -1. */
int pct_hexval(int c);

/* Writes "%XX" (upper-case hex) for byte c at out; returns 3. */
size_t pct_put(char *out, unsigned char c);

#endif
