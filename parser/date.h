/* date — the dates pages write, read into ISO 8601.
 *
 * Metadata writes dates for machines (2024-03-05T10:00:00Z, RFC 2822's
 * "Tue, 05 Mar 2024 10:00:00 GMT") and for people ("March 5, 2024",
 * "5. März 2024", "05/03/2024", "2024年3月5日"); the text of a byline
 * only for people.  Both are read here into one shape, so `published`
 * and `modified` compare as strings.  No allocation, no locale: month
 * names are a fixed table (English, German, French, Spanish, Italian,
 * Portuguese, Dutch).
 */
#ifndef PARSE_DATE_H
#define PARSE_DATE_H

#include <stddef.h>

/* Bytes of the longest date written: "YYYY-MM-DDTHH:MM:SS+HH:MM" and
 * its NUL. */
#define DATE_MAX 26

/* Bytes a date written in text spans at most, its time and zone with
 * it ("September 25th, 2024, 11:23:55 AM +01:00"): a caller asking
 * whether a date starts at a point reads no further. */
#define DATE_TEXT_MAX 64

/* How a numeric date with two small numbers first (03/05/2024) is read
 * when neither is above 12: month first (DATE_MDY, US English) or day
 * first (DATE_DMY, most others).  A date with dots (05.03.2024) is
 * always day first. */
enum { DATE_DMY = 0, DATE_MDY = 1 };

/* Reads s[0..n), a date as metadata gives it: ISO 8601 (2024-03-05,
 * 20240305, 2024/03/05, with a time after T or a space), the year
 * before a month's name at its start (2023 Jan 7), or else the
 * first date date_find sees in it (a written date, RFC 2822's).  Writes
 * out "YYYY-MM-DD", or "YYYY-MM-DDTHH:MM:SS+HH:MM" when s gives a time
 * and its zone (Z, UTC and GMT are +00:00; fractions of a second are
 * dropped): a time without a zone names no instant, so only its date is
 * kept.  Returns 1, or 0 (out untouched) when s holds no valid date of
 * a year from min_year to 2099. */
int date_iso(const char *s, size_t n, int order, int min_year, char out[DATE_MAX]);

/* Finds the first date written in text s[0..n): numeric (2024-03-05,
 * 5/3/2024, 05.03.2024, read by order), with a month's name (March 5,
 * 2024; 5th of March 2024; 5. März 2024; 5 de marzo de 2024; Mar. 5
 * 2024), or CJK (2024年3月5日, 2024년 3월 5일).  A date needs its year.
 * Writes the date as date_iso does (and the time after it when a zone
 * follows), and sets *at and *len to where it was written.  Returns 1,
 * or 0 when there is none from min_year to 2099. */
int date_find(const char *s, size_t n, int order, int min_year, char out[DATE_MAX],
	      size_t *at, size_t *len);

/* A W3C Datetime s[0..len) (YYYY, YYYY-MM, YYYY-MM-DD, and with
 * Thh:mm[:ss[.f]] and a zone Z or +hh:mm or -hh:mm; a missing zone is
 * read as UTC) as seconds since the epoch into *t; 0 when s is none. */
int date_w3c(const char *s, size_t len, double *t);

/* Whether a and b, as date_iso writes them, are both a date-time with
 * its zone and name the same instant ("2025-12-19T03:05:00+00:00" and
 * "2025-12-18T19:05:00-08:00"). */
int date_same_instant(const char *a, const char *b);

#endif
