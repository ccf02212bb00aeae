/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mmap(2) protections; PROT_NONE is the 0 value */
XLAT(PROT_NONE)
XLAT(PROT_READ)
XLAT(PROT_WRITE)
XLAT(PROT_EXEC)
#ifdef PROT_SEM
XLAT(PROT_SEM)
#else
XLAT_PAIR(0x8, "PROT_SEM")	/* in linux/mman.h, not in glibc */
#endif
XLAT(PROT_GROWSDOWN)
XLAT(PROT_GROWSUP)
