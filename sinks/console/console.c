// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * console: one strace-like line per record, and findings as short indented
 * blocks. Lines collect in a large buffer that the host flushes on its drain
 * timer (~20 ms) and at the end, so an event costs one formatting pass rather
 * than a write(2). Into a file of its own the console formats each line in
 * place at the end of its batch, written with write(2) as it is; on standard
 * error or output, which the host and other modules write too, lines go
 * through the stream's stdio buffer, which keeps everything in order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <dio/sink.h>

#define IOBUF_SIZE	(1 << 20)	/* more than a drain period of lines at ~1M events/s */
#define LINE_SIZE	4096		/* first line buffer; grows to the longest line seen */

enum { O_OUTPUT, O_TIME, O_DURATIONS, O_TID, O_DETAILS, O_PATHS, O_PROC, O_EVENTS, O_HINTS,
       O_STRSIZE, O_BLOCK, O_RUNQ, O_URING };

static const struct dio_option options[] = {
	[O_OUTPUT] = { "output", DIO_OPT_STRING, NULL,
		       "file to write to; \"-\" for standard output (default: standard error)" },
	[O_TIME] = { "time", DIO_OPT_STRING, "", "\"\", \"t\", \"tt\" or \"ttt\" as strace -t" },
	[O_DURATIONS] = { "durations", DIO_OPT_BOOL, "false", "time spent in each call (-T)" },
	[O_TID] = { "tid", DIO_OPT_BOOL, "true", "prefix [pid/tid thread-name]" },
	[O_DETAILS] = { "details", DIO_OPT_BOOL, "true", "append {off= type= tag=}" },
	[O_PATHS] = { "paths", DIO_OPT_BOOL, "false", "also print the path records" },
	[O_PROC] = { "proc", DIO_OPT_BOOL, "true", "print fork, exec, exit and rename" },
	[O_EVENTS] = { "events", DIO_OPT_BOOL, "true", "print events (false: findings only)" },
	[O_HINTS] = { "hints", DIO_OPT_BOOL, "false",
		      "print info findings (hints) too; otherwise one line counts them" },
	[O_STRSIZE] = { "strsize", DIO_OPT_INT, "0",
			"bytes of captured data shown, 0 to 65535 (-s; 0: all)" },
	[O_BLOCK] = { "block", DIO_OPT_BOOL, "true", "print block requests (-e trace=: false)" },
	[O_RUNQ] = { "runq", DIO_OPT_BOOL, "true", "print run-queue waits (-e trace=: false)" },
	[O_URING] = { "uring", DIO_OPT_BOOL, "true",
		      "print io_uring requests (-e trace= without io_uring_enter: false)" },
	{ NULL, 0, NULL, NULL },
};

struct console {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	FILE *out;
	int own;		/* out was opened here: fclose it */
	char *iobuf;		/* out's stdio buffer; freed only once out no longer uses it */
	uint32_t flags;		/* DIO_FMT_* */
	int paths, proc, events, hints, block, runq, uring;
	uint64_t hidden;	/* info findings not printed (hints=false) */
	int write_failed;	/* the first write error was logged */
	uint64_t unformatted;	/* records format_event refused */
	char *line;		/* one line; never truncated, so it grows instead */
	size_t cap;
	char *batch;		/* own output file: lines not yet written, IOBUF_SIZE bytes */
	size_t blen;
};

static int time_flags(const char *t, uint32_t *flags)
{
	if (!t || !*t)
		return 0;
	if (!strcmp(t, "t"))
		*flags |= DIO_FMT_TIME_T;
	else if (!strcmp(t, "tt"))
		*flags |= DIO_FMT_TIME_TT;
	else if (!strcmp(t, "ttt"))
		*flags |= DIO_FMT_TIME_TTT;
	else
		return -EINVAL;
	return 0;
}

/* A failed write is reported once, by us: the host does not look at flush's result. */
static int write_error(struct console *c)
{
	int err = errno ? errno : EIO;

	if (!c->write_failed)
		c->host->log(c->ctx, "cannot write output: %s", strerror(err));
	c->write_failed = 1;
	return -err;
}

