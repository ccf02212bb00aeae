/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The traced command: started stopped, released once it is being traced. */
#ifndef DIO_ENGINE_PROC_H
#define DIO_ENGINE_PROC_H

#include <stddef.h>
#include <sys/types.h>
#include "options.h"

struct child {
	pid_t pid;
	int gate;	/* write end of the pipe the child waits on */
};

/*
 * Fork a child that waits until child__release() and then executes argv
 * (PATH search as execvp). A command that does not exist is found here, before
 * anything is traced: -ENOENT / -EACCES with a one-line message in err.
 */
int child__spawn(struct child *c, char **argv, char *err, size_t errlen);
/* Let the child run its command. */
int child__release(struct child *c);
/* Kill and reap a child that was never released. */
void child__abort(struct child *c);
/* 0 when pid exists, -ESRCH otherwise. */
int pid_alive(pid_t pid);
/*
 * Whether a traced task has ended: process pid (tid 0), or its thread tid.
 * One signal-0 call, no /proc read: cheap enough to ask of every process a
 * table holds. A zombie is not gone yet. Meaningful only when pids_are_ours.
 */
int task_gone(pid_t pid, pid_t tid);
/*
 * dio runs in the initial pid namespace, so the pids records carry (the
 * kernel's) are the ones it can look up.
 */
int pids_are_ours(void);
/* The process (thread group) thread tid belongs to, or -ESRCH. */
pid_t thread_group(pid_t tid);
/* Exit status for dio from a wait status: the code, or 128+signal. */
int exit_code_of(int wstatus);

/*
 * -p TID of a thread that is not its process's first becomes that process
 * (with a warning, as strace -f -p TID); a -p process or --tid thread that
 * does not exist is an error (said on stderr): 0 or -ESRCH.
 */
int procs_check_ids(struct options *o);
/* Every -p process has ended, or every --tid thread (without a command). */
int procs_nothing_left(const struct options *o);

#endif
