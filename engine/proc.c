// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "proc.h"
#include "util.h"

/* the initial pid namespace's inode (PROC_PID_INIT_INO), where records' pids live */
#define PID_NS_INIT_INO	0xEFFFFFFCU

/* execvp's search, done up front so "command not found" is reported before tracing starts */
static int resolve(const char *cmd, char *out, size_t outlen)
{
	const char *path = getenv("PATH");
	char buf[4096], *save = NULL, *dir;
	int e = -ENOENT;

	if (strchr(cmd, '/')) {
		snprintf(out, outlen, "%s", cmd);
		if (access(out, X_OK))
			return -errno;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		struct stat st;

		snprintf(out, outlen, "%s/%s", *dir ? dir : ".", cmd);
		if (stat(out, &st) || !S_ISREG(st.st_mode))
			continue;
		if (!access(out, X_OK))
			return 0;
		e = -EACCES;
	}
	return e;
}

/*
 * In the child, after a failed execv: one line on stderr, written at once
 * (stdio's stderr may carry dio's own buffer, which _exit would drop), and
 * exit 127 as a shell does.
 */
static void __attribute__((noreturn)) exec_failed(const char *file, int e)
{
	struct stat st;
	char msg[4400];
	const char *why = "";
	int n;

	if (e == ENOENT && !stat(file, &st))
		why = " (the file is there: its #! interpreter or its ELF loader is not)";
	else if (e == EACCES && !stat(file, &st) && S_ISDIR(st.st_mode))
		why = " (it is a directory)";
	n = snprintf(msg, sizeof(msg), "dio: cannot run '%s': %s%s\n", file, strerror(e), why);
	if (n > 0 && write(STDERR_FILENO, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1))
		_exit(127);
	_exit(127);
}

int child__spawn(struct child *c, char **argv, char *err, size_t errlen)
{
	char file[4096];
	int fds[2], e;
	char go;

	c->pid = -1;
	c->gate = -1;
	e = resolve(argv[0], file, sizeof(file));
	if (e) {
		snprintf(err, errlen, "cannot run '%s': %s%s", argv[0], strerror(-e),
			 e == -ENOENT && !strchr(argv[0], '/') ? " (not found in PATH)" : "");
		return e;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		e = -errno;
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return e;
	}
	c->pid = fork();
	if (c->pid < 0) {
		e = -errno;
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return e;
	}
	if (c->pid == 0) {
		/* wait for the tracer; the pipe closes itself at exec (O_CLOEXEC) */
		close(fds[1]);
		if (read(fds[0], &go, 1) != 1)
			_exit(127);
		execv(file, argv);
		exec_failed(file, errno);
	}
	close(fds[0]);
	c->gate = fds[1];
	return 0;
}

int child__release(struct child *c)
{
	int e = 0;

	if (write(c->gate, "g", 1) != 1)
		e = -errno;
	close(c->gate);
	c->gate = -1;
	return e;
}

void child__abort(struct child *c)
{
	if (c->pid <= 0)
		return;
	if (c->gate >= 0) {
		close(c->gate);	/* the child's read returns 0 and it exits */
		c->gate = -1;
	}
	waitpid(c->pid, NULL, 0);
	c->pid = -1;
}

/* /proc/ID/FILE into buf, NUL-terminated: its length, or -ESRCH */
static ssize_t read_proc(pid_t id, const char *file, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", id, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ESRCH;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -ESRCH;
	buf[n] = 0;
	return n;
}

int pid_alive(pid_t pid)
{
	char buf[512], *rp;

	if (read_proc(pid, "stat", buf, sizeof(buf)) < 0)
		return -ESRCH;
	/* a zombie has stopped doing I/O: the state follows the last ')' of the name */
	rp = strrchr(buf, ')');
	if (rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X'))
		return -ESRCH;
	return 0;
}

int task_gone(pid_t pid, pid_t tid)
{
	int r;

	if (pid <= 0 || tid < 0)
		return 0;
	r = tid ? (int)syscall(SYS_tgkill, pid, tid, 0) : kill(pid, 0);
	return r && errno == ESRCH;
}

int pids_are_ours(void)
{
	struct stat st;

	return !stat("/proc/self/ns/pid", &st) && st.st_ino == PID_NS_INIT_INO;
}

pid_t thread_group(pid_t tid)
{
	char buf[1024], *t;

	if (read_proc(tid, "status", buf, sizeof(buf)) < 0)
		return -ESRCH;
	/* Name: comes first and holds no newline (the kernel escapes it) */
	t = strstr(buf, "\nTgid:\t");
	return t ? (pid_t)strtol(t + 7, NULL, 10) : -ESRCH;
}

int exit_code_of(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

static int all_gone(const pid_t *ids, int n)
{
	for (int i = 0; i < n; i++)
		if (!pid_alive(ids[i]))
			return 0;
	return 1;
}

/*
 * Nothing can be traced any more: every -p process has ended, or every
 * --tid thread (a command ends the trace when it exits instead).
 */
int procs_nothing_left(const struct options *o)
{
	return (o->npids && all_gone(o->pids, o->npids)) ||
	       (o->ntids && !o->argv && all_gone(o->tids, o->ntids));
}

/*
 * -p TID of a thread that is not its process's first: the process is
 * traced, as strace -f -p TID does (the probes select processes); --tid
 * picks threads. A thread or process that does not exist: an error.
 */
int procs_check_ids(struct options *o)
{
	for (int i = 0; i < o->npids; i++) {
		pid_t tgid = pid_alive(o->pids[i]) ? -ESRCH : thread_group(o->pids[i]);

		if (tgid < 0) {
			die_msg("-p %d: no such process", o->pids[i]);
			return -ESRCH;
		}
		if (tgid != o->pids[i]) {
			warn_msg("-p %d is a thread of process %d: tracing the whole process (--tid %d traces that thread alone)",
				 o->pids[i], tgid, o->pids[i]);
			o->pids[i] = tgid;
		}
	}
	for (int i = 0; i < o->ntids; i++)
		if (pid_alive(o->tids[i])) {
			die_msg("--tid %d: no such thread", o->tids[i]);
			return -ESRCH;
		}
	return 0;
}
