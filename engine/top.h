/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dio top: the busiest processes, threads and files, counted in the kernel. */
#ifndef DIO_ENGINE_TOP_H
#define DIO_ENGINE_TOP_H

/* The dio top command; argv[0] is "top". Returns dio's exit status. */
int top_main(int argc, char **argv);

#endif
