// SPDX-License-Identifier: (LGPL-2.1-or-later OR BSD-2-Clause)
/*
 * fsync_rename: a file written and then renamed (usually over the file it
 * replaces) while its data had not been synced. This is how programs save a
 * file "atomically", and without fsync(tmp) before rename(tmp, target) a crash
 * can leave the target empty or half written: the rename reaches the disk
 * before the data does.
 *
 * An out-of-tree example of a dio analyzer: it uses only the installed headers
 * (pkg-config --cflags dio), and all its state is two tables allocated at init
 * whose size the options fix. See README.md and docs/writing-an-analyzer.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>

#define NR_MAX		512	/* system call numbers looked up at init */
#define WAYS		8	/* slots a file may sit in: one bucket of the file table */
#define LINE_MAX_LEN	1024	/* one formatted call of the excerpt */

enum { K_OTHER, K_WRITE, K_FSYNC, K_SYNC, K_SYNCFS, K_RENAME, K_RENAMEAT };

static const struct {
	const char *name;
	uint8_t kind;
} calls[] = {
	{ "write", K_WRITE }, { "pwrite64", K_WRITE }, { "writev", K_WRITE },
	{ "pwritev", K_WRITE }, { "pwritev2", K_WRITE },
	{ "fsync", K_FSYNC }, { "fdatasync", K_FSYNC },
	{ "sync", K_SYNC }, { "syncfs", K_SYNCFS },
	{ "rename", K_RENAME }, { "renameat", K_RENAMEAT }, { "renameat2", K_RENAMEAT },
};

enum { O_MAX_FILES, O_MAX_TARGETS };

static const struct dio_option options[] = {
	[O_MAX_FILES] = { "max_files", DIO_OPT_INT, "1024",
			  "written files remembered until they are synced or renamed" },
	[O_MAX_TARGETS] = { "max_targets", DIO_OPT_INT, "256",
			    "rename targets reported one by one; the rest are counted" },
	{ NULL, 0, NULL, NULL },
};

/*
 * The kinds of finding, as README.md explains them: `dio list rules` shows
 * them, and CI reports (SARIF, JUnit) list them. Findings take their code and
 * severity from here, so the two cannot drift apart.
 */
enum { R_NO_FSYNC, R_MORE, R_FORGOTTEN, RULES };

static const struct dio_rule rules[RULES + 1] = {
	[R_NO_FSYNC] = {
		"fsync_rename.no-fsync", DIO_SEV_WARNING, 0,
		"A file renamed before its data was synced",
		"A regular file written and then renamed (rename, renameat, renameat2) before an "
		"fsync or fdatasync of it, a syncfs of its file system or a sync; one finding per "
		"target path.",
		"The rename is atomic, but nothing orders it after the data: a file system may "
		"put the new name on disk before the blocks, and after a crash the target can be "
		"empty or half written, with the old contents gone.\n\n"
		"fsync (or fdatasync) the file before the rename, and fsync the directory after "
		"it so that the rename itself survives a crash.",
	},
	[R_MORE] = {
		"fsync_rename.more", DIO_SEV_INFO, 0,
		"More renames without fsync, not reported one by one",
		"Renames without fsync onto targets reported before, or onto targets past "
		"max_targets (256), counted and reported once at the end.",
		"Each moved a file whose data was not synced: the same fix applies. Raise "
		"max_targets to have more targets reported one by one.",
	},
	[R_FORGOTTEN] = {
		"fsync_rename.forgotten", DIO_SEV_WARNING, 0,
		"Written files forgotten before a sync or rename",
		"More files were written and not yet synced at once than the max_files (1024) the "
		"analyzer remembers: it dropped those written longest ago, and did not check "
		"their renames.",
		"A rename without fsync of a forgotten file goes unreported. Raise max_files "
		"(--analyzer fsync_rename:max_files=N).",
	},
	[RULES] = { NULL, 0, 0, NULL, NULL, NULL },
};

/*
 * A file written since it was last synced. Records are only valid during the
 * event call, so the first and the latest write are kept as copies (without
 * their variable tail) to show in the finding.
 */
struct file {
	struct dio_ev_syscall first;	/* first.tag is the key */
	struct dio_ev_syscall last;
	uint64_t writes, bytes;
	uint64_t used;			/* 0: a free slot */
};

/* A rename target already reported, by the hash of its path. */
struct target {
	uint64_t hash;			/* 0: a free slot */
	uint64_t repeats;		/* later renames onto it, not reported again */
};

