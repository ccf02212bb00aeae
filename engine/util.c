// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "util.h"

/*
 * strtol() and friends skip leading blanks and take a sign; a value typed by a
 * user (or read from a config string) with a blank in it is more likely a
 * quoting mistake than a number, so the parsers below refuse it.
 */
/* the trace files dio dump, analyze or diff reads: never an output */
static struct stat guarded[2];
static int nguarded;

void util__create_output_guard(const char *input)
{
	if (nguarded < (int)(sizeof(guarded) / sizeof(guarded[0])) && !stat(input, &guarded[nguarded]))
		nguarded++;
}

static int untrusted(const struct stat *st, int dir)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return 1;
	if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	return !(dir && (st->st_mode & S_ISVTX));
}

int trusted_file(const char *path, char *why, size_t len)
{
	char dir[4096], *slash;
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (untrusted(&st, 0)) {
		snprintf(why, len, "%s is %s: dio runs with its privileges what the file says; make "
			 "it root's and not writable by others (chown root, chmod go-w)", path,
			 st.st_uid != 0 && st.st_uid != geteuid() ? "owned by another user" :
			 "writable by others");
		return -EPERM;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = 0;
	else
		*slash = 0;
	if (stat(dir, &st))
		return -errno;
	if (untrusted(&st, 1)) {
		snprintf(why, len, "%s is in %s, which %s: someone else could replace it; keep "
			 "modules and config files in a directory only root can write", path, dir,
			 st.st_uid != 0 && st.st_uid != geteuid() ? "another user owns" :
			 "others can write");
		return -EPERM;
	}
	return 0;
}

int util__create_output(const char *path)
{
	struct stat st;
	int e, fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		e = -errno;
		goto fail;
	}
	/* checked before anything is cut: the input stays whole */
	for (int i = 0; i < nguarded; i++)
		if (st.st_dev == guarded[i].st_dev && st.st_ino == guarded[i].st_ino) {
			e = -EBUSY;
			goto fail;
		}
	/* an existing file keeps its mode when cut: make it private too */
	if (S_ISREG(st.st_mode) &&
	    (ftruncate(fd, 0) || ((st.st_mode & 077) && fchmod(fd, st.st_mode & 0700)))) {
		e = -errno;
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return e;
}

const char *util__create_output_error(int err, char *buf, size_t len)
{
	if (err == -ELOOP)
		snprintf(buf, len, "it is a symbolic link, which dio does not write through: "
			 "give the file it points to");
	else if (err == -EBUSY)
		snprintf(buf, len, "it is the trace file being read: write to another file");
	else
		snprintf(buf, len, "%s", strerror(-err));
	return buf;
}

static int starts_like_number(const char *s)
{
	return s && *s && !isspace((unsigned char)*s);
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!starts_like_number(s))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	uint64_t mul = 1;
	char *end;

	/* strtoull() would turn "-1" into a huge number */
	if (!starts_like_number(s) || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	switch (*end) {
	case 0:
		break;
	case 'k': case 'K':
		mul = 1ULL << 10;
		end++;
		break;
	case 'm': case 'M':
		mul = 1ULL << 20;
		end++;
		break;
	case 'g': case 'G':
		mul = 1ULL << 30;
		end++;
		break;
	default:
		return -EINVAL;
	}
	/* after a suffix: people write 64MiB and 64MB for the same thing, 1024-based here */
	if (!strcmp(end, "iB"))
		end += 2;
	else if (!strcmp(end, "B"))
		end++;
	if (*end)
		return -EINVAL;
	if (v > UINT64_MAX / mul)
		return -ERANGE;
	v *= mul;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	/* digits or a leading dot only: strtod() also takes "inf", "nan" and hex */
	if (!starts_like_number(s) || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	if (strpbrk(s, "xX"))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno)
		return -EINVAL;
	if (!(v > 0))
		return -EINVAL;
	/* a billion seconds is 31 years: anything above is a typo, not a plan */
	if (v > 1e9)
		return -ERANGE;
	*out = v;
	return 0;
}

uint64_t util__mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

int parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };

	for (size_t i = 0; s && i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("dio: ", fmt, ap);
	va_end(ap);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("dio: warning: ", fmt, ap);
	va_end(ap);
}
