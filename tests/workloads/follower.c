// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A log writer and a log follower, as an application and Fluent Bit's tail
 * input in the DIO paper (§IV-B). The writer, a child process named
 * "logwriter", appends LINES lines of 26 bytes to DIR/app.log; the follower
 * reads them all and remembers how far it got; then the log is rotated and
 * the writer writes BYTES bytes to it again, and the follower goes on.
 *
 *   buggy           the writer deletes the log and creates it again: a
 *                   journaled ext4 hands the inode number out again. The
 *                   follower keys its saved offset by name and inode number,
 *                   finds the key again, seeks to the saved offset and reads
 *                   from there (then polls three more times).
 *   fixed           the same rotation; the follower's key also holds the
 *                   inode generation (ioctl FS_IOC_GETVERSION), so it starts
 *                   the new file at 0.
 *   truncate        the writer truncates the log (copytruncate) and appends
 *                   again; the follower keeps reading its fd where it was.
 *   truncate-fixed  the same; when a read returns 0 the follower compares the
 *                   size from fstat with its offset and starts again at 0.
 *   two-fds         the buggy rotation, and a follower that keeps two fds on
 *                   the log: it reads the first line through one to see that
 *                   the file is a log, and resumes through the other, which it
 *                   lseeks to the saved offset.
 *   line-boundary   the buggy rotation; the writer leaves a half line at the
 *                   end of the first log, and the follower saves the offset
 *                   after the last whole line it read, a bit below where it got.
 *   truncate-reopen the truncate rotation; when a read at its offset returns 0
 *                   the follower compares the size from fstat with it, closes
 *                   the log, opens it again and reads it from 0: it reads
 *                   every new byte, through the new descriptor.
 *
 * In the grown modes the writer truncates the log and writes BYTES (more than
 * the follower's offset) before the follower looks again; the follower reads
 * exactly the bytes it is told are there, so no read of it returns 0 or comes
 * back short:
 *
 *   grown           it keeps its fd and reads from its offset the size fstat
 *                   gives, less the offset: the first BYTES bytes are lost.
 *   grown-peek      the same, the size from an lseek to the end and an lseek
 *                   back to its offset, as Perl's File::Tail reads.
 *   grown-reopen    it closes the log, opens it again, lseeks to its offset
 *                   and reads the rest: the same loss.
 *   grown-fixed     it kept the first line it read; it reads the first line
 *                   again (pread at 0), sees another, and reads from 0.
 *
 * Prints "reader PID writer PID ino INO offset OFF written BYTES lost LOST":
 * OFF is the offset the follower saved (where it resumes the log), LOST the
 * bytes the writer wrote after the rotation that the follower's resumed
 * stream never read (a first line read only to look at it is not delivered).
 *
 * usage: follower MODE DIR [LINES [BYTES]]   (defaults: 100 lines, 1000 bytes)
 */
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "loglines.h"
#include "truth.h"

#define POLLS	3	/* reads a follower makes after it got to the end */
#define TRIES	20	/* creations until the inode number comes back */
#define HALF	13	/* bytes of the half line line-boundary leaves */

enum mode {
	BUGGY, FIXED, TRUNCATE, TRUNCATE_FIXED, TWO_FDS, LINE_BOUNDARY, TRUNCATE_REOPEN,
	GROWN, GROWN_PEEK, GROWN_REOPEN, GROWN_FIXED, MODES
};

static const char *const modes[MODES] = {
	"buggy", "fixed", "truncate", "truncate-fixed", "two-fds", "line-boundary",
	"truncate-reopen", "grown", "grown-peek", "grown-reopen", "grown-fixed",
};

/* the log is deleted and created again, not truncated */
static int recreates(enum mode m)
{
	return m < TRUNCATE_REOPEN && m != TRUNCATE && m != TRUNCATE_FIXED;
}

static char path[PATH_MAX + 16];

static void step(int fd)
{
	must(write(fd, "x", 1) == 1, "pipe write");
}

static void wait_step(int fd)
{
	char c;

	must(read(fd, &c, 1) == 1, "pipe read");
}

static unsigned int generation(int fd)
{
	unsigned int gen = 0;

	must(!ioctl(fd, FS_IOC_GETVERSION, &gen), "FS_IOC_GETVERSION");
	return gen;
}

/* delete the log and create it again until it has inode number ino; exits 98 if not */
static int recreate(ino_t ino)
{
	struct stat st;

	for (int i = 0; i < TRIES; i++) {
		int fd;

		must(!unlink(path), "unlink");
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
		must(fd >= 0, path);
		must(!fstat(fd, &st), "fstat");
		if (st.st_ino == ino)
			return fd;
		close(fd);
	}
	fprintf(stderr, "follower: %s: inode %llu was not handed out again in %d tries\n", path,
		(unsigned long long)ino, TRIES);
	exit(98);
}

static void writer(enum mode m, int go, int done, size_t lines, size_t bytes)
{
	unsigned int line = 0;
	struct stat st;
	int fd;

	prctl(PR_SET_NAME, "logwriter");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	must(fd >= 0, path);
	write_log_lines(fd, lines * LOG_LINE + (m == LINE_BOUNDARY ? HALF : 0), &line);
	must(!fstat(fd, &st), "fstat");
	if (recreates(m))
		must(!close(fd), "close");
	step(done);
	wait_step(go);
	if (recreates(m))
		fd = recreate(st.st_ino);
	else
		must(!ftruncate(fd, 0), "ftruncate");
	write_log_lines(fd, bytes, &line);
	must(!close(fd), "close");
	step(done);
	exit(0);
}

/*
 * read fd to its end from where it is: the bytes read; *whole (if not NULL):
 * the bytes up to the end of the last whole line
 */
static size_t read_all(int fd, size_t *whole)
{
	char buf[64];
	size_t got = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; whole && i < n; i++)
			if (buf[i] == '\n')
				*whole = got + (size_t)i + 1;
		got += (size_t)n;
	}
	must(n == 0, "read");
	return got;
}

