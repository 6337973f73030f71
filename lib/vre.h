/* vre — PCRE2 regexes: validate matches them against a page's title and
 * text, sink --follow against links.  Compiled once with JIT when the
 * library has it; matching never fails on bad UTF-8
 * (PCRE2_MATCH_INVALID_UTF), because pages are data, not trusted input. */
#ifndef SLUICE_VRE_H
#define SLUICE_VRE_H

#include <stddef.h>

typedef struct vre vre;

/* Compiles pattern.  Returns the regex, or NULL with a message naming the
 * offset of the error ("at offset 3: missing closing parenthesis") in
 * err. */
vre *vre_compile(const char *pattern, char *err, size_t errlen);

/* Whether re matches anywhere in s[0..n). */
int vre_match(vre *re, const char *s, size_t n);

/* The pattern as given, for reasons like `rejected /Access Denied/`. */
const char *vre_source(const vre *re);

void vre_free(vre *re);

/* "pcre2 10.42 (jit)" or without "(jit)": for --version. */
const char *vre_version(void);

#endif
