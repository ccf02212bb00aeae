// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trace file writer and reader (docs/trace-format.md). The reader reads the
 * file with pread, never through a mapping (a file cut short while it is read
 * must end the reading, not kill dio with SIGBUS), and trusts nothing in it: every header is checked (magic, its own CRC,
 * sizes) before its payload is looked at, a damaged header makes it search for
 * the next block, and a damaged payload costs that block only.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <dio/event.h>
#include <dio/plugin.h>
#include "engine/pack.h"
#include "engine/tracefile.h"
#include "engine/util.h"
#include "engine/weight.h"

#define BLOCK_TARGET	(1u << 20)	/* raw bytes per record block */
/*
 * Blocks being filled or waiting for the writer thread: 64 MiB, about 0.3 s
 * of the records of a program making 1.5 M calls a second. A writer among 64
 * busy threads on 2 CPUs, even at its raised weight, waits for a CPU that
 * long at times: with 16 blocks it lost records there, with 32 in about one
 * run in ten (docs/performance.md, "Busy programs"). Only a writer that falls
 * behind touches more than a few of them (spare, below).
 */
#define NBUF		64
#define BUF_CAP		(BLOCK_TARGET + 65536)	/* a block and the record that filled it */

/* the most payload any block may have: its raw bytes compressed by either codec */
#define COMP_BOUND	(ZSTD_COMPRESSBOUND(TF_BLOCK_RAW_MAX) > compressBound(TF_BLOCK_RAW_MAX) ? \
			 ZSTD_COMPRESSBOUND(TF_BLOCK_RAW_MAX) : compressBound(TF_BLOCK_RAW_MAX))

struct tf_buf {
	uint8_t *raw;
	size_t len;
	uint32_t nrec;
	uint32_t flags;		/* TF_BF_* */
	uint64_t first_ts, last_ts;
};

/*
 * The caller fills bufs[fill]; full buffers wait, in order from bufs[wr], for
 * the writer thread, which compresses and writes them. Compression never runs
 * on the caller's thread.
 */
struct tf_writer {
	FILE *f;
	int level;
	int flags;
	size_t comp_cap;
	uint8_t *comp;			/* writer thread's */
	uint8_t *packed;		/* writer thread's: a records block packed */
	struct pack_ctx *pack;
	ZSTD_CCtx *zc;
	struct tf_buf bufs[NBUF];
	unsigned int fill;		/* caller's */
	int stalled;			/* caller: no buffer free (TF_W_DROP) */
	uint64_t dropped;		/* caller's */
	uint64_t fill_since;		/* caller's: CLOCK_MONOTONIC ms of the fill buffer's first record */
	uint64_t written;		/* records in blocks on disk (atomic: the writer thread adds) */
	pthread_t thread;
	int started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* under lock */
	unsigned int wr, npend;
	/*
	 * The memory of the blocks not pending or being filled, the last one
	 * written out on top: the next block to fill takes it, so that while the
	 * writer keeps up the caller goes round the same few blocks, warm in the
	 * cache, and the others' memory is never touched. A slot that is neither
	 * pending nor being filled has no memory (raw NULL).
	 */
	uint8_t *spare[NBUF];
	unsigned int nspare;
	int closing;
	uint64_t off;			/* file offset of the next block */
	int err;			/* first write error, sticky */
	/* writer thread's, read by close after the join */
	struct tf_index_ent *index;
	size_t nindex, capindex;
	int schedstat;			/* /proc/thread-self/schedstat of the writer thread, or -1 */
	struct tf_pace pace;		/* writer thread's */
	struct tf_writer_time time;	/* under lock */
};

static uint64_t mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static uint32_t hdr_crc(const struct tf_block_hdr *h)
{
	return crc32(0, (const Bytef *)h, offsetof(struct tf_block_hdr, hdr_crc));
}

static uint64_t clock_ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* ns the calling thread waited for a CPU (schedstat's second field), 0 if unknown */
static uint64_t runq_ns(int fd)
{
	char buf[96];
	unsigned long long run, wait;
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof(buf) - 1, 0) : -1;

	if (n <= 0)
		return 0;
	buf[n] = 0;
	return sscanf(buf, "%llu %llu", &run, &wait) == 2 ? wait : 0;
}

/*
 * The payload of a block of len raw bytes: packed first when it is a records
 * block and packing makes it smaller, then compressed at level (0: not at
 * all). Sets h's flags and lengths; NULL when compression fails.
 */