/* read exactly n bytes from where fd is, 64 at most a read: none comes back short */
static size_t read_exactly(int fd, size_t n)
{
	char buf[64];
	size_t got = 0;

	while (got < n) {
		size_t ask = n - got < sizeof(buf) ? n - got : sizeof(buf);

		must(read(fd, buf, ask) == (ssize_t)ask, "read");
		got += ask;
	}
	return got;
}

/* the grown modes: the log was truncated and grew past off; fd is still at off */
static size_t read_grown(enum mode m, int fd, size_t off, const char *head)
{
	char first[LOG_LINE];
	struct stat st;
	off_t end;

	switch (m) {
	case GROWN:
		must(!fstat(fd, &st), "fstat");
		return read_exactly(fd, (size_t)st.st_size - off);
	case GROWN_PEEK:
		end = lseek(fd, 0, SEEK_END);
		must(end >= 0 && lseek(fd, (off_t)off, SEEK_SET) == (off_t)off, "lseek");
		return read_exactly(fd, (size_t)end - off);
	case GROWN_REOPEN:
		must(!close(fd), "close");
		fd = open(path, O_RDONLY);
		must(fd >= 0, path);
		must(lseek(fd, (off_t)off, SEEK_SET) == (off_t)off, "lseek");
		must(!fstat(fd, &st), "fstat");
		off = read_exactly(fd, (size_t)st.st_size - off);
		must(!close(fd), "close");
		return off;
	default:
		must(pread(fd, first, sizeof(first), 0) == (ssize_t)sizeof(first), "pread");
		must(!fstat(fd, &st), "fstat");
		if (memcmp(first, head, sizeof(first))) {
			must(lseek(fd, 0, SEEK_SET) == 0, "lseek");
			return read_exactly(fd, (size_t)st.st_size);
		}
		return read_exactly(fd, (size_t)st.st_size - off);
	}
}

static void poll_end(int fd)
{
	char buf[64];

	for (int i = 0; i < POLLS; i++)
		must(read(fd, buf, sizeof(buf)) == 0, "read at the end");
}

