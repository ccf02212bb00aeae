// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inode reuse: write DIR/log, delete it, create DIR/log again until the file
 * system hands out the same inode number (a journaled ext4 does so at once),
 * write it. The two files differ only in their inode generation, which is
 * what dio's file tag is for. Writes the expected lines to descriptor 9 (see
 * truth.h) and "INO GEN1 GEN2" to standard output.
 *
 * usage: reuse DIR 9> EXPECT
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "truth.h"

#define TRIES 20

static char buf[100];

static struct tfile make(const char *path)
{
	struct tfile f;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die(path);
	tfile_set(&f, fd, path);
	return f;
}

/* the tag's inode number: "type=reg tag=7:0|12|3407" -> 12 */
static unsigned long long ino_of(const struct tfile *f)
{
	const char *p = strchr(f->tag.s, '|');

	return p ? strtoull(p + 1, NULL, 10) : 0;
}

static unsigned long gen_of(const struct tfile *f)
{
	const char *p = strrchr(f->tag.s, '|');

	return p ? strtoul(p + 1, NULL, 10) : 0;
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct tfile a, b;
	int tries;

	if (argc != 2) {
		fprintf(stderr, "usage: reuse DIR 9> EXPECT\n");
		return 2;
	}
	truth_init("reuse");
	abs_dir(argv[1], dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/log", dir);

	a = make(path);
	truth("openat(AT_FDCWD, \"%s\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = %d<%s> {%s}", path, a.fd,
	      path, a.tag.s);
	if (write(a.fd, buf, sizeof(buf)) != sizeof(buf))
		die("write");
	truth("write(%d<%s>, %p, 100) = 100 {off=0 %s}", a.fd, path, buf, a.tag.s);
	if (close(a.fd))
		die("close");
	truth("close(%d<%s>) = 0 {%s}", a.fd, path, a.tag.s);

	/*
	 * Lines of the rounds that did not get the number back are not part
	 * of the truth: the checker ignores lines it does not expect.
	 */
	for (tries = 0; tries < TRIES; tries++) {
		if (unlink(path))
			die("unlink");
		b = make(path);
		if (ino_of(&b) == ino_of(&a))
			break;
		close(b.fd);
	}
	if (tries == TRIES) {
		fprintf(stderr, "reuse: %s: inode %llu was not handed out again in %d tries\n", dir,
			ino_of(&a), TRIES);
		return 98;
	}
	if (gen_of(&b) == gen_of(&a)) {
		fprintf(stderr, "reuse: inode %llu came back with the same generation %lu\n",
			ino_of(&a), gen_of(&a));
		return 97;
	}
	truth("unlink(\"%s\") = 0", path);
	truth("openat(AT_FDCWD, \"%s\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = %d<%s> {%s}", path, b.fd,
	      path, b.tag.s);
	if (write(b.fd, buf, 50) != 50)
		die("write");
	truth("write(%d<%s>, %p, 50) = 50 {off=0 %s}", b.fd, path, buf, b.tag.s);
	if (close(b.fd))
		die("close");
	truth("close(%d<%s>) = 0 {%s}", b.fd, path, b.tag.s);

	printf("%llu %lu %lu\n", ino_of(&a), gen_of(&a), gen_of(&b));
	fflush(stdout);
	truth_flush();
	return 0;
}
