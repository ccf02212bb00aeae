/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mmap(2) mapping types: values of flags & MAP_TYPE */
XLAT(MAP_SHARED)
XLAT(MAP_PRIVATE)
XLAT(MAP_SHARED_VALIDATE)
#ifdef MAP_DROPPABLE
XLAT(MAP_DROPPABLE)
#else
XLAT_PAIR(0x08, "MAP_DROPPABLE")	/* Linux 6.11 */
#endif
