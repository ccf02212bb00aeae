/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trace files (docs/trace-format.md): the records a session produced, exactly
 * as the ring delivered them, packed (engine/pack.h) and zstd-compressed in
 * blocks that each carry a CRC, behind a header and a metadata block, with an
 * index of the blocks at the end. A file cut short still yields every complete
 * block. Version 1 files (zlib, records as they are) are read too.
 */
#ifndef DIO_TRACEFILE_H
#define DIO_TRACEFILE_H

#include <stddef.h>
#include <stdint.h>

#define TF_MAGIC	"DIOTRACE"	/* 8 bytes at offset 0 */
#define TF_VERSION	2	/* written */
#define TF_VERSION_MIN	1	/* the oldest read */
#define TF_BLOCK_MAGIC	0x4b4c4244u	/* "DBLK" little-endian */
#define TF_TRAILER_MAGIC "DIOINDEX"

#define TF_BLK_META	1	/* metadata: "key=value\n" lines */
#define TF_BLK_RECORDS	2	/* records, each starting with struct dio_ev_hdr */
#define TF_BLK_INDEX	3	/* struct tf_index_ent[] of the record blocks */

/* Block flags. A reader seeking by time skips a record block outside the
 * window without inflating it only when TF_BF_VALID is set and TF_BF_STATE
 * is not: path and process records name files and threads for later blocks. */
#define TF_BF_STATE	0x1u		/* holds path or process records */
#define TF_BF_VALID	0x80000000u	/* the writer set the flags (0 in older files) */
/* Version 2, any block: how its payload is stored (version 1: always zlib, not packed) */
#define TF_BF_CODEC	0x0f00u		/* mask: */
#define TF_CODEC_ZLIB	0x0000u
#define TF_CODEC_ZSTD	0x0100u
#define TF_CODEC_NONE	0x0200u		/* stored as it is (--level 0) */
#define TF_BF_PACKED	0x1000u		/* records block: in the packed encoding */

#define TF_BLOCK_RAW_MAX (4u << 20)	/* largest uncompressed block either side accepts,
					 * before and after unpacking */
#define TF_META_MAX	(64u << 10)	/* metadata a reader keeps, all blocks together */

struct tf_file_hdr {
	char magic[8];
	uint32_t version;
	uint32_t hdr_size;	/* sizeof(struct tf_file_hdr) when written */
};
_Static_assert(sizeof(struct tf_file_hdr) == 16, "tf_file_hdr layout");

struct tf_block_hdr {
	uint32_t magic;		/* TF_BLOCK_MAGIC */
	uint32_t kind;		/* TF_BLK_* */
	uint32_t raw_len;	/* bytes after inflating */
	uint32_t comp_len;	/* bytes of payload that follow this header */
	uint32_t nrec;		/* records in a TF_BLK_RECORDS block */
	uint32_t crc;		/* crc32 of the compressed payload */
	uint64_t first_ts;	/* smallest and largest hdr.ts of its records */
	uint64_t last_ts;
	uint32_t flags;		/* TF_BF_* */
	uint32_t hdr_crc;	/* crc32 of this header up to this field */
};
_Static_assert(sizeof(struct tf_block_hdr) == 48, "tf_block_hdr layout");

struct tf_index_ent {
	uint64_t offset;	/* of the block header in the file */
	uint64_t first_ts;
	uint64_t last_ts;
	uint32_t nrec;
	uint32_t flags;		/* TF_BF_*, as in the block's header */
};
_Static_assert(sizeof(struct tf_index_ent) == 32, "tf_index_ent layout");

struct tf_trailer {
	uint64_t index_offset;	/* of the index block's header */
	char magic[8];		/* TF_TRAILER_MAGIC */
};
_Static_assert(sizeof(struct tf_trailer) == 16, "tf_trailer layout");

struct tf_writer;
struct tf_reader;

#define TF_W_DROP	0x1	/* writer behind: drop and count records instead of waiting
				 * (path and process records are waited for, never dropped) */