static const uint8_t *encode_block(struct tf_writer *w, struct tf_block_hdr *h, const void *raw,
				   size_t len, int level)
{
	const uint8_t *src = raw;
	size_t n;

	if (h->kind == TF_BLK_RECORDS) {
		n = pack_records(w->pack, raw, len, w->packed);
		if (n < len) {
			src = w->packed;
			len = n;
			h->flags |= TF_BF_PACKED;
		}
	}
	h->raw_len = len;
	if (!level) {
		h->flags |= TF_CODEC_NONE;
		h->comp_len = len;
		return src;
	}
	n = ZSTD_compressCCtx(w->zc, w->comp, w->comp_cap, src, len, level);
	if (ZSTD_isError(n))
		return NULL;
	h->flags |= TF_CODEC_ZSTD;
	h->comp_len = n;
	return w->comp;
}

/*
 * Pack, compress (at level, as encode_block) and write one block; only one
 * thread at a time. e: records-block details (NULL for others), given the
 * block's flags. t: where the writer thread's time goes (NULL: not
 * measured). 0 or -errno.
 */
static int write_block(struct tf_writer *w, uint32_t kind, const void *raw, size_t len, int level,
		       struct tf_index_ent *e, uint64_t *written, struct tf_writer_time *t)
{
	struct tf_block_hdr h = { .magic = TF_BLOCK_MAGIC, .kind = kind };
	uint64_t wall0 = 0, cpu0 = 0, cpu1 = 0, q0 = 0;
	const uint8_t *pay;
	int err = 0;

	if (e) {
		h.nrec = e->nrec;
		h.first_ts = e->first_ts;
		h.last_ts = e->last_ts;
		h.flags = e->flags;
	}
	if (t) {
		wall0 = clock_ns(CLOCK_MONOTONIC);
		cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		q0 = runq_ns(w->schedstat);
	}
	pay = encode_block(w, &h, raw, len, level);
	if (!pay)
		return -ENOMEM;
	if (e)
		e->flags = h.flags;	/* the index repeats them */
	if (t)
		cpu1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	h.crc = crc32(0, pay, h.comp_len);
	h.hdr_crc = hdr_crc(&h);
	errno = 0;
	if (fwrite(&h, sizeof(h), 1, w->f) != 1 || fwrite(pay, h.comp_len, 1, w->f) != 1 ||
	    fflush(w->f))
		err = errno ? -errno : -EIO;
	if (t) {
		uint64_t cpu2 = clock_ns(CLOCK_THREAD_CPUTIME_ID), q1 = runq_ns(w->schedstat);

		pthread_mutex_lock(&w->lock);
		t->busy_ns += clock_ns(CLOCK_MONOTONIC) - wall0;
		t->compress_ns += cpu1 - cpu0;
		t->write_ns += cpu2 - cpu1;
		t->runq_ns += q1 > q0 ? q1 - q0 : 0;
		pthread_mutex_unlock(&w->lock);
	}
	if (err)
		return err;
	*written = sizeof(h) + h.comp_len;
	return 0;
}

static int add_index(struct tf_writer *w, const struct tf_index_ent *e)
{
	if (w->nindex == w->capindex) {
		size_t cap = w->capindex ? 2 * w->capindex : 64;
		void *p = realloc(w->index, cap * sizeof(*w->index));

		if (!p)
			return -ENOMEM;
		w->index = p;
		w->capindex = cap;
	}
	w->index[w->nindex++] = *e;
	return 0;
}

void tf_pace__init(struct tf_pace *p, int level)
{
	*p = (struct tf_pace){ .max = level, .level = level, .need = TF_PACE_CALM,
			       .lowest = level };
}

int tf_pace__next(struct tf_pace *p, unsigned int queued, int disk)
{
	if (p->since_up < UINT32_MAX)
		p->since_up++;
	if (queued >= TF_PACE_HIGH) {
		p->calm = 0;
		if (disk || !p->level)
			return p->level;
		/* behind again soon after a step up: that level was too much for now */
		if (p->ups && p->since_up <= p->need && p->need < TF_PACE_CALM_MAX)
			p->need *= 2;
		p->level--;
		p->downs++;
		if (p->level < p->lowest)
			p->lowest = p->level;
	} else if (queued <= 1 && p->level < p->max && ++p->calm >= p->need) {
		p->level++;
		p->ups++;
		p->calm = 0;
		p->since_up = 0;
	}
	return p->level;
}