/* n bytes at p to the output's descriptor, after what its stdio buffer holds */
static int write_out(struct console *c, const char *p, size_t n)
{
	errno = 0;
	if (fflush(c->out))
		return write_error(c);
	while (n) {
		ssize_t w = write(fileno(c->out), p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return write_error(c);
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * The batch's lines written out; called before anything else is written to
 * the stream, so that the file keeps the order things were printed in. The
 * batch is emptied even when the write fails: the error is reported once and
 * a full batch must not stop the lines after it.
 */
static int drain(struct console *c)
{
	int err = 0;

	if (c->blen)
		err = write_out(c, c->batch, c->blen);
	c->blen = 0;
	return err;
}

/*
 * Standard error and standard output are used through their global FILEs, not
 * a dup of the descriptor: the summary analyzer and the host write there too,
 * and one buffer keeps everything in the order it was written (the last
 * events before the summary table, not after it).
 */
static int open_output(struct console *c, const char *path)
{
	if (!path) {
		c->out = stderr;
	} else if (!strcmp(path, "-")) {
		c->out = stdout;
	} else {
		/* 0600, not through a symbolic link, close-on-exec; the host says why when it cannot */
		int fd = DIO_HOST_HAS(c->host, create_output) ?
			 c->host->create_output(c->ctx, path) : -ENOSYS;

		if (fd < 0)
			return fd;
		c->out = fdopen(fd, "w");
		if (!c->out) {
			int err = errno;

			close(fd);
			c->host->log(c->ctx, "cannot open output '%s': %s", path, strerror(err));
			return -err;
		}
		c->own = 1;
		/* only we write to it: lines are made in the batch and written from there */
		c->batch = malloc(IOBUF_SIZE);
		if (!c->batch)
			return -ENOMEM;
	}
	c->iobuf = malloc(IOBUF_SIZE);
	if (!c->iobuf)
		return -ENOMEM;
	/*
	 * stdout may hold text already: flush it before the buffer changes.
	 * glibc and musl both accept setvbuf on a stream in use once it is flushed.
	 */
	fflush(c->out);
	if (setvbuf(c->out, c->iobuf, _IOFBF, IOBUF_SIZE)) {
		free(c->iobuf);
		c->iobuf = NULL;	/* keep stdio's own buffer: slower, still correct */
	}
	return 0;
}

static void close_output(struct console *c)
{
	if (!c->out)
		return;
	drain(c);
	if (fflush(c->out) && !c->write_failed)
		c->host->log(c->ctx, "cannot write output: %s", strerror(errno));
	if (c->own) {
		fclose(c->out);
	} else if (c->iobuf) {
		/*
		 * The host may write to the stream after we are gone, so it must let go
		 * of our buffer. Only _IONBF does that (glibc keeps a user buffer when
		 * asked for _IOFBF or _IOLBF with NULL): both streams stay unbuffered.
		 */
		setvbuf(c->out, NULL, _IONBF, 0);
	}
	free(c->iobuf);
	free(c->batch);
	c->iobuf = NULL;
	c->batch = NULL;
	c->out = NULL;
}

static void console_destroy(void *state)
{
	struct console *c = state;

	if (!c)
		return;
	if (c->unformatted)
		c->host->log(c->ctx,
			     "%" PRIu64 " records could not be formatted and were not printed",
			     c->unformatted);
	close_output(c);
	free(c->line);
	free(c);
}

static int console_init(const struct dio_host *host, struct dio_ctx *ctx,
			const struct dio_optval *o, void **state)
{
	struct console *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return -ENOMEM;
	c->host = host;
	c->ctx = ctx;
	err = time_flags(o[O_TIME].s, &c->flags);
	if (err) {
		host->log(ctx, "time: '%s' is not one of \"\", \"t\", \"tt\", \"ttt\"",
			  o[O_TIME].s);
		goto cleanup;
	}
	if (o[O_STRSIZE].i < 0 || o[O_STRSIZE].i > 65535) {
		host->log(ctx, "strsize: %" PRId64 " is not from 0 to 65535", o[O_STRSIZE].i);
		err = -EINVAL;
		goto cleanup;
	}
	c->flags |= DIO_FMT_STRSIZE((uint32_t)o[O_STRSIZE].i);
	if (o[O_DURATIONS].i)
		c->flags |= DIO_FMT_DURATION;
	if (o[O_TID].i)
		c->flags |= DIO_FMT_TID;
	if (o[O_DETAILS].i)
		c->flags |= DIO_FMT_DETAILS;
	c->paths = !!o[O_PATHS].i;
	c->proc = !!o[O_PROC].i;
	c->block = !!o[O_BLOCK].i;
	c->runq = !!o[O_RUNQ].i;
	c->uring = !!o[O_URING].i;
	c->events = !!o[O_EVENTS].i;
	c->hints = !!o[O_HINTS].i;
	c->cap = LINE_SIZE;
	c->line = malloc(c->cap);
	if (!c->line) {
		err = -ENOMEM;
		goto cleanup;
	}
	err = open_output(c, o[O_OUTPUT].s);
	if (err)
		goto cleanup;
	*state = c;
	return 0;
cleanup:
	console_destroy(c);
	return err;
}

static int console_event(void *state, const struct dio_ev_hdr *ev)
{
	struct console *c = state;
	int n, err;

	if (!c->events || (ev->type == DIO_EV_PATH && !c->paths) ||
	    (ev->type == DIO_EV_PROC && !c->proc) || (ev->type == DIO_EV_BLOCK && !c->block) ||
	    (ev->type == DIO_EV_RUNQ && !c->runq) || (ev->type == DIO_EV_IOURING && !c->uring))
		return 0;
	if (c->batch) {
		/* in place at the batch's end, the newline over the NUL; a full batch is written first */
		for (int pass = 0; pass < 2; pass++) {
			size_t room = IOBUF_SIZE - c->blen;

			n = c->host->format_event(c->ctx, ev, c->flags, c->batch + c->blen, room);
			if (n < 0 || (size_t)n < room)
				break;
			if (!c->blen)
				break;	/* longer than the batch: through the line below */
			err = drain(c);
			if (err)
				return err;
		}
		if (n >= 0 && (size_t)n < IOBUF_SIZE - c->blen) {
			c->batch[c->blen + (size_t)n] = '\n';
			c->blen += (size_t)n + 1;
			return 0;
		}
		if (n < 0)
			goto unformatted;
	}
	n = c->host->format_event(c->ctx, ev, c->flags, c->line, c->cap);
	if (n >= 0 && (size_t)n >= c->cap) {
		size_t cap = c->cap * 2 > (size_t)n + 1 ? c->cap * 2 : (size_t)n + 1;
		char *line = realloc(c->line, cap);

		if (!line)
			return -ENOMEM;
		c->line = line;
		c->cap = cap;
		n = c->host->format_event(c->ctx, ev, c->flags, c->line, c->cap);
	}
	if (n < 0 || (size_t)n >= c->cap) {
unformatted:
		/* a record the host cannot render is no reason to stop tracing; it is counted */
		if (!c->unformatted++)
			c->host->log(c->ctx, "cannot format a record of type %u: %s", ev->type,
				     strerror(n < 0 ? -n : EOVERFLOW));
		return 0;
	}
	c->line[n] = '\n';	/* over the NUL: the line is written with its length */
	if (c->batch)
		return write_out(c, c->line, (size_t)n + 1);	/* the batch is empty */
	errno = 0;
	if (fwrite(c->line, 1, (size_t)n + 1, c->out) != (size_t)n + 1)
		return write_error(c);
	return 0;
}

static const char *sev_name(uint32_t s)
{
	switch (s) {
	case DIO_SEV_INFO: return "INFO";
	case DIO_SEV_WARNING: return "WARNING";
	case DIO_SEV_ERROR: return "ERROR";
	default: return "?";
	}
}

/*
 * n bytes of s escaped with dio_escape(): names as they came (flags 0), or
 * text an analyzer made (DIO_ESC_TEXT), whose names it escaped already and
 * whose other bytes are escaped here, so that no module's text drives the
 * terminal either.
 */
static void put_esc(FILE *f, const char *s, size_t n, unsigned int flags)
{
	char small[512], *big = NULL;
	size_t need = dio_escape(s, n, flags, small, sizeof(small));

	/* without memory for all of it, the text is cut: never written raw */
	if (need >= sizeof(small) && (big = malloc(need + 1)))
		dio_escape(s, n, flags, big, need + 1);
	fputs(big ? big : small, f);
	free(big);
}

/* every line of text, each after indent (text may or may not end in a newline) */
static void put_lines(FILE *f, const char *indent, const char *text)
{
	while (text && *text) {
		size_t len = strcspn(text, "\n");

		fputs(indent, f);
		put_esc(f, text, len, DIO_ESC_TEXT);
		fputc('\n', f);
		text += len;
		if (*text)
			text++;
	}
}

/* wall-clock time of day of a monotonic timestamp, as strace -tt prints it */
static void put_clock(struct console *c, uint64_t mono_ns)
{
	uint64_t ns = c->host->realtime_ns(c->ctx, mono_ns);
	time_t sec = (time_t)(ns / 1000000000);
	unsigned int us = (unsigned int)(ns % 1000000000 / 1000);
	struct tm tm;

	if (localtime_r(&sec, &tm))
		fprintf(c->out, "%02d:%02d:%02d.%06u", tm.tm_hour, tm.tm_min, tm.tm_sec, us);
	else
		fprintf(c->out, "%lld.%06u", (long long)sec, us);
}

/* a field the host appended after ABI 1 began, present in this finding */
#define HAS(f, field) ((f)->size >= offsetof(struct dio_finding, field) + sizeof((f)->field))

/* ", new" and the like after the severity, against --baseline and --suppress */
static const char *state_name(const struct dio_finding *f)
{
	if (HAS(f, suppressed) && f->suppressed)
		return ", suppressed";
	if (!HAS(f, baseline))
		return "";
	return f->baseline == DIO_BASELINE_NEW ? ", new" :
	       f->baseline == DIO_BASELINE_UNCHANGED ? ", unchanged" :
	       f->baseline == DIO_BASELINE_ABSENT ? ", fixed" : "";
}

/*
 * A finding printed before whose count grew (--report-every): one line,
 * found again by its fingerprint, not the whole text again.
 */
static int put_update(struct console *c, const struct dio_finding *f)
{
	FILE *o = c->out;

	drain(c);
	fprintf(o, "dio: [%s%s] ", sev_name(f->severity), state_name(f));
	put_esc(o, f->code ? f->code : "?", f->code ? strlen(f->code) : 1, 0);
	fprintf(o, ": update: count %" PRIu64, f->count);
	if (f->fingerprint) {
		fputs(", fingerprint ", o);
		put_esc(o, f->fingerprint, strlen(f->fingerprint), 0);
	}
	fputs(": ", o);
	if (f->title)
		put_esc(o, f->title, strlen(f->title), DIO_ESC_TEXT);
	fputc('\n', o);
	errno = 0;
	if (fflush(o))
		return write_error(c);
	return 0;
}

static int console_finding(void *state, const struct dio_finding *f)
{
	struct console *c = state;
	FILE *o = c->out;
	uint64_t first = f->ts_first ? f->ts_first : f->ts_last;

	if (f->size < offsetof(struct dio_finding, excerpt) + sizeof(f->excerpt))
		return -EINVAL;
	/*
	 * Hints are kept in the files (json, SARIF notes, the HTML report); the
	 * terminal gets what may need acting on, and a count of the rest
	 */
	if (f->severity == DIO_SEV_INFO && !c->hints) {
		/* counted once: an update is a finding counted before */
		if (!(HAS(f, update) && f->update))
			c->hidden++;
		return 0;
	}
	if (HAS(f, update) && f->update)
		return put_update(c, f);
	drain(c);
	fprintf(o, "dio: [%s%s] ", sev_name(f->severity), state_name(f));
	put_esc(o, f->code ? f->code : "?", f->code ? strlen(f->code) : 1, 0);
	fputs(": ", o);
	if (f->title)
		put_esc(o, f->title, strlen(f->title), DIO_ESC_TEXT);
	fputc('\n', o);
	if (HAS(f, suppress_reason) && f->suppressed && f->suppress_reason) {
		/* the reason comes from a --suppress file, which may not be dio's user's */
		fputs("    suppressed: ", o);
		put_esc(o, f->suppress_reason, strlen(f->suppress_reason), 0);
		fputc('\n', o);
	}
	if (HAS(f, baseline) && f->baseline == DIO_BASELINE_ABSENT)
		fputs("    in the baseline, not in this run\n", o);
	put_lines(o, "    ", f->message);
	if (f->pid || f->tid) {
		fprintf(o, "    process: %u/%u ", f->pid, f->tid);
		put_esc(o, f->comm ? f->comm : "?", f->comm ? strlen(f->comm) : 1, 0);
		fputc('\n', o);
	}
	if (f->path || f->has_tag) {
		fputs("    file: ", o);
		put_esc(o, f->path ? f->path : "?", f->path ? strlen(f->path) : 1, 0);
		if (f->has_tag) {
			char t[DIO_FILE_TAG_LEN];

			dio_file_tag_format(&f->tag, t, sizeof(t));
			fprintf(o, " (tag %s)", t);
		}
		fputc('\n', o);
	}
	if (first) {
		fputs("    time: ", o);
		put_clock(c, first);
		if (f->ts_last > first) {
			uint64_t d = f->ts_last - first;

			fputs(" - ", o);
			put_clock(c, f->ts_last);
			fprintf(o, " (%" PRIu64 ".%06" PRIu64 " s)", d / 1000000000,
				d % 1000000000 / 1000);
		}
		fputc('\n', o);
	}
	if (f->count)
		fprintf(o, "    count: %" PRIu64 "\n", f->count);
	if (HAS(f, processes) && f->cost_ns)
		fprintf(o, "    cost: %.*f %s\n", f->cost_ns >= 1000000 ? 1 : 0,
			f->cost_ns >= 1000000000 ? f->cost_ns / 1e9 :
			f->cost_ns >= 1000000 ? f->cost_ns / 1e6 : f->cost_ns / 1e3,
			f->cost_ns >= 1000000000 ? "s" : f->cost_ns >= 1000000 ? "ms" : "us");
	if (HAS(f, processes) && f->processes > 1)
		fprintf(o, "    processes: %u\n", f->processes);
	if (f->excerpt && *f->excerpt) {
		fputs("    calls:\n", o);
		put_lines(o, "      ", f->excerpt);
	}
	/* what a --suppress entry names it by */
	if (HAS(f, fingerprint) && f->fingerprint) {
		fputs("    fingerprint: ", o);
		put_esc(o, f->fingerprint, strlen(f->fingerprint), 0);
		fputc('\n', o);
	}
	/* findings are rare and the reason to run dio: show them now, not at the next drain */
	errno = 0;
	if (fflush(o))
		return write_error(c);
	return 0;
}

static int console_flush(void *state)
{
	struct console *c = state;
	int err = drain(c);

	if (err)
		return err;
	errno = 0;
	if (fflush(c->out))
		return write_error(c);
	return 0;
}

/* the hints left out, counted: the user learns they are there and how to see them */
static int console_finish(void *state)
{
	struct console *c = state;

	drain(c);
	if (c->hidden)
		fprintf(c->out, "dio: %" PRIu64 " hint%s (info findings) not shown: --hints shows them\n",
			c->hidden, c->hidden == 1 ? "" : "s");
	return 0;
}

const struct dio_sink dio_sink = {
	.abi = DIO_SINK_ABI,
	.size = sizeof(struct dio_sink),
	.name = "console",
	.description = "strace-like lines on the terminal or in a file, and findings",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PATH) |
		  DIO_EV_MASK(DIO_EV_IOURING) | DIO_EV_MASK(DIO_EV_PROC) |
		  DIO_EV_MASK(DIO_EV_BLOCK) | DIO_EV_MASK(DIO_EV_RUNQ),
	.findings = 1,
	.options = options,
	.init = console_init,
	.event = console_event,
	.finding = console_finding,
	.flush = console_flush,
	.finish = console_finish,
	.live = 1,
	.destroy = console_destroy,
};