#define TF_W_FIXED	0x2	/* with TF_W_DROP: every block at the level asked for, behind
				 * or not (no tf_pace): what one level keeps, for benchmarks */

/*
 * Create path (truncated), write the header and the metadata block (meta:
 * "key=value\n" lines, copied) and start the writer thread, which compresses
 * and writes full blocks. level: zstd level 1-9, 0 to store; flags: TF_W_*. NULL and errno
 * on failure.
 */
struct tf_writer *tf_writer__open(const char *path, int level, const char *meta, int flags);
/*
 * Append one record (copied; it need not be aligned). When all block buffers
 * wait for the writer thread, waits, or with TF_W_DROP drops the record and
 * counts it. 0, or the writer's first error (-errno): what was written before
 * it stays readable.
 */
int tf_writer__add(struct tf_writer *w, const void *rec, size_t size);
/*
 * When the records waiting for a full block are max_age_ms old or more, hand
 * them to the writer thread as a block of their own, without waiting: a kill
 * loses at most that much. 0, or the writer's first error.
 */
int tf_writer__tick(struct tf_writer *w, uint64_t max_age_ms);
/* Records in the blocks written to the file so far (readable whatever happens next). */
uint64_t tf_writer__written(struct tf_writer *w);
/* Write every record added so far and wait for it. 0 or -errno. */
int tf_writer__flush(struct tf_writer *w);
/* Records dropped because the writer thread was behind (TF_W_DROP). */
uint64_t tf_writer__dropped(const struct tf_writer *w);

/*
 * How hard the writer thread compresses in TF_W_DROP mode (where the
 * alternative is losing records), block by block: the level asked for
 * while it keeps up; when blocks queue up for it, one zstd level lower per
 * block written (down to 1), then packing alone (level 0: about half the CPU
 * of packing and zstd 1, for about 3 times the bytes), before a record is
 * ever dropped. Records stored unpacked are no cheaper: copying 144 bytes a
 * call into the page cache costs as much CPU as packing them and zstd 1
 * together (docs/performance.md).
 *
 * Behind means 8 blocks queued (8 MiB of the writer's 64): the consumer hands
 * over what a drain took from the ring at once (4 MiB every 20 ms at 1.5 M
 * calls a second), and a writer that empties its queue between drains keeps
 * up, however long the queue was just after one. One level back up after the
 * writer has emptied its queue TF_PACE_CALM times without falling behind in
 * between; falling behind again soon after a step up doubles that. A writer
 * held back by the disk does not step down: fewer bytes is what helps it,
 * not less CPU. Separate from the writer so that it can be tested alone.
 */
#define TF_PACE_HIGH	8	/* blocks queued (the one taken included) that mean "behind" */
#define TF_PACE_CALM	16	/* queues emptied without falling behind, before a step up */
#define TF_PACE_CALM_MAX 1024

struct tf_pace {
	int max;		/* the level asked for */
	int level;		/* the level of the next block */
	unsigned int calm;	/* queues emptied since the writer was last behind */
	unsigned int need;	/* of those, what the next step up waits for */
	unsigned int since_up;	/* blocks written since the last step up */
	int lowest;		/* the lowest level used */
	uint64_t downs, ups;	/* steps taken */
};

void tf_pace__init(struct tf_pace *p, int level);
/*
 * The level for the block the writer thread takes now, with queued blocks
 * waiting (that one included; 1: the last, the queue is empty after it);
 * disk: the last block waited longer for the disk than it took of the CPU.
 */
int tf_pace__next(struct tf_pace *p, unsigned int queued, int disk);