static void *writer_main(void *arg)
{
	struct tf_writer *w = arg;
	int nice = weight__raise(), disk = 0;

	w->schedstat = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	pthread_mutex_lock(&w->lock);
	w->time.nice = nice;
	for (;;) {
		struct tf_writer_time t0;
		struct tf_buf *b;
		struct tf_index_ent e;
		uint64_t n = 0, cpu, wait;
		int err, level;

		while (!w->npend && !w->closing)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->npend)
			break;
		b = &w->bufs[w->wr];
		e = (struct tf_index_ent){ .offset = w->off, .first_ts = b->first_ts,
					   .last_ts = b->last_ts, .nrec = b->nrec,
					   .flags = b->flags | TF_BF_VALID };
		/* a caller that waits for the writer loses nothing: the level stays */
		level = (w->flags & (TF_W_DROP | TF_W_FIXED)) == TF_W_DROP ?
			tf_pace__next(&w->pace, w->npend, disk) : w->level;
		err = w->err;
		t0 = w->time;
		pthread_mutex_unlock(&w->lock);
		if (!err) {
			err = write_block(w, TF_BLK_RECORDS, b->raw, b->len, level, &e, &n, &w->time);
			if (!err) {
				__atomic_add_fetch(&w->written, e.nrec, __ATOMIC_RELAXED);
				err = add_index(w, &e);
			}
		}
		pthread_mutex_lock(&w->lock);
		/* the disk held this block back longer than the CPU did (see tf_writer_cause) */
		cpu = w->time.compress_ns + w->time.write_ns - t0.compress_ns - t0.write_ns;
		wait = w->time.runq_ns - t0.runq_ns;
		disk = w->time.busy_ns - t0.busy_ns > 2 * (cpu + wait);
		if (level < w->level)
			w->time.lowered += e.nrec;
		w->time.downs = w->pace.downs;
		w->time.ups = w->pace.ups;
		w->time.depth = w->pace.max - w->pace.lowest;
		if (err && !w->err)
			w->err = err;
		w->off += n;
		b->len = 0;
		b->nrec = 0;
		b->flags = 0;
		w->spare[w->nspare++] = b->raw;
		b->raw = NULL;
		w->wr = (w->wr + 1) % NBUF;
		w->npend--;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	if (w->schedstat >= 0)
		close(w->schedstat);
	return NULL;
}

static void free_writer(struct tf_writer *w)
{
	for (int i = 0; i < NBUF; i++)
		free(w->bufs[i].raw);
	for (unsigned int i = 0; i < w->nspare; i++)
		free(w->spare[i]);
	free(w->comp);
	free(w->packed);
	pack_ctx__free(w->pack);
	ZSTD_freeCCtx(w->zc);
	free(w->index);
	if (w->started) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
	}
	free(w);
}

struct tf_writer *tf_writer__open(const char *path, int level, const char *meta, int flags)
{
	struct tf_file_hdr fh = { .magic = TF_MAGIC, .version = TF_VERSION,
				  .hdr_size = sizeof(fh) };
	struct tf_writer *w;
	size_t mlen = meta ? strlen(meta) : 0;
	uint64_t n = 0;
	int err, fd;

