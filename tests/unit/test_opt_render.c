/* render's option table: its defaults are the values render had before
 * they moved into the rows (the initializer of render_opts it used to
 * write, kept here as the reference).  The table is static in
 * renderer/main.c, so the test includes it, its main renamed; it reads
 * the defaults alone, as parse_options would die without Chromium. */
#define CHECK_PROG "test_opt_render"
#include "check.h"

#define main(argc, argv) render_main(argc, argv)
#include "../../renderer/main.c"
#undef main

int
main(void)
{
	check_int("every default is a value", -1, opt_defaults(opts, O_N));
	const render_opts *o = &R.o;
	check_double("tabs", 4, o->tabs);
	check_double("per_host", 1, o->per_host);
	check_double("delay", 0, o->delay);
	check_int("share_context", 0, o->share_context);
	check_int("wait", WAIT_IDLE, o->wait);
	check_true("no selector", !o->selector);
	check_double("timeout", 30, o->timeout);
	check_double("max_wait", 10, o->max_wait);
	check_double("max_body", 16 << 20, o->max_body);
	check_true("Chromium's user agent", !o->user_agent);
	check_true("no headers, cookies", !o->headers && !o->cookies);
	check_int("load", LOAD_DOM, o->load);
	check_str("private ranges", CIDR_PRIVATE, private_ranges);
	check_int("allow_private", 0, o->allow_private);
	check_str("robots_agent", "sluice", o->robots_agent);
	check_int("robots", 1, o->robots);
	check_int("only_shells", 0, o->only_shells);
	check_double("min_text", 200, o->min_text);
	check_int("screenshot, pdf", 0, o->screenshot + o->pdf);
	check_true("no raw, no redaction", !o->raw && !o->warc_redact);
	check_double("viewport width", 1280, o->vw);
	check_double("viewport height", 800, o->vh);
	check_double("max_hosts", 10000, o->max_hosts);
	check_double("pending", 256, o->pending);
	check_double("out_buffer", 4 << 20, o->out_buffer);
	check_double("max_record", REC_MAX_RECORD_DEFAULT, o->max_record);
	check_int("json", 0, o->json);
	check_str("chromium", "/usr/lib/chromium/chromium", o->chromium);
	check_str("browser_user", "nobody", o->browser_user);
	check_int("no_sandbox", 0, o->no_sandbox);
	check_double("recycle", 200, o->recycle);
	check_double("max_browser_memory", 1 << 30, o->max_browser_memory);
	check_double("browser_timeout", 30, o->browser_timeout);
	check_int("browser_log", 0, o->browser_log);
	check_int("quiet", 0, msg_quiet);
	return check_done();
}