struct state {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	uint8_t kind[NR_MAX];
	struct file *files;		/* nbuckets * WAYS slots */
	size_t nbuckets;
	struct target *targets;		/* open addressing, tsize slots, at most half full */
	size_t tsize, ntargets, max_targets;
	uint64_t evicted;		/* files pushed out of a full bucket before a rename */
	uint64_t repeats;		/* renames onto targets reported before */
	uint64_t unreported;		/* renames after the target table filled up */
};

static void fr_destroy(void *p)
{
	struct state *s = p;

	if (!s)
		return;
	free(s->files);
	free(s->targets);
	free(s);
}

static int fr_init(const struct dio_host *host, struct dio_ctx *ctx,
		   const struct dio_optval *o, void **out)
{
	struct state *s;
	int64_t max_files = o[O_MAX_FILES].i, max_targets = o[O_MAX_TARGETS].i;

	if (max_files < 1 || max_files > (1 << 24) || max_targets < 1 || max_targets > (1 << 24)) {
		host->log(ctx, "max_files and max_targets must be between 1 and %d", 1 << 24);
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->host = host;
	s->ctx = ctx;
	/* the kinds by number, from the host's names: numbers are the host's business */
	for (uint32_t nr = 0; nr < NR_MAX; nr++) {
		const char *name = host->syscall_name(nr);

		for (size_t i = 0; name && i < sizeof(calls) / sizeof(calls[0]); i++)
			if (!strcmp(name, calls[i].name))
				s->kind[nr] = calls[i].kind;
	}
	/* every byte of state is allocated here; nothing grows with the trace */
	s->nbuckets = ((size_t)max_files + WAYS - 1) / WAYS;
	s->files = calloc(s->nbuckets * WAYS, sizeof(*s->files));
	s->max_targets = (size_t)max_targets;
	for (s->tsize = 2; s->tsize < 2 * s->max_targets; s->tsize *= 2)
		;
	s->targets = calloc(s->tsize, sizeof(*s->targets));
	if (!s->files || !s->targets) {
		fr_destroy(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

static int same_tag(const struct dio_file_tag *a, const struct dio_file_tag *b)
{
	return a->ino == b->ino && a->dev == b->dev && a->gen == b->gen;
}

/* the WAYS slots a tag may sit in */
static struct file *bucket(struct state *s, const struct dio_file_tag *tag)
{
	uint64_t h = (tag->ino ^ (uint64_t)tag->gen << 32 ^ tag->dev) * 0x9e3779b97f4a7c15ULL;

	return &s->files[(h >> 32) % s->nbuckets * WAYS];
}

static struct file *lookup(struct state *s, const struct dio_file_tag *tag)
{
	struct file *b = bucket(s, tag);

	for (int i = 0; i < WAYS; i++)
		if (b[i].used && same_tag(&b[i].first.tag, tag))
			return &b[i];
	return NULL;
}

/* a record without its strings and content tail, to format later */
static void keep(struct dio_ev_syscall *dst, const struct dio_ev_syscall *e)
{
	*dst = *e;
	dst->hdr.size = sizeof(*dst);
	dst->str_len[0] = dst->str_len[1] = 0;
	dst->flags &= DIO_SF_FILE | DIO_SF_OFFSET;
}

static void note_write(struct state *s, const struct dio_ev_syscall *e)
{
	struct file *f = lookup(s, &e->tag), *b;

	if (!f) {
		/* a free slot of the bucket, else the one written longest ago */
		b = bucket(s, &e->tag);
		f = &b[0];
		for (int i = 0; i < WAYS && f->used; i++)
			if (!b[i].used || b[i].last.hdr.ts < f->last.hdr.ts)
				f = &b[i];
		if (f->used)
			s->evicted++;
		memset(f, 0, sizeof(*f));
		f->used = 1;
		keep(&f->first, e);
	}
	keep(&f->last, e);
	f->writes++;
	f->bytes += (uint64_t)e->ret;
}

/* after sync(2) (all) every file's data is on disk; after syncfs(2), that of the files on dev */
static void forget_synced(struct state *s, uint32_t dev, int all)
{
	for (size_t i = 0; i < s->nbuckets * WAYS; i++)
		if (s->files[i].used && (all || s->files[i].first.tag.dev == dev))
			s->files[i].used = 0;
}

/* string argument i (0 or 1) of a record, or NULL if it is missing, cut or unreadable */
static const char *str_arg(const struct dio_ev_syscall *e, int i)
{
	/* the host checked that each string lies in the record and ends with its NUL */
	return (e->flags & (i ? DIO_SF_STR1_TRUNC : DIO_SF_STR0_TRUNC)) ? NULL :
	       dio_ev_syscall_str(e, (unsigned int)i);
}

static const char *skip_dot(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return p;
}

/*
 * Does path (absolute, as dio knows it) name the file arg names? An absolute
 * arg must be equal; a relative one, resolved against a directory the analyzer
 * does not know, must end path at a '/'. Returns the length of the part of
 * path before arg (the directory arg was relative to), or -1.
 */
static long names(const char *path, const char *arg)
{
	size_t lp = strlen(path), la;

	if (arg[0] == '/')
		return strcmp(path, arg) ? -1 : 0;
	arg = skip_dot(arg);
	la = strlen(arg);
	if (!la || la >= lp || path[lp - la - 1] != '/' || strcmp(path + lp - la, arg))
		return -1;
	return (long)(lp - la);
}

static uint64_t str_hash(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	return h ? h : 1;
}

/* 1 when target is reported now, 0 when it was before or there is no room left to remember it */
static int first_report(struct state *s, const char *target)
{
	uint64_t h = str_hash(target);
	size_t i = h & (s->tsize - 1);

	while (s->targets[i].hash && s->targets[i].hash != h)
		i = (i + 1) & (s->tsize - 1);
	if (s->targets[i].hash) {
		s->targets[i].repeats++;
		s->repeats++;
		return 0;
	}
	if (s->ntargets >= s->max_targets) {
		s->unreported++;
		return 0;
	}
	s->targets[i].hash = h;
	s->ntargets++;
	return 1;
}

static void add_line(struct state *s, char *buf, size_t len, size_t *off, const void *rec)
{
	char line[LINE_MAX_LEN];
	int n = s->host->format_event(s->ctx, rec, DIO_FMT_TIME_TT | DIO_FMT_TID | DIO_FMT_DURATION,
				      line, sizeof(line));

	if (n < 0 || *off >= len)
		return;
	*off += (size_t)snprintf(buf + *off, len - *off, "%s%s\n", line,
				 (size_t)n >= sizeof(line) ? "..." : "");
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static int report(struct state *s, const struct file *f, const char *path,
		  const struct dio_ev_syscall *ren, const char *target)
{
	char title[DIO_PATH_MAX + 128], msg[3 * DIO_PATH_MAX + 512], dir[DIO_PATH_MAX];
	char excerpt[4 * LINE_MAX_LEN + 64];
	const char *slash = strrchr(target, '/');
	size_t off = 0;
	struct dio_finding fd = {
		.size = sizeof(fd),
		.severity = rules[R_NO_FSYNC].severity,
		.code = rules[R_NO_FSYNC].code,
		.title = title,
		.message = msg,
		.pid = ren->pid,
		.tid = ren->tid,
		.comm = ren->comm,
		.path = path,
		.tag = f->first.tag,
		.has_tag = 1,
		.ts_first = f->first.hdr.ts,
		.ts_last = ren->hdr.ts,
		.count = f->writes,
		.excerpt = excerpt,
	};

	if (slash && slash > target)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - target), target);
	else
		snprintf(dir, sizeof(dir), "%s", slash ? "/" : ".");
	snprintf(title, sizeof(title),
		 "renamed to %s without fsync: %" PRIu64 " byte%s in %" PRIu64 " write%s not synced",
		 target, f->bytes, plural(f->bytes), f->writes, plural(f->writes));
	snprintf(msg, sizeof(msg),
		 "%s was written, then renamed to %s\n"
		 "before its data was synced. A file system may put the rename on disk before\n"
		 "the data: after a crash, %s can be empty or hold part of the new\n"
		 "data, and the old contents are gone.\n"
		 "Fix: fsync() (or fdatasync()) the file before the rename, and fsync() the\n"
		 "directory %s after it so that the rename itself survives a crash.",
		 path, target, target, dir);
	add_line(s, excerpt, sizeof(excerpt), &off, &f->first);
	if (f->writes > 2 && off < sizeof(excerpt))
		off += (size_t)snprintf(excerpt + off, sizeof(excerpt) - off,
					"... %" PRIu64 " more write%s\n", f->writes - 2,
					plural(f->writes - 2));
	if (f->writes > 1)
		add_line(s, excerpt, sizeof(excerpt), &off, &f->last);
	add_line(s, excerpt, sizeof(excerpt), &off, ren);
	return s->host->emit_finding(s->ctx, &fd);
}

static int on_rename(struct state *s, const struct dio_ev_syscall *e)
{
	const char *from = str_arg(e, 0), *to = str_arg(e, 1), *path = NULL;
	char target[DIO_PATH_MAX];
	struct file *f = NULL;
	long base = -1;
	int err = 0;

	if (!from || !to)
		return 0;
	/* rename has no fd: find the file by name, the one written last if several match */
	for (size_t i = 0; i < s->nbuckets * WAYS; i++) {
		struct file *c = &s->files[i];
		const char *p;
		long b;

		if (!c->used || !(p = s->host->tag_path(s->ctx, &c->first.tag)))
			continue;
		b = names(p, from);
		if (b >= 0 && (!f || c->last.hdr.ts > f->last.hdr.ts)) {
			f = c;
			path = p;
			base = b;
		}
	}
	if (!f)
		return 0;
	/* a relative new name is in the same directory when both names are relative to one */
	to = skip_dot(to);
	if (to[0] != '/' && base > 0 &&
	    (s->kind[e->nr] == K_RENAME || (int32_t)e->args[0] == (int32_t)e->args[2]))
		snprintf(target, sizeof(target), "%.*s%s", (int)base, path, to);
	else
		snprintf(target, sizeof(target), "%s", to);
	if (first_report(s, target))
		err = report(s, f, path, e, target);
	f->used = 0;
	return err;
}

static int fr_event(void *p, const struct dio_ev_hdr *ev)
{
	struct state *s = p;
	const struct dio_ev_syscall *e = (const void *)ev;
	int has_file;

	/* only syscall records are subscribed to; failed calls change nothing */
	if (e->nr >= NR_MAX || e->ret < 0)
		return 0;
	has_file = !!(e->flags & DIO_SF_FILE);
	switch (s->kind[e->nr]) {
	case K_WRITE:
		if (has_file && e->ftype == DIO_FT_REG && e->ret > 0)
			note_write(s, e);
		return 0;
	case K_FSYNC:
		if (has_file) {
			struct file *f = lookup(s, &e->tag);

			if (f)
				f->used = 0;
		}
		return 0;
	case K_SYNC:
		forget_synced(s, 0, 1);
		return 0;
	case K_SYNCFS:
		if (has_file)
			forget_synced(s, e->tag.dev, 0);
		return 0;
	case K_RENAME:
	case K_RENAMEAT:
		return on_rename(s, e);
	}
	return 0;
}

static int fr_finish(void *p)
{
	struct state *s = p;
	char title[256], msg[1024];
	struct dio_finding fd = { .size = sizeof(fd), .title = title, .message = msg };
	int err = 0;

	if (s->repeats || s->unreported) {
		size_t again = 0, off = 0;

		for (size_t i = 0; i < s->tsize; i++)
			again += s->targets[i].repeats > 0;
		fd.severity = rules[R_MORE].severity;
		fd.code = rules[R_MORE].code;
		fd.count = s->repeats + s->unreported;
		snprintf(title, sizeof(title),
			 "%" PRIu64 " more rename%s without fsync, not reported one by one",
			 fd.count, plural(fd.count));
		if (s->repeats)
			off += (size_t)snprintf(msg, sizeof(msg),
				"%" PRIu64 " rename%s onto %zu target%s reported above.\n",
				s->repeats, plural(s->repeats), again, plural(again));
		if (s->unreported)
			off += (size_t)snprintf(msg + off, sizeof(msg) - off,
				"%" PRIu64 " rename%s onto targets past max_targets=%zu.\n",
				s->unreported, plural(s->unreported), s->max_targets);
		snprintf(msg + off, sizeof(msg) - off,
			 "Each moved a file whose data was not synced; the same fix applies.");
		err = s->host->emit_finding(s->ctx, &fd);
	}
	if (s->evicted && !err) {
		fd.severity = rules[R_FORGOTTEN].severity;
		fd.code = rules[R_FORGOTTEN].code;
		fd.count = s->evicted;
		snprintf(title, sizeof(title),
			 "%" PRIu64 " written file%s forgotten before a sync or rename (table full)",
			 s->evicted, plural(s->evicted));
		snprintf(msg, sizeof(msg),
			 "More files were written and not yet synced at once than the %zu the\n"
			 "analyzer remembers; renames of the files it forgot went unchecked.\n"
			 "Raise max_files (--analyzer fsync_rename:max_files=N).",
			 s->nbuckets * WAYS);
		err = s->host->emit_finding(s->ctx, &fd);
	}
	return err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "fsync_rename",
	.description = "files renamed (over another) while their written data was not fsynced",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL),
	.options = options,
	.init = fr_init,
	.event = fr_event,
	.finish = fr_finish,
	.destroy = fr_destroy,
	.rules = rules,
};
