/* consent — the cookie-consent notices of a page, which parse --main
 * leaves out of main_text and Markdown however much of the page they
 * hold: a notice is never the content.  (A page that is nothing but a
 * notice still gives its text, as content.c never leaves a page with
 * text empty; validate names it `consent`.)
 *
 * A notice is found two ways:
 *   - by name: an element whose id or a class begins with the container
 *     name of a consent platform (OneTrust, Cookiebot, Didomi, Quantcast,
 *     Sourcepoint, TrustArc, Usercentrics, ...): names no site gives its
 *     own content;
 *   - by what it says: a control (a button, a link, an input) labelled
 *     as a consent answer ("Accept all", "Reject all", "Cookie settings",
 *     "Alle akzeptieren", "Tout accepter", ...) inside a small block that
 *     mentions cookies or consent.  The notice is the smallest ancestor
 *     of the control whose text does, grown over wrappers that add
 *     little text (an overlay, a close button), never over CONSENT_BOX
 *     characters nor over an h1, an article or a main: an article that
 *     mentions cookies is larger, or holds its heading.
 * The rules and their measure are in docs/parse.md, *Main content*.
 */
#ifndef PARSE_CONSENT_H
#define PARSE_CONSENT_H

#include <gumbo.h>

/* Calls each(n, arg) for every consent notice in the document of out,
 * in document order, each subtree once (a notice found by its answer
 * may hold one found by name before it). */
void consent_notices(const GumboOutput *out, void (*each)(const GumboNode *n, void *arg),
		     void *arg);

#endif