	if (level < 0 || level > 9 || mlen > TF_BLOCK_RAW_MAX) {
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->level = level;
	w->flags = flags;
	tf_pace__init(&w->pace, level);
	w->time.level = level;
	w->comp_cap = COMP_BOUND;
	w->comp = malloc(w->comp_cap);
	w->packed = malloc(pack_bound(BUF_CAP));
	w->pack = pack_ctx__new();
	w->zc = ZSTD_createCCtx();
	err = w->comp && w->packed && w->pack && w->zc ? 0 : ENOMEM;
	for (int i = 0; !err && i < NBUF; i++)
		if (!(w->spare[w->nspare++] = malloc(BUF_CAP)))
			err = ENOMEM;
	if (err)
		goto fail;
	w->bufs[0].raw = w->spare[--w->nspare];
	fd = util__create_output(path);
	if (fd < 0) {
		err = -fd;
		goto fail;
	}
	w->f = fdopen(fd, "wb");
	if (!w->f) {
		close(fd);
		goto fail_errno;
	}
	if (fwrite(&fh, sizeof(fh), 1, w->f) != 1)
		goto fail_errno;
	err = -write_block(w, TF_BLK_META, meta ? meta : "", mlen, level, NULL, &n, NULL);
	if (err)
		goto fail;
	w->off = sizeof(fh) + n;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	w->started = 1;
	err = pthread_create(&w->thread, NULL, writer_main, w);
	if (err) {
		w->started = 0;
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		goto fail;
	}
	return w;
fail_errno:
	err = errno ? errno : EIO;
fail:
	if (w->f)
		fclose(w->f);
	w->started = 0;
	free_writer(w);
	errno = err;
	return NULL;
}

/* Hand the buffer being filled to the writer thread; the caller holds no lock. */
static int hand_off(struct tf_writer *w, int wait)
{
	int err;

	pthread_mutex_lock(&w->lock);
	if (w->bufs[w->fill].len && !w->stalled) {
		w->npend++;
		w->fill = (w->fill + 1) % NBUF;
		pthread_cond_broadcast(&w->cond);
	}
	/* the next buffer to fill is free once fewer than all are pending */
	while (wait && w->npend == NBUF && !w->err)
		pthread_cond_wait(&w->cond, &w->lock);
	w->stalled = w->npend == NBUF;
	/* the slot to fill is free: it takes the memory written out last */
	if (!w->stalled && !w->bufs[w->fill].raw)
		w->bufs[w->fill].raw = w->spare[--w->nspare];
	err = w->err;
	pthread_mutex_unlock(&w->lock);
	return err;
}

int tf_writer__tick(struct tf_writer *w, uint64_t max_age_ms)
{
	int busy, err;

	if (!w->bufs[w->fill].nrec || mono_ms() - w->fill_since < max_age_ms)
		return 0;
	/*
	 * A writer that is behind keeps the block filling: handing it over would
	 * take the last free buffer and make the next records dropped, a worse
	 * loss than the one this guards against. It goes with the next tick.
	 */
	pthread_mutex_lock(&w->lock);
	busy = w->npend + 1 >= NBUF;
	err = w->err;
	pthread_mutex_unlock(&w->lock);
	if (busy || err)
		return err;
	return hand_off(w, 0);
}

uint64_t tf_writer__written(struct tf_writer *w)
{
	return __atomic_load_n(&w->written, __ATOMIC_RELAXED);
}

int tf_writer__flush(struct tf_writer *w)
{
	int err = hand_off(w, 1);

	pthread_mutex_lock(&w->lock);
	while (w->npend && !w->err)
		pthread_cond_wait(&w->cond, &w->lock);
	err = w->err;
	w->stalled = 0;
	pthread_mutex_unlock(&w->lock);
	return err;
}

int tf_writer__add(struct tf_writer *w, const void *rec, size_t size)
{
	struct dio_ev_hdr hv, *h = &hv;
	struct tf_buf *b;

	if (size < sizeof(*h) || size > 65535)
		return -EINVAL;
	memcpy(h, rec, sizeof(*h));	/* rec need not be aligned */
	if (w->stalled) {
		/*
		 * Path and process records name files and threads for everything
		 * after them: for those (rare) ones the caller waits for the writer.
		 */
		int state = h->type == DIO_EV_PATH || h->type == DIO_EV_PROC;
		int err = hand_off(w, state || !(w->flags & TF_W_DROP));

		if (err)
			return err;
		if (w->stalled) {
			/* the disk is slower than the trace: count, never block the consumer */
			w->dropped++;
			return 0;
		}
	}
	b = &w->bufs[w->fill];
	memcpy(b->raw + b->len, rec, size);
	b->len += size;
	if (!b->nrec)
		w->fill_since = mono_ms();
	if (!b->nrec++ || h->ts < b->first_ts)
		b->first_ts = h->ts;
	if (b->nrec == 1 || h->ts > b->last_ts)
		b->last_ts = h->ts;
	if (h->type == DIO_EV_PATH || h->type == DIO_EV_PROC)
		b->flags |= TF_BF_STATE;
	if (b->len >= BLOCK_TARGET)
		return hand_off(w, !(w->flags & TF_W_DROP));
	return 0;
}

uint64_t tf_writer__dropped(const struct tf_writer *w)
{
	return w->dropped;
}

void tf_writer__time(struct tf_writer *w, struct tf_writer_time *out)
{
	pthread_mutex_lock(&w->lock);
	*out = w->time;
	pthread_mutex_unlock(&w->lock);
}

void tf_writer_time__add(struct tf_writer_time *sum, const struct tf_writer_time *t)
{
	sum->busy_ns += t->busy_ns;
	sum->compress_ns += t->compress_ns;
	sum->write_ns += t->write_ns;
	sum->runq_ns += t->runq_ns;
	sum->lowered += t->lowered;
	sum->downs += t->downs;
	sum->ups += t->ups;
	sum->level = t->level;
	sum->nice = t->nice;
	if (t->depth > sum->depth)
		sum->depth = t->depth;
}

uint32_t tf_writer_cause(const struct tf_writer_time *t)
{
	uint64_t cpu = t->compress_ns + t->write_ns, other = cpu + t->runq_ns;
	uint64_t io = t->busy_ns > other ? t->busy_ns - other : 0;

	if (!t->busy_ns)
		return DIO_WRITER_UNKNOWN;
	if (cpu >= t->runq_ns && cpu >= io)
		return DIO_WRITER_CPU;
	return t->runq_ns >= io ? DIO_WRITER_CPU_WAIT : DIO_WRITER_DISK;
}

uint64_t tf_writer__bytes(struct tf_writer *w)
{
	uint64_t off;

	/*
	 * The blocks handed over but not yet written count too, at their raw
	 * size (what a block takes at most, packing and compression aside): a
	 * caller that cuts files by size must not depend on how far behind the
	 * writer thread is, or a burst of records all queued before the first
	 * block is written would never be cut.
	 */
	pthread_mutex_lock(&w->lock);
	off = w->off;
	for (unsigned int i = 0; i < w->npend; i++)
		off += sizeof(struct tf_block_hdr) + w->bufs[(w->wr + i) % NBUF].len;
	pthread_mutex_unlock(&w->lock);
	return off;
}

int tf_writer__close(struct tf_writer *w, const char *final_meta)
{
	struct tf_trailer t = { .magic = TF_TRAILER_MAGIC };
	uint64_t n = 0;
	int err;

	if (!w)
		return 0;
	err = tf_writer__flush(w);
	pthread_mutex_lock(&w->lock);
	w->closing = 1;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	if (!err && final_meta && *final_meta) {
		err = write_block(w, TF_BLK_META, final_meta, strlen(final_meta), w->level, NULL,
				  &n, NULL);
		w->off += n;
	}
	if (!err) {
		t.index_offset = w->off;
		if (w->nindex * sizeof(*w->index) > TF_BLOCK_RAW_MAX)
			t.index_offset = 0;	/* too many blocks to index: readers scan */
		else
			err = write_block(w, TF_BLK_INDEX, w->index,
					  w->nindex * sizeof(*w->index), w->level,
					  &(struct tf_index_ent){ .nrec = w->nindex }, &n, NULL);
	}
	if (!err && fwrite(&t, sizeof(t), 1, w->f) != 1)
		err = errno ? -errno : -EIO;
	if (fclose(w->f) && !err)
		err = errno ? -errno : -EIO;
	free_writer(w);
	return err;
}

/* ---- reader ------------------------------------------------------------- */

/* The reader's window: a block header with the largest payload a header may announce */
#define WIN_CAP (sizeof(struct tf_block_hdr) + COMP_BOUND)

struct tf_reader {
	int fd;
	uint32_t version;
	ZSTD_DCtx *zd;
	struct pack_ctx *pack;
	uint8_t *packed;	/* a packed block, decompressed */
	size_t size;		/* the file's size when opened, or where it was found to end */
	uint8_t *win;		/* file bytes [win_off, win_off + win_len) */
	size_t win_off, win_len;
	size_t pos;		/* next block header */
	uint8_t *raw;		/* the current block, inflated */
	uint64_t *rec;		/* the record handed out, aligned as in the ring */
	size_t raw_len, rpos;
	char *meta;
	size_t meta_len;		/* strlen(meta), at most TF_META_MAX */
	struct tf_stats st;
	int done;
	/* the index, when the file ends with a valid one */
	struct tf_index_ent *idx;
	size_t nidx, icur;
	/* tf_reader__set_window */
	int window;
	uint64_t lo, hi;
	int state_only;		/* the current block is outside: path and process records only */
};

/*
 * len bytes of the file at off, or NULL when the file ends before them: it
 * may have been cut short since it was opened (then r->size moves back to
 * where it ends now) or fail to read (then it ends there too).
 */
static const uint8_t *view(struct tf_reader *r, size_t off, size_t len)
{
	size_t got = 0;

	if (off >= r->win_off && off - r->win_off <= r->win_len &&
	    len <= r->win_len - (off - r->win_off))
		return r->win + (off - r->win_off);
	if (len > WIN_CAP || off >= r->size)
		return NULL;
	while (got < WIN_CAP && off + got < r->size) {
		ssize_t n = pread(r->fd, r->win + got, WIN_CAP - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r->st.shrunk = n == 0;
			r->st.read_errno = n < 0 ? errno : 0;
			r->size = off + got;
			break;
		}
		got += (size_t)n;
	}
	r->win_off = off;
	r->win_len = got;
	return len <= got ? r->win : NULL;
}

static int outside(const struct tf_reader *r, uint64_t first_ts, uint64_t last_ts)
{
	return r->window && (last_ts < r->lo || first_ts > r->hi);
}

/* an outside block that holds nothing a later block needs */
static int skippable(const struct tf_reader *r, uint64_t first_ts, uint64_t last_ts,
		     uint32_t flags)
{
	return outside(r, first_ts, last_ts) && (flags & TF_BF_VALID) && !(flags & TF_BF_STATE);
}

/* A plausible block header at off: magic, own CRC, kind and sizes in range. */
/*
 * Whether an intact block header is at off; it is copied to *out (when not
 * NULL): blocks follow each other unpadded, so a header is rarely aligned.
 */
static int header_at(struct tf_reader *r, size_t off, struct tf_block_hdr *out)
{
	const uint8_t *p;
	struct tf_block_hdr h;

	if (r->size - off < sizeof(h) || !(p = view(r, off, sizeof(h))))
		return 0;
	memcpy(&h, p, sizeof(h));
	if (out)
		*out = h;
	return h.magic == TF_BLOCK_MAGIC && h.hdr_crc == hdr_crc(&h) &&
	       h.kind >= TF_BLK_META && h.kind <= TF_BLK_INDEX &&
	       h.raw_len <= TF_BLOCK_RAW_MAX && h.comp_len <= COMP_BOUND;
}

/*
 * Decompress the payload pay of the block h into out (cap bytes) and, for a
 * packed records block, unpack it into r->raw. The length in *len; 0 when the
 * payload is what its header says, -1 when it is not.
 */
static int decode_block(struct tf_reader *r, const struct tf_block_hdr *h, const uint8_t *pay,
			uint8_t *out, size_t *len)
{
	uint32_t codec = r->version >= 2 ? h->flags & TF_BF_CODEC : TF_CODEC_ZLIB;
	int packed = r->version >= 2 && h->kind == TF_BLK_RECORDS && (h->flags & TF_BF_PACKED);
	uint8_t *dst = packed ? r->packed : out;
	size_t n;

	if (crc32(0, pay, h->comp_len) != h->crc)
		return -1;
	switch (codec) {
	case TF_CODEC_ZLIB: {
		uLongf zn = h->raw_len;

		if (uncompress(dst, &zn, pay, h->comp_len) != Z_OK)
			return -1;
		n = zn;
		break;
	}
	case TF_CODEC_ZSTD:
		n = ZSTD_decompressDCtx(r->zd, dst, h->raw_len, pay, h->comp_len);
		if (ZSTD_isError(n))
			return -1;
		break;
	case TF_CODEC_NONE:
		n = h->comp_len;
		if (n <= h->raw_len)
			memcpy(dst, pay, n);
		break;
	default:
		return -1;
	}
	if (n != h->raw_len)
		return -1;
	if (packed && unpack_records(r->pack, r->packed, n, out, TF_BLOCK_RAW_MAX, &n))
		return -1;
	*len = n;
	return 0;
}

/*
 * Load the block at r->pos. 1: an intact block of kind *kind is in r->raw;
 * 0: end of file; the position always moves past what was looked at.
 */
static int load_block(struct tf_reader *r, uint32_t *kind)
{
	struct tf_block_hdr h;
	const uint8_t *pay;
	size_t len;

	while (r->pos < r->size) {
		if (!header_at(r, r->pos, NULL)) {
			size_t from = r->pos;

			if (r->size - r->pos < sizeof(h)) {
				/* a tail too short for a header: cut short */
				r->st.skipped_bytes += r->size - r->pos;
				r->st.truncated = 1;
				r->pos = r->size;
				return 0;
			}
			/* damaged header: look for the next intact one */
			r->st.bad_blocks++;
			do
				r->pos++;
			while (r->pos < r->size && !header_at(r, r->pos, NULL));
			r->st.skipped_bytes += r->pos - from;
			if (r->pos >= r->size)
				r->st.truncated = !r->st.indexed;
			continue;
		}
		memcpy(&h, view(r, r->pos, sizeof(h)), sizeof(h));
		if (r->size - r->pos - sizeof(h) < h.comp_len ||
		    !(pay = view(r, r->pos, sizeof(h) + h.comp_len))) {
			r->st.skipped_bytes += r->size - r->pos;
			r->st.truncated = 1;
			r->pos = r->size;
			return 0;
		}
		r->pos += sizeof(h) + h.comp_len;
		if (h.kind == TF_BLK_RECORDS && skippable(r, h.first_ts, h.last_ts, h.flags)) {
			r->st.window_blocks++;
			r->st.window_records += h.nrec;
			continue;
		}
		r->state_only = h.kind == TF_BLK_RECORDS && outside(r, h.first_ts, h.last_ts);
		pay += sizeof(h);
		if (decode_block(r, &h, pay, r->raw, &len)) {
			if (h.kind == TF_BLK_RECORDS)
				r->st.bad_blocks++;
			r->st.skipped_bytes += sizeof(h) + h.comp_len;
			continue;
		}
		r->raw_len = len;
		r->rpos = 0;
		*kind = h.kind;
		return 1;
	}
	return 0;
}

/*
 * The index, if the file ends with a trailer that points at an intact index
 * block whose entries point, in order, at record blocks before it. Anything
 * less and the reader walks the block headers instead.
 */
static void load_index(struct tf_reader *r)
{
	struct tf_trailer t;
	struct tf_block_hdr h;
	const uint8_t *pay;
	size_t len;

	if (r->size < r->pos + sizeof(h) + sizeof(t) ||
	    !(pay = view(r, r->size - sizeof(t), sizeof(t))))
		return;
	memcpy(&t, pay, sizeof(t));
	if (memcmp(t.magic, TF_TRAILER_MAGIC, sizeof(t.magic)) || t.index_offset < r->pos ||
	    t.index_offset > r->size - sizeof(t) - sizeof(h) || !header_at(r, t.index_offset, NULL))
		return;
	memcpy(&h, view(r, t.index_offset, sizeof(h)), sizeof(h));
	if (h.kind != TF_BLK_INDEX || h.raw_len % sizeof(*r->idx) ||
	    t.index_offset + sizeof(h) + h.comp_len != r->size - sizeof(t) ||
	    !(pay = view(r, t.index_offset, sizeof(h) + h.comp_len)))
		return;
	r->idx = malloc(h.raw_len ? h.raw_len : 1);
	if (!r->idx || decode_block(r, &h, pay + sizeof(h), (uint8_t *)r->idx, &len))
		goto bad;
	r->nidx = len / sizeof(*r->idx);
	for (size_t i = 0; i < r->nidx; i++)
		if (r->idx[i].offset < r->pos || r->idx[i].offset >= t.index_offset ||
		    (i && r->idx[i].offset <= r->idx[i - 1].offset))
			goto bad;
	return;
bad:
	free(r->idx);
	r->idx = NULL;
	r->nidx = 0;
}

/*
 * With a window and an index: when the next block is one the index knows,
 * move past the index's run of skippable blocks without touching them.
 */
static void seek_index(struct tf_reader *r)
{
	size_t j;

	while (r->icur < r->nidx && r->idx[r->icur].offset < r->pos)
		r->icur++;
	if (r->icur >= r->nidx || r->idx[r->icur].offset != r->pos)
		return;
	for (j = r->icur; j < r->nidx; j++) {
		const struct tf_index_ent *e = &r->idx[j];

		if (!skippable(r, e->first_ts, e->last_ts, e->flags))
			break;
		r->st.window_blocks++;
		r->st.window_records += e->nrec;
	}
	if (j == r->icur)
		return;
	if (j < r->nidx) {
		r->pos = r->idx[j].offset;
	} else {
		/* past the last record block: on to the final metadata and the index */
		size_t off = r->idx[j - 1].offset;

		struct tf_block_hdr h;

		if (header_at(r, off, &h)) {
			r->pos = off + sizeof(h) + h.comp_len;
		} else {
			/* damage where the index points: let the header walk judge it */
			r->st.window_blocks--;
			r->st.window_records -= r->idx[j - 1].nrec;
			r->pos = off;
		}
	}
	r->icur = j;
}

void tf_reader__set_window(struct tf_reader *r, uint64_t lo, uint64_t hi)
{
	r->window = 1;
	r->lo = lo;
	r->hi = hi;
}

uint64_t tf_reader__first_ts(struct tf_reader *r)
{
	struct tf_block_hdr h;
	size_t off = r->pos;

	if (r->nidx)
		return r->idx[0].first_ts;
	/* the first intact record block's header, without reading anything else */
	while (off < r->size && header_at(r, off, &h)) {
		if (h.kind == TF_BLK_RECORDS)
			return h.first_ts;
		if (r->size - off - sizeof(h) < h.comp_len)
			break;
		off += sizeof(h) + h.comp_len;
	}
	return 0;
}

struct tf_reader *tf_reader__open(const char *path, char *err, size_t errlen)
{
	struct tf_reader *r = NULL;
	struct tf_block_hdr bh;
	struct tf_file_hdr fh;
	const uint8_t *p;
	struct stat sb;
	uint32_t kind;
	int fd;