int main(int argc, char **argv)
{
	size_t lines = 100, bytes = 1000, off, whole = 0, got = 0;
	char first_line[LOG_LINE];
	int go[2], done[2], fd, status, m = -1;
	unsigned int gen;
	struct stat st;
	ino_t ino;
	pid_t pid;

	for (int i = 0; argc >= 3 && i < MODES; i++)
		if (!strcmp(argv[1], modes[i]))
			m = i;
	if (m < 0 || argc > 5) {
		fprintf(stderr, "usage: follower buggy|fixed|truncate|truncate-fixed|two-fds|"
			"line-boundary|truncate-reopen|grown|grown-peek|grown-reopen|grown-fixed "
			"DIR [LINES [BYTES]]\n");
		return 2;
	}
	if (argc > 3)
		lines = strtoul(argv[3], NULL, 10);
	if (argc > 4)
		bytes = strtoul(argv[4], NULL, 10);
	snprintf(path, sizeof(path), "%s/app.log", argv[2]);
	must(!pipe(go) && !pipe(done), "pipe");
	pid = fork();
	must(pid >= 0, "fork");
	if (!pid)
		writer(m, go[0], done[1], lines, bytes);

	wait_step(done[0]);
	fd = open(path, O_RDONLY);
	must(fd >= 0, path);
	must(!fstat(fd, &st), "fstat");
	/* the saved state: what Fluent Bit keeps in its database, and for fixed the generation */
	ino = st.st_ino;
	gen = generation(fd);
	must(pread(fd, first_line, sizeof(first_line), 0) == (ssize_t)sizeof(first_line), "pread");
	off = m >= GROWN ? read_exactly(fd, (size_t)st.st_size) : read_all(fd, &whole);
	if (m == LINE_BOUNDARY)
		off = whole;
	if (recreates(m)) {
		int hfd = -1;

		/* the file is closed while the writer rotates it, or its inode could not be reused */
		must(!close(fd), "close");
		step(go[1]);
		wait_step(done[0]);
		if (m == TWO_FDS) {
			char head[LOG_LINE];

			/* the first line, to see that it is a log; the resume is another fd's */
			hfd = open(path, O_RDONLY);
			must(hfd >= 0, path);
			must(read(hfd, head, sizeof(head)) == (ssize_t)sizeof(head), "read");
			must(!memcmp(head, "2024-", 5), "not a log");
		}
		fd = open(path, O_RDONLY);
		must(fd >= 0, path);
		must(!fstat(fd, &st), "fstat");
		if (st.st_ino == ino && (m != FIXED || generation(fd) == gen))
			must(lseek(fd, (off_t)off, SEEK_SET) == (off_t)off, "lseek");
		got = read_all(fd, NULL);
		poll_end(fd);
		if (hfd >= 0)
			must(!close(hfd), "close");
	} else {
		step(go[1]);
		wait_step(done[0]);
		if (m >= GROWN) {
			got = read_grown(m, fd, off, first_line);
			if (m == GROWN_REOPEN)
				fd = -1;
		} else if (m == TRUNCATE) {
			poll_end(fd);
		} else if (m == TRUNCATE_REOPEN) {
			char c;

			must(read(fd, &c, 1) == 0, "read at the end");
			must(!fstat(fd, &st), "fstat");
			if (st.st_size < lseek(fd, 0, SEEK_CUR)) {
				must(!close(fd), "close");
				fd = open(path, O_RDONLY);
				must(fd >= 0, path);
			}
			got = read_all(fd, NULL);
		} else {
			char c;

			must(read(fd, &c, 1) == 0, "read at the end");
			must(!fstat(fd, &st), "fstat");
			if (st.st_size < lseek(fd, 0, SEEK_CUR))
				must(lseek(fd, 0, SEEK_SET) == 0, "lseek");
			got = read_all(fd, NULL);
		}
	}
	must(fd < 0 || !close(fd), "close");
	must(waitpid(pid, &status, 0) == pid, "waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
	printf("reader %d writer %d ino %llu offset %zu written %zu lost %zu\n", (int)getpid(),
	       (int)pid, (unsigned long long)ino, off, bytes, bytes - got);
	return 0;
}
