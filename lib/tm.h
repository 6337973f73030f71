/* tm — the two clocks: monotonic for scheduling, wall for records. */
#ifndef SLUICE_TM_H
#define SLUICE_TM_H

/* Seconds on a monotonic clock with nanosecond resolution. */
double tm_mono(void);

/* Milliseconds on the monotonic clock, for batch deadlines. */
long long tm_mono_ms(void);

/* Seconds since the Unix epoch, for `fetched_at` and `stored_at`. */
double tm_wall(void);

#endif
