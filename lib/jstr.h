/* jstr — a C string as a JSON string on a stdio stream, for the small
 * JSON files the tools write (--stats, --summary). */
#ifndef SLUICE_JSTR_H
#define SLUICE_JSTR_H

#include <stdio.h>

/* Writes s quoted, with quotes, backslashes and control characters
 * escaped: names come from input and the file must stay JSON. */
void jstr_put(FILE *f, const char *s);

#endif