	/* non-blocking: a FIFO must be refused below, not waited on here */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &sb) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a trace file", path);
		goto fail;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (a trace file is one dio record wrote)",
			 path);
		goto fail;
	}
	if ((size_t)sb.st_size < sizeof(fh)) {
		snprintf(err, errlen, "%s: %s (%lld bytes, a trace file starts with %zu)", path,
			 sb.st_size ? "truncated header" : "empty file", (long long)sb.st_size,
			 sizeof(fh));
		goto fail;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->raw = malloc(TF_BLOCK_RAW_MAX + 1)) || !(r->rec = malloc(65536)) ||
	    !(r->win = malloc(WIN_CAP)) || !(r->packed = malloc(TF_BLOCK_RAW_MAX)) ||
	    !(r->pack = pack_ctx__new()) || !(r->zd = ZSTD_createDCtx())) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	r->fd = fd;
	fd = -1;
	r->size = sb.st_size;
	if (!(p = view(r, 0, sizeof(fh)))) {
		snprintf(err, errlen, "%s: %s", path, r->st.read_errno ?
			 strerror(r->st.read_errno) : "cut short while opening it");
		goto fail;
	}
	memcpy(&fh, p, sizeof(fh));
	if (memcmp(fh.magic, TF_MAGIC, sizeof(fh.magic))) {
		snprintf(err, errlen, "%s: not a dio trace file (wrong magic)", path);
		goto fail;
	}
	if (fh.version < TF_VERSION_MIN || fh.version > TF_VERSION) {
		snprintf(err, errlen, "%s: trace format version %u, this dio reads versions %u to %u%s",
			 path, fh.version, TF_VERSION_MIN, TF_VERSION,
			 fh.version > TF_VERSION ? ": upgrade dio" : "");
		goto fail;
	}
	r->version = fh.version;
	if (fh.hdr_size < sizeof(fh) || fh.hdr_size > r->size) {
		snprintf(err, errlen, "%s: bad header size %u", path, fh.hdr_size);
		goto fail;
	}
	r->pos = fh.hdr_size;
	/* the metadata block comes first; a file without one is still read */
	if (header_at(r, r->pos, &bh) && bh.kind == TF_BLK_META && load_block(r, &kind) == 1) {
		r->meta = strndup((const char *)r->raw,
				  r->raw_len < TF_META_MAX ? r->raw_len : TF_META_MAX);
		r->raw_len = 0;
	} else {
		r->meta = strdup("");
	}
	if (!r->meta) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	r->meta_len = strlen(r->meta);
	load_index(r);
	return r;
