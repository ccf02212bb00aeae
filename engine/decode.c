// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "decode.h"
#include "format.h"
#include "syscalls.h"
#include "xlat.h"

/* the classes are the syscall table's own, under their public names */
_Static_assert(DIO_SC_DATA == SC_DATA && DIO_SC_SYNC == SC_SYNC && DIO_SC_META == SC_META &&
	       DIO_SC_DIR == SC_DIR && DIO_SC_XATTR == SC_XATTR && DIO_SC_ASYNC == SC_ASYNC,
	       "DIO_SC_* are SC_*");

int decode__syscall_info(struct dio_ctx *ctx, uint32_t nr, struct dio_syscall_info *out,
			size_t size)
{
	const struct dio_syscall *sc = syscall_by_nr(nr);
	struct dio_syscall_info si = { 0 };

	(void)ctx;
	if (sc) {
		si.name = sc->name;
		si.nargs = sc->nargs;
		si.classes = sc->cls;
		si.io = syscall_io(sc);
		for (unsigned int i = 0; i < sc->nargs && i < 6; i++)
			if (sc->args[i] == A_STR)
				si.str_args |= 1u << i;
	}
	/* a module built when the struct was shorter passes its own size */
	if (size) {
		memset(out, 0, size);
		memcpy(out, &si, size < sizeof(si) ? size : sizeof(si));
	}
	return sc ? 0 : -ENOENT;
}

int decode__arg(struct dio_ctx *ctx, const struct dio_ev_syscall *ev, unsigned int i, char *buf,
	       size_t len)
{
	const struct dio_syscall *sc;
	int (*fn)(uint64_t, char *, size_t);

	(void)ctx;
	if (len)
		buf[0] = '\0';
	if (i > 5)
		return -EINVAL;
	sc = syscall_by_nr(ev->nr);
	if (!sc || i >= sc->nargs)
		return -ENOENT;
	if (sc->args[i] == A_DIRFD && (int)ev->args[i] == AT_FDCWD)
		return snprintf(buf, len, "AT_FDCWD");
	fn = format_arg_xlat(sc->args[i]);
	if (!fn)
		return -ENOENT;
	/* flag words and modes are int or unsigned int in the kernel, as on the console */
	return fn((uint32_t)ev->args[i], buf, len);
}

const char *decode__name_of(struct dio_ctx *ctx, uint32_t what, uint64_t value)
{
	(void)ctx;
	switch (what) {
	case DIO_NAME_ERRNO:
		return value <= INT_MAX ? xlat_errno((int)value) : NULL;
	case DIO_NAME_ERRNO_TEXT:
		return value <= INT_MAX ? xlat_errno_text((int)value) : NULL;
	case DIO_NAME_FTYPE:
		return value <= UINT_MAX ? format_ftype_name((unsigned int)value) : NULL;
	case DIO_NAME_URING_OP:
		return value <= UINT_MAX ? xlat_uring_op((unsigned int)value) : NULL;
	default:
		return NULL;
	}
}
