// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A live session's records into trace files (dio record): the metadata a
 * reader needs without the recording machine, --max-size parts and
 * --rotate, the writer's drops and times, and the losses at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <dio/plugin.h>
#include "features.h"
#include "live.h"
#include "loss.h"
#include "options.h"
#include "probe.h"
#include "record.h"
#include "recorder.h"
#include "selfstats.h"
#include "session.h"
#include "tagtab.h"
#include "tracefile.h"
#include "util.h"

#define META_MAX 8192

static void read_line(const char *file, char *buf, size_t len)
{
	FILE *f = fopen(file, "re");

	buf[0] = 0;
	if (f) {
		if (fgets(buf, len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

/* What a reader needs to decode the records without the recording machine. */
static void build_meta(const struct options *o, const struct session *s, int argc, char **argv,
		       char *buf, size_t len)
{
	const struct features *feat = session__features(s);
	struct features probed;
	char ftext[256] = "", err[256];
	struct utsname u;
	char boot[64];
	size_t off;

	uname(&u);
	read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	/* the probe is made when the trace starts: until then, read the kernel as it will */
	if (!feat && !features__probe(&probed, err, sizeof(err)))
		feat = &probed;
	if (feat)
		features__text(feat, ftext, sizeof(ftext));
	off = snprintf(buf, len,
		       "format=dio-trace\ndio_version=%s\nhost=%s\nkernel=%s\nmachine=%s\n"
		       "boot_id=%s\nfeatures=%s\nrealtime_offset_ns=%lld\nmode=%s\nhash=%s\n"
		       "capture_bytes=%u\nsession_id=%s\ndio_pid=%d\nfstypes=%s\noptions=",
		       PACKAGE_VERSION, u.nodename, u.release, u.machine, boot, ftext,
		       (long long)session__realtime_off(s), o->mode == MODE_RAW ? "raw" : "detailed",
		       o->hash == HASH_USER ? "user" : o->hash == HASH_KERNEL ? "kernel" : "off",
		       o->capture_bytes,
		       session__info(s, "session_id") ? session__info(s, "session_id") : "",
		       (int)getpid(),
		       session__info(s, "fstypes") ? session__info(s, "fstypes") : "");
	/* the command line as given, one line: arguments separated by spaces; a URL's
	 * password (--sink clickhouse:url=http://user:pw@...) stays out of the file */
	for (int i = 0; i < argc && off < len; i++) {
		if (i)
			off += snprintf(buf + off, len - off, " ");
		if (off < len)
			off += dio_redact_password(argv[i], buf + off, len - off);
	}
	if (off < len)
		snprintf(buf + off, len - off, "\n");
	for (char *p = strstr(buf, "options="); p && *p; p++)
		if (*p == '\n' && p[1])
			*p = ' ';	/* an argument with a newline must not start a key */
}

/*
 * The trace file(s) of dio record. With --max-size a full file is closed, with
 * --rotate-every one that has been written to long enough, and the next one
 * (FILE.1, FILE.2, ...; with --rotate N the names come round again) starts with the path records of the files used last, so that each
 * file can be read on its own: the latest path record of as many tags as the
 * session's own table keeps (twice --tag-table), the least recently used
 * forgotten past that, as the kernel forgets the tags it sent.
 */
struct recorder {
	const char *base;
	const struct options *o;
	const char *meta;		/* the session's metadata, without part= */
	struct tf_writer *w;
	unsigned int part;
	uint64_t opened_ns;		/* CLOCK_MONOTONIC: when the file being written started */
	uint64_t n;			/* records since the size was last looked at */
	uint64_t dropped;		/* in the files already closed */
	struct tf_writer_time time;	/* of their writer threads */
	struct tagtab *paths;		/* --max-size, --rotate-every: tag -> its latest path record */
	char name[4200];		/* the file being written */
	/* --stats */
	uint64_t handed;		/* records given to the writers */
	uint64_t raw_bytes;		/* their bytes, the dropped ones left out */
	uint64_t disk_bytes;		/* of the files already closed */
};

/* --stats: the size of the file just closed */
static void add_disk_bytes(struct recorder *rc)
{
	struct stat sb;

	if (!stat(rc->name, &sb))
		rc->disk_bytes += sb.st_size;
}

/* a path record kept whole, into a new part */
static int add_path(void *ud, const struct dio_file_tag *tag, const char *rec, size_t len)
{
	(void)tag;
	return tf_writer__add(ud, rec, len);
}

static int rec_open(struct recorder *rc)
{
	unsigned int idx = rc->o->rotate ? rc->part % rc->o->rotate : rc->part;
	size_t mlen = strlen(rc->meta);
	char *meta = malloc(mlen + 32);
	int e = 0;

	if (!meta)
		return -ENOMEM;
	if (idx)
		snprintf(rc->name, sizeof(rc->name), "%s.%u", rc->base, idx);
	else
		snprintf(rc->name, sizeof(rc->name), "%s", rc->base);
	snprintf(meta, mlen + 32, "%spart=%u\n", rc->meta, rc->part);
	/* a disk slower than the trace costs counted records, never a stalled consumer */
	rc->w = tf_writer__open(rc->name, rc->o->zlevel, meta, TF_W_DROP);
	rc->opened_ns = util__mono_ns();
	if (!rc->w)
		e = -errno;
	if (!e && rc->paths)
		e = tagtab__each(rc->paths, add_path, rc->w);
	free(meta);
	return e;
}

static void add_time(struct tf_writer_time *sum, struct tf_writer *w)
{
	struct tf_writer_time t;

	tf_writer__time(w, &t);
	tf_writer_time__add(sum, &t);
}

/* the records the writer threads dropped, and what held them back */
static void rec_dropped(struct recorder *rc, uint64_t *dropped, uint32_t *cause)
{
	struct tf_writer_time t = rc->time;

	*dropped = rc->dropped;
	if (rc->w) {
		*dropped += tf_writer__dropped(rc->w);
		add_time(&t, rc->w);
	}
	*cause = *dropped ? tf_writer_cause(&t) : DIO_WRITER_UNKNOWN;
}

/* the recorder's counts among the session's */
static void rec_lost(void *ud, struct loss *l)
{
	struct recorder *rc = ud;

	rec_dropped(rc, &l->n[LOSS_WRITER], &l->writer_cause);
	l->n[LOSS_PART_PATHS] = rc->paths ? tagtab__evicted(rc->paths) : 0;
}

/* the file being written is closed, complete, and the next part starts */
static int rec_next(struct recorder *rc)
{
	int e;

	rc->dropped += tf_writer__dropped(rc->w);
	add_time(&rc->time, rc->w);
	e = tf_writer__close(rc->w, NULL);
	rc->w = NULL;
	add_disk_bytes(rc);
	rc->part++;
	if (!e)
		e = rec_open(rc);
	if (e)
		die_msg("dio record: starting %s failed: %s", rc->name, strerror(-e));
	return e;
}

static int rec_add(void *ud, const void *rec, size_t size)
{
	struct recorder *rc = ud;
	const struct dio_ev_hdr *h = rec;
	uint64_t dropped;
	int e = 0;

	if (rc->paths) {
		/* as the session's table: a file in use keeps its path */
		if (h->type == DIO_EV_PATH)
			e = tagtab__set(rc->paths, &((const struct dio_ev_path *)rec)->tag, rec, size);
		else if (h->type == DIO_EV_SYSCALL &&
			 (((const struct dio_ev_syscall *)rec)->flags & DIO_SF_FILE))
			tagtab__touch(rc->paths, &((const struct dio_ev_syscall *)rec)->tag);
		else if (h->type == DIO_EV_IOURING)
			tagtab__touch(rc->paths, &((const struct dio_ev_iouring *)rec)->tag);
		if (e)
			return e;
	}
	dropped = tf_writer__dropped(rc->w);
	e = tf_writer__add(rc->w, rec, size);
	rc->handed++;
	if (tf_writer__dropped(rc->w) == dropped)
		rc->raw_bytes += size;
	if (e || !rc->o->max_size || ++rc->n < 1024)
		return e;
	/* the written size is known block by block: look every 1024 records */
	rc->n = 0;
	if (tf_writer__bytes(rc->w) < rc->o->max_size)
		return 0;
	return rec_next(rc);
}

/* the records of the last flush_ms go to disk even when no block filled up */
static int rec_tick(void *ud)
{
	struct recorder *rc = ud;

	if (!rc->w)
		return 0;
	/* an idle session rotates too: a file per period, whatever was traced */
	if (rc->o->rotate_every &&
	    util__mono_ns() - rc->opened_ns >= (uint64_t)(rc->o->rotate_every * 1e9))
		return rec_next(rc);
	return tf_writer__tick(rc->w, rc->o->flush_ms);
}

int recorder__run(struct options *o, const char *path, int argc, char **argv)
{
	struct session *s = NULL;
	struct recorder rc = { 0 };
	char err[1024], *meta = NULL, *final = NULL;
	struct tf_writer_time t;
	uint64_t dropped, kept, missing;
	uint32_t cause;
	int e, n, code = 1;

	if (probe__check_machine(err, sizeof(err))) {
		die_msg("%s", err);
		goto out;
	}
	s = session__new(o, err, sizeof(err));
	if (!s) {
		if (*err)	/* empty: a module said why */
			die_msg("%s", err);
		goto out;
	}
	meta = malloc(META_MAX);
	final = malloc(META_MAX);
	if (!meta || !final) {
		die_msg("out of memory");
		goto out;
	}
	build_meta(o, s, argc, argv, meta, META_MAX);
	rc.base = path;
	rc.o = o;
	rc.meta = meta;
	/* the session's table of paths is twice --tag-table: what a part repeats is that too */
	if ((o->max_size || o->rotate_every) && !(rc.paths = tagtab__new(2 * (size_t)o->tag_entries))) {
		die_msg("out of memory");
		goto out;
	}
	e = rec_open(&rc);
	if (e) {
		char why[256];

		die_msg("cannot create the trace file %s: %s", rc.name,
			util__create_output_error(e, why, sizeof(why)));
		goto out;
	}
	session__record_to(s, rec_add, rec_tick, rec_lost, &rc);
	code = live__trace(s);
	if (!rc.w)	/* a rotation failed: the session has said so */
		goto out;
	/* the session's losses, the writer's drops among them */
	n = session__loss_text(s, final, META_MAX);
	missing = session__dropped(s);
	session__record_to(s, NULL, NULL, NULL, NULL);
	rec_dropped(&rc, &dropped, &cause);
	t = rc.time;
	add_time(&t, rc.w);
	snprintf(final + n, META_MAX - n,
		 "writer_busy_ms=%llu\nwriter_compress_ms=%llu\nwriter_write_ms=%llu\n"
		 "writer_runq_ms=%llu\nwriter_lowered=%llu\nwriter_lowest_level=%d\nparts=%u\n",
		 (unsigned long long)(t.busy_ns / 1000000), (unsigned long long)(t.compress_ns / 1000000),
		 (unsigned long long)(t.write_ns / 1000000), (unsigned long long)(t.runq_ns / 1000000),
		 (unsigned long long)t.lowered, t.level - t.depth, rc.part + 1);
	tf_writer__flush(rc.w);
	kept = tf_writer__written(rc.w);
	e = tf_writer__close(rc.w, final);
	add_disk_bytes(&rc);
	if (o->stats && session__selfstats(s)) {
		struct selfstats *st = session__selfstats(s);

		selfstats__writer(st, &t, rc.handed - dropped, rc.raw_bytes, rc.disk_bytes);
		selfstats__print(st, stderr);
	}
	if (dropped && !e)	/* the numbers behind the cause the session's warning named */
		warn_msg("%s: %llu records dropped; the writer thread was busy %.1f s: %.1f s compressing, %.1f s writing, %.1f s waiting for a CPU, %.1f s waiting for the disk",
			 path, (unsigned long long)dropped, t.busy_ns / 1e9, t.compress_ns / 1e9,
			 t.write_ns / 1e9, t.runq_ns / 1e9,
			 t.busy_ns > t.compress_ns + t.write_ns + t.runq_ns ?
			 (t.busy_ns - t.compress_ns - t.write_ns - t.runq_ns) / 1e9 : 0.0);
	if (e) {
		die_msg("finishing the trace file %s failed: %s; it holds the %llu records written "
			"before, readable with dio dump", rc.name, strerror(-e), (unsigned long long)kept);
		code = 1;
	} else if (missing && (code == 0 || code == DIO_EXIT_FINDINGS)) {
		/* a CI job must notice: findings from a trace with holes may be wrong or missing */
		fprintf(stderr, "dio: %s is incomplete: %llu records were lost (said above): "
			"exit status %d\n", path, (unsigned long long)missing, DIO_EXIT_INCOMPLETE);
		code = DIO_EXIT_INCOMPLETE;
	}
out:
	session__free(s);
	tagtab__free(rc.paths);
	free(meta);
	free(final);
	return code;
}