fail:
	if (fd >= 0)
		close(fd);
	tf_reader__close(r);
	return NULL;
}

const char *tf_reader__meta(const struct tf_reader *r)
{
	return r->meta;
}

int tf_reader__meta_get(const struct tf_reader *r, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);

	for (const char *l = r->meta; *l; ) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);

		if (n > klen && !strncmp(l, key, klen) && l[klen] == '=') {
			snprintf(buf, len, "%.*s", (int)(n - klen - 1), l + klen + 1);
			return 0;
		}
		l += n + (nl != NULL);
	}
	return -ENOENT;
}

void tf_reader__progress(const struct tf_reader *r, uint64_t *done, uint64_t *size,
			 uint64_t *records)
{
	*done = r->pos;
	*size = r->size;
	if (!records)
		return;
	*records = 0;
	for (size_t i = 0; i < r->nidx; i++)
		*records += r->idx[i].nrec;
}

int tf_reader__next(struct tf_reader *r, const void **rec, size_t *size)
{
	uint32_t kind;

	for (;;) {
		if (r->rpos < r->raw_len) {
			struct dio_ev_hdr h;

			if (r->raw_len - r->rpos < sizeof(h)) {
				r->st.bad_records++;
				r->rpos = r->raw_len;
				continue;
			}
			memcpy(&h, r->raw + r->rpos, sizeof(h));
			if (h.size < sizeof(h) || h.size > r->raw_len - r->rpos) {
				/* the block's CRC held, so the writer wrote this: drop the rest */
				r->st.bad_records++;
				r->rpos = r->raw_len;
				continue;
			}
			if (r->state_only && h.type != DIO_EV_PATH && h.type != DIO_EV_PROC) {
				r->st.window_records++;
				r->rpos += h.size;
				continue;
			}
			/* records follow each other unpadded; their structs want 8-byte alignment */
			memcpy(r->rec, r->raw + r->rpos, h.size);
			*rec = r->rec;
			*size = h.size;
			r->rpos += h.size;
			r->st.records++;
			return 1;
		}
		if (r->window && r->nidx)
			seek_index(r);
		if (r->done || load_block(r, &kind) != 1) {
			r->done = 1;
			if (!r->st.indexed)
				r->st.truncated = 1;
			return 0;
		}
		if (kind == TF_BLK_INDEX) {
			r->raw_len = 0;
			const uint8_t *t = view(r, r->pos, sizeof(struct tf_trailer));

			if (r->size - r->pos == sizeof(struct tf_trailer) && t &&
			    !memcmp(t + 8, TF_TRAILER_MAGIC, 8)) {
				/* the end as the writer left it */
				r->st.indexed = 1;
				r->pos = r->size;
			}
			continue;
		}
		if (kind == TF_BLK_META) {
			/*
			 * what the writer learnt at the end (losses): appended to the
			 * metadata, up to TF_META_MAX in all; more is not a writer's (it
			 * writes two), and counts as damage rather than cost memory and time
			 */
			char *m = NULL;

			if (r->meta_len + r->raw_len <= TF_META_MAX)
				m = realloc(r->meta, r->meta_len + r->raw_len + 1);
			if (m) {
				memcpy(m + r->meta_len, r->raw, r->raw_len);
				r->meta_len += strnlen(m + r->meta_len, r->raw_len);
				m[r->meta_len] = 0;
				r->meta = m;
			} else {
				r->st.bad_blocks++;
			}
			r->raw_len = 0;
			continue;
		}
		if (kind != TF_BLK_RECORDS) {
			r->raw_len = 0;
			continue;
		}
		r->st.blocks++;
	}
}

void tf_reader__stats(const struct tf_reader *r, struct tf_stats *out)
{
	*out = r->st;
}

void tf_reader__close(struct tf_reader *r)
{
	if (!r)
		return;
	if (r->win)
		close(r->fd);
	free(r->win);
	free(r->packed);
	pack_ctx__free(r->pack);
	ZSTD_freeDCtx(r->zd);
	free(r->raw);
	free(r->rec);
	free(r->meta);
	free(r->idx);
	free(r);
}
