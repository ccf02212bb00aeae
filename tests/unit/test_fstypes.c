// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * File system types by device (engine/fstypes.c): read from a mountinfo
 * file, each device once, bad lines left out, and the text looked up again,
 * as host->fs_type answers modules live and in a replay.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "engine/fstypes.h"

#define DEV(maj, min)	((uint32_t)(maj) << 20 | (min))

static const char mountinfo[] =
	"22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
	"23 22 0:21 / /proc rw,nosuid - proc proc rw\n"
	"24 22 0:23 / /dev/shm rw shared:3 master:1 - tmpfs tmpfs rw,size=65536k\n"
	/* the same device mounted again (a bind mount): kept once */
	"25 22 254:0 /srv /mnt/srv rw - ext4 /dev/vda rw\n"
	"26 22 7:1 / /mnt/img rw - xfs /dev/loop1 rw,noquota\n"
	/* damaged lines: no separator, no device, a type with a '=' */
	"27 22 7:2 / /mnt/x rw ext4 /dev/loop2 rw\n"
	"28 22 / /mnt/y rw - ext4 /dev/loop3 rw\n"
	"29 22 7:4 / /mnt/z rw - ex=t4 /dev/loop4 rw\n";

static FILE *file_of(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	return f;
}

static void each_device_once_and_bad_lines_left_out(void **unused)
{
	char text[FSTYPES_MAX];
	FILE *f = file_of(mountinfo);

	(void)unused;
	assert_int_equal(fstypes__read(f, text, sizeof(text)), 4);
	fclose(f);
	assert_string_equal(text, "254:0=ext4 0:21=proc 0:23=tmpfs 7:1=xfs");
}

static void types_looked_up_by_device(void **unused)
{
	static const struct {
		uint32_t dev;
		int ret;
		const char *type;
	} cases[] = {
		{ DEV(254, 0), 0, "ext4" }, { DEV(0, 21), 0, "proc" }, { DEV(0, 23), 0, "tmpfs" },
		{ DEV(7, 1), 0, "xfs" },
		/* 0:2 is not 0:21, 25:4 not 254:0: a key ends at its '=' */
		{ DEV(0, 2), -ENOENT, "" }, { DEV(25, 4), -ENOENT, "" }, { DEV(7, 2), -ENOENT, "" },
	};
	const char *text = "254:0=ext4 0:21=proc 0:23=tmpfs 7:1=xfs";
	char buf[16];

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(buf, 'x', sizeof(buf));
		assert_int_equal(fstypes__find(text, cases[i].dev, buf, sizeof(buf)), cases[i].ret);
		assert_string_equal(buf, cases[i].type);
	}
	/* nothing known (a recording made before dio kept the types) */
	assert_int_equal(fstypes__find(NULL, DEV(254, 0), buf, sizeof(buf)), -ENOENT);
	assert_string_equal(buf, "");
	/* a buffer too small: cut, with its NUL */
	assert_int_equal(fstypes__find(text, DEV(0, 23), buf, 3), 0);
	assert_string_equal(buf, "tm");
	/* a crafted recording's type with an escape sequence or '=' is not known */
	assert_int_equal(fstypes__find("8:1=ext\0334 8:2=a=b 8:3=xfs", DEV(8, 1), buf, sizeof(buf)),
			 -ENOENT);
	assert_string_equal(buf, "");
	assert_int_equal(fstypes__find("8:1=ext\0334 8:2=a=b 8:3=xfs", DEV(8, 2), buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(fstypes__find("8:1=ext\0334 8:2=a=b 8:3=xfs", DEV(8, 3), buf, sizeof(buf)), 0);
	assert_string_equal(buf, "xfs");
}

static void devices_past_the_room_left_out(void **unused)
{
	char text[24];
	FILE *f = file_of(mountinfo);

	(void)unused;
	/* "254:0=ext4 0:21=proc" is 20 bytes; the next one does not fit */
	assert_int_equal(fstypes__read(f, text, sizeof(text)), 2);
	fclose(f);
	assert_string_equal(text, "254:0=ext4 0:21=proc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_device_once_and_bad_lines_left_out),
		cmocka_unit_test(types_looked_up_by_device),
		cmocka_unit_test(devices_past_the_room_left_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
