// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Block requests and run-queue waits with known numbers.
 *
 *   blockq direct DIR  O_DIRECT pwrite64 then pread64 of NBLK 64 KiB blocks of
 *                      DIR/blocks; FIEMAP tells where each landed on the device.
 *                      Descriptor 9 gets one line per request dio must show:
 *                      "OP PID/TID MAJ:MIN SECTOR BYTES SYSCALL".
 *   blockq live DIR    O_DIRECT pwrite64 of NBLK 64 KiB blocks of DIR/blocks,
 *                      then waits up to LIVE_WAIT_S seconds for DIR/seen (made
 *                      by whoever saw a finding of those requests while this
 *                      process still runs), looking every 100 ms; then pread64
 *                      of the NBLK blocks. Prints "seen" or "not seen".
 *   blockq hog         a thread named "worker" computes for 4 ms of CPU time
 *                      and sleeps 1 ms, RUNS times, on the CPU a thread named
 *                      "hog" keeps busy: it waits for the CPU behind the hog
 *                      after each wakeup or preemption. Descriptor 9 gets
 *                      "PID/TID worker" and "PID/TID hog".
 *   blockq alone       the same worker without the hog: it should not wait.
 *   blockq rt          the worker and the hog, the worker a real-time thread
 *                      (SCHED_FIFO): the fix, it never waits behind the hog.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define NBLK	8
#define BLK	65536
#define RUNS	100
#define LIVE_WAIT_S 8

static void die(const char *what)
{
	fprintf(stderr, "blockq: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* the device byte offset of file offset off (one extent lookup) */
static uint64_t physical(int fd, uint64_t off)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[1];
	} q;

	memset(&q, 0, sizeof(q));
	q.fm.fm_start = off;
	q.fm.fm_length = 1;
	q.fm.fm_flags = FIEMAP_FLAG_SYNC;
	q.fm.fm_extent_count = 1;
	if (ioctl(fd, FS_IOC_FIEMAP, &q.fm) < 0)
		die("FIEMAP");
	if (q.fm.fm_mapped_extents != 1)
		die("FIEMAP: no extent");
	return q.ext[0].fe_physical + (off - q.ext[0].fe_logical);
}

/* DIR/blocks for direct I/O, its NBLK blocks allocated; *buf: a block of 'b' */
static int open_blocks(const char *dir, void **buf)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/blocks", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_DIRECT, 0644);
	if (fd < 0)
		die(path);
	if (posix_memalign(buf, 4096, BLK))
		die("posix_memalign");
	memset(*buf, 'b', BLK);
	/* allocate first, so the direct writes go to blocks FIEMAP already knows */
	if (fallocate(fd, 0, 0, (off_t)NBLK * BLK) < 0 || fsync(fd) < 0)
		die("fallocate");
	return fd;
}

static int direct(const char *dir)
{
	struct stat sb;
	void *buf;
	uint64_t sector[NBLK];
	pid_t pid = getpid(), tid = gettid();
	int fd = open_blocks(dir, &buf);

	if (fstat(fd, &sb) < 0)
		die("fstat");
	for (int i = 0; i < NBLK; i++)
		sector[i] = physical(fd, (uint64_t)i * BLK) / 512;
	for (int i = 0; i < NBLK; i++)
		if (pwrite(fd, buf, BLK, (off_t)i * BLK) != BLK)
			die("pwrite");
	for (int i = 0; i < NBLK; i++)
		if (pread(fd, buf, BLK, (off_t)i * BLK) != BLK)
			die("pread");
	close(fd);
	for (int i = 0; i < NBLK; i++)
		dprintf(9, "W %d/%d %u:%u %llu %d pwrite64\n", pid, tid, major(sb.st_dev),
			minor(sb.st_dev), (unsigned long long)sector[i], BLK);
	for (int i = 0; i < NBLK; i++)
		dprintf(9, "R %d/%d %u:%u %llu %d pread64\n", pid, tid, major(sb.st_dev),
			minor(sb.st_dev), (unsigned long long)sector[i], BLK);
	free(buf);
	return 0;
}

static int live(const char *dir)
{
	char seen[4096];
	struct timespec tick = { 0, 100000000 };
	struct stat sb;
	void *buf;
	int fd = open_blocks(dir, &buf), found = 0;

	snprintf(seen, sizeof(seen), "%s/seen", dir);
	for (int i = 0; i < NBLK; i++)
		if (pwrite(fd, buf, BLK, (off_t)i * BLK) != BLK)
			die("pwrite");
	for (int i = 0; i < LIVE_WAIT_S * 10 && !found; i++) {
		nanosleep(&tick, NULL);
		found = !stat(seen, &sb);
	}
	for (int i = 0; i < NBLK; i++)
		if (pread(fd, buf, BLK, (off_t)i * BLK) != BLK)
			die("pread");
	close(fd);
	free(buf);
	printf("%s\n", found ? "seen" : "not seen");
	return 0;
}

static volatile int stop;
static volatile pid_t hog_tid;

static void pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void *hog(void *arg)
{
	(void)arg;
	pin();
	pthread_setname_np(pthread_self(), "hog");
	hog_tid = gettid();
	while (!stop)
		;
	return NULL;
}

static uint64_t cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int realtime;

static void *worker(void *arg)
{
	struct timespec ms = { 0, 1000000 };

	(void)arg;
	pin();
	pthread_setname_np(pthread_self(), "worker");
	dprintf(9, "%d/%d worker\n", getpid(), gettid());
	for (int i = 0; i < RUNS; i++) {
		uint64_t until = cpu_ns() + 4000000;

		while (cpu_ns() < until)
			;
		nanosleep(&ms, NULL);
	}
	return NULL;
}

static int hogged(int with_hog)
{
	pthread_t h, s;

	if (with_hog) {
		if (pthread_create(&h, NULL, hog, NULL))
			die("pthread_create");
		while (!hog_tid)
			sched_yield();
	}
	/*
	 * The real-time worker is born real-time on CPU 0: this thread becomes
	 * so first and the worker inherits both at clone. Set on the worker after
	 * its start, its first run would queue behind the hog as an ordinary
	 * thread (glibc applies explicit attributes only after the clone).
	 */
	if (realtime) {
		struct sched_param sp = { .sched_priority = 1 };

		pin();
		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			die("SCHED_FIFO");
	}
	if (pthread_create(&s, NULL, worker, NULL))
		die("pthread_create");
	pthread_join(s, NULL);
	if (with_hog) {
		stop = 1;
		pthread_join(h, NULL);
		dprintf(9, "%d/%d hog\n", getpid(), hog_tid);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (fcntl(9, F_GETFD) < 0) {
		fprintf(stderr, "blockq: open descriptor 9 for the expected lines\n");
		return 2;
	}
	if (argc == 3 && !strcmp(argv[1], "direct"))
		return direct(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "live"))
		return live(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "rt"))
		realtime = 1;
	if (argc == 2 && (!strcmp(argv[1], "hog") || !strcmp(argv[1], "alone") || realtime))
		return hogged(strcmp(argv[1], "alone"));
	fprintf(stderr, "usage: blockq direct DIR | blockq live DIR | blockq hog | blockq alone | blockq rt\n");
	return 2;
}