/* Where the writer thread's time went while it wrote record blocks. */
struct tf_writer_time {
	uint64_t busy_ns;	/* wall time on blocks: compressing and writing */
	uint64_t compress_ns;	/* its CPU time compressing */
	uint64_t write_ns;	/* its CPU time in write(2) (copying into the page cache) */
	uint64_t runq_ns;	/* waiting for a CPU while busy (0 where the kernel does not say) */
	/* what tf_pace did */
	uint64_t lowered;	/* records written below the level asked for */
	uint64_t downs, ups;	/* steps down and back up */
	int level;		/* the level asked for */
	int depth;		/* steps below it at the lowest */
	int nice;		/* the writer thread's nice value, or weight__raise's error */
};
void tf_writer__time(struct tf_writer *w, struct tf_writer_time *out);
/* Add t to sum: times, records and steps add up, the depth is the larger. */
void tf_writer_time__add(struct tf_writer_time *sum, const struct tf_writer_time *t);
/*
 * What held a writer back, from its time (DIO_WRITER_* of dio/plugin.h):
 * its own CPU time, waiting for a CPU, or the rest of its busy time, waiting
 * for the disk; whichever is largest.
 */
uint32_t tf_writer_cause(const struct tf_writer_time *t);
/*
 * The file's size once the blocks handed to the writer thread are written:
 * the blocks on disk, and each pending one at its raw size (about its
 * largest). Not the block being filled. After tf_writer__flush, exact.
 */
uint64_t tf_writer__bytes(struct tf_writer *w);
/*
 * Write what is pending, then final_meta (if not NULL: "key=value\n" lines
 * learnt at the end, such as losses, which readers append to the metadata),
 * the index and the trailer; stop the thread and free w (also on error).
 * 0 or -errno.
 */
int tf_writer__close(struct tf_writer *w, const char *final_meta);

struct tf_stats {
	uint64_t blocks;	/* record blocks read intact */
	uint64_t records;	/* records handed out */
	uint64_t bad_blocks;	/* blocks skipped: bad CRC, bad header, inflate failure */
	uint64_t bad_records;	/* records skipped inside intact blocks (bad size) */
	uint64_t skipped_bytes;	/* bytes of the file not part of an intact block */
	uint64_t window_blocks;	/* record blocks skipped unread: outside the time window */
	uint64_t window_records;	/* records skipped for the same reason */
	int truncated;		/* the file ends inside a block or has no index */
	int shrunk;		/* the file got shorter while it was read */
	int read_errno;		/* reading failed there (EIO): the file ends where it did */
	int indexed;		/* the index at the end was found and valid */
};

/*
 * Open a trace file and read its header and metadata. NULL on failure with a
 * one-line reason in err (wrong magic, unknown version, truncated header, ...).
 */
struct tf_reader *tf_reader__open(const char *path, char *err, size_t errlen);
/*
 * The metadata text ("key=value\n" lines), owned by r. Metadata written at
 * the end of the file is appended once the reader has read past it.
 */
const char *tf_reader__meta(const struct tf_reader *r);
/* Value of a metadata key into buf; 0, or -ENOENT. */
int tf_reader__meta_get(const struct tf_reader *r, const char *key, char *buf, size_t len);
/*
 * The next record: *rec points into r's buffer (8-byte aligned), valid until
 * the next call.
 * 1 with a record, 0 at the end of the file, -errno on a read error. Damaged
 * blocks are skipped and counted, never returned.
 */
int tf_reader__next(struct tf_reader *r, const void **rec, size_t *size);
/*
 * Only records with lo <= ts <= hi are wanted (CLOCK_MONOTONIC ns): record
 * blocks entirely outside are skipped through the index (or their headers
 * when there is none) without being inflated, except that blocks holding path
 * or process records still hand out those. Records of a block that overlaps
 * the window are all handed out: the caller filters them. Call before the
 * first tf_reader__next.
 */
void tf_reader__set_window(struct tf_reader *r, uint64_t lo, uint64_t hi);
/*
 * Smallest timestamp of the first record block (from the index, else its
 * header), the origin of --since/--until; 0 when there is no record block.
 */
uint64_t tf_reader__first_ts(struct tf_reader *r);
void tf_reader__stats(const struct tf_reader *r, struct tf_stats *out);
/*
 * How far reading is: *done bytes of the file's *size, and (records not NULL)
 * the records the index says the file holds (0 when it has no valid index).
 */
void tf_reader__progress(const struct tf_reader *r, uint64_t *done, uint64_t *size,
			 uint64_t *records);
void tf_reader__close(struct tf_reader *r);

#endif
