// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A log shipper that reads through a pool of threads with pread at offsets it
 * hands out, as Node.js programs read through libuv's pool (the npm package
 * tail), and keeps its saved state in a registry file, DIR/registry: the
 * offset it shipped the log up to, as filebeat's registry or logtail's offset
 * file keep it, by the log's name.
 *
 * The parent, "logwriter", appends LINES lines of 26 bytes to DIR/app.log. A
 * first run of the shipper (a child process named "shipper") reads the log:
 * POOL threads take CHUNK bytes at a time, each pread asking for exactly what
 * fstat says is left, so that no read returns 0 or comes back short; it saves
 * the offset it reached. Then the writer rotates the log and writes BYTES
 * bytes (more than that offset), and a second run (another process of that
 * name) reads the registry and goes on from the saved offset in the file
 * that has the log's name now.
 *
 *   rename     the writer renames the log to app.log.1 and creates app.log
 *              again (another inode number): the second run ships the new
 *              log from the saved offset, its first bytes never.
 *   truncate   the writer truncates the log (copytruncate) and writes it
 *              again: the same loss in the same inode.
 *   fixed      rename; the registry also keeps the device and inode number,
 *              and the second run starts a log with other ones at 0.
 *
 * Prints "shipper PID1 PID2 writer PID ino INO offset OFF written BYTES lost
 * LOST": PID2 the second run, INO the new log's inode number, OFF the saved
 * offset, LOST the bytes written after the rotation that it never shipped.
 *
 * usage: shipper MODE DIR [LINES [BYTES]]   (defaults: 100 lines, 4000 bytes)
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "loglines.h"
#include "truth.h"

#define POOL	4	/* threads of the shipper's pool */
#define CHUNK	64	/* bytes a pool thread reads at a time */

enum mode { RENAME, TRUNCATE, FIXED, MODES };

static const char *const modes[MODES] = { "rename", "truncate", "fixed" };

static char path[PATH_MAX + 16], registry[PATH_MAX + 16];

/* the reads the pool shares: the next offset to hand out, up to end */
static struct {
	pthread_mutex_t lock;
	int fd;
	size_t next, end, shipped;
} job = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void *pool_thread(void *unused)
{
	char buf[CHUNK];

	(void)unused;
	for (;;) {
		size_t off, n;

		pthread_mutex_lock(&job.lock);
		off = job.next;
		n = job.end - off < CHUNK ? job.end - off : CHUNK;
		job.next += n;
		pthread_mutex_unlock(&job.lock);
		if (!n)
			return NULL;
		must(pread(job.fd, buf, n, (off_t)off) == (ssize_t)n, "pread");
		pthread_mutex_lock(&job.lock);
		job.shipped += n;
		pthread_mutex_unlock(&job.lock);
	}
}

/* ship fd from off to end through the pool: the bytes read */
static size_t ship(int fd, size_t off, size_t end)
{
	pthread_t t[POOL];

	job.fd = fd;
	job.next = off;
	job.end = end;
	job.shipped = 0;
	for (int i = 0; i < POOL; i++)
		must(!pthread_create(&t[i], NULL, pool_thread, NULL), "pthread_create");
	for (int i = 0; i < POOL; i++)
		must(!pthread_join(t[i], NULL), "pthread_join");
	return job.shipped;
}

/* one run of the shipper: reads the registry (not on the first), ships, saves; exits */
static void run(enum mode m, int first, int result)
{
	unsigned long long ino = 0, dev = 0;
	size_t off = 0, shipped;
	struct stat st;
	FILE *f;
	int fd;

	prctl(PR_SET_NAME, "shipper");
	if (!first) {
		f = fopen(registry, "r");
		must(f && fscanf(f, "%zu %llu %llu", &off, &dev, &ino) == 3, registry);
		fclose(f);
	}
	fd = open(path, O_RDONLY);
	must(fd >= 0, path);
	must(!fstat(fd, &st), "fstat");
	if (m == FIXED && !first && (ino != st.st_ino || dev != st.st_dev))
		off = 0;
	shipped = ship(fd, off, (size_t)st.st_size);
	must(!close(fd), "close");
	f = fopen(registry, "w");
	must(f != NULL, registry);
	fprintf(f, "%zu %llu %llu\n", (size_t)st.st_size, (unsigned long long)st.st_dev,
		(unsigned long long)st.st_ino);
	must(!fclose(f), registry);
	must(write(result, &shipped, sizeof(shipped)) == sizeof(shipped), "pipe write");
	exit(0);
}

/* a run in a child process: its pid; *shipped what it shipped */
static pid_t start_run(enum mode m, int first, size_t *shipped)
{
	int res[2], status;
	pid_t pid;

	must(!pipe(res), "pipe");
	pid = fork();
	must(pid >= 0, "fork");
	if (!pid)
		run(m, first, res[1]);
	must(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status),
	     "shipper run");
	must(read(res[0], shipped, sizeof(*shipped)) == sizeof(*shipped), "pipe read");
	close(res[0]);
	close(res[1]);
	return pid;
}

int main(int argc, char **argv)
{
	size_t lines = 100, bytes = 4000, first, second;
	unsigned int line = 0;
	pid_t p1, p2;
	struct stat st;
	int fd, m = -1;
	char old[PATH_MAX + 32];

	for (int i = 0; argc >= 3 && i < MODES; i++)
		if (!strcmp(argv[1], modes[i]))
			m = i;
	if (m < 0 || argc > 5) {
		fprintf(stderr, "usage: shipper rename|truncate|fixed DIR [LINES [BYTES]]\n");
		return 2;
	}
	if (argc > 3)
		lines = strtoul(argv[3], NULL, 10);
	if (argc > 4)
		bytes = strtoul(argv[4], NULL, 10);
	snprintf(path, sizeof(path), "%s/app.log", argv[2]);
	snprintf(registry, sizeof(registry), "%s/registry", argv[2]);
	snprintf(old, sizeof(old), "%s.1", path);
	prctl(PR_SET_NAME, "logwriter");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	must(fd >= 0, path);
	write_log_lines(fd, lines * LOG_LINE, &line);
	p1 = start_run(m, 1, &first);
	if (m == TRUNCATE) {
		must(!ftruncate(fd, 0), "ftruncate");
	} else {
		must(!rename(path, old), "rename");
		must(!close(fd), "close");
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644);
		must(fd >= 0, path);
	}
	write_log_lines(fd, bytes, &line);
	must(!fstat(fd, &st), "fstat");
	must(!close(fd), "close");
	p2 = start_run(m, 0, &second);
	printf("shipper %d %d writer %d ino %llu offset %zu written %zu lost %zu\n", (int)p1,
	       (int)p2, (int)getpid(), (unsigned long long)st.st_ino, first, bytes,
	       bytes - second);
	return 0;
}
