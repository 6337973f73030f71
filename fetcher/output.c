/* output — fetch's records to stdout through lib/outbuf: a bounded
 * non-blocking buffer.  While it is blocked the scheduler starts nothing
 * and transfers pause in their write callback (xfer.c); the driver
 * resumes them once it opens again.
 */
#include "fetch.h"

#include "outbuf.h"

static outbuf ob;

void
output_init(int fd, int json, size_t lim)
{
	outbuf_init(&ob, F.loop, fd, json ? 1 : -1, lim);
}

rec_out *
output_rec(void)
{
	return &ob.out;
}

int
output_blocked(void)
{
	return outbuf_blocked(&ob);
}

unsigned long
output_reopened(void)
{
	return outbuf_reopened(&ob);
}

int
output_idle(void)
{
	return outbuf_idle(&ob);
}

void
output_drain(void)
{
	outbuf_drain(&ob);
}

void
output_record(void)
{
	outbuf_record(&ob);
}

void
output_close(void)
{
	outbuf_close(&ob);
}
