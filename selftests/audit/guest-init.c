// SPDX-License-Identifier: GPL-2.0
/*
 * guest-init - the /init of an audit guest that has no busybox.
 *
 * Debian ships busybox-static for the host's architecture only, so a
 * guest of another architecture (enotty.audit.guests: s390x) boots this
 * program instead of guest-init.sh, built static with the Debian cross C
 * library.  It does the part of guest-init.sh that such a guest needs:
 * mounts, the node list, the probe under a time limit, the kernel log,
 * each framed by ENOTTY-AUDIT markers exactly as guest-init.sh frames them
 * (enotty.audit.bootlog reads both), then powers the machine off
 * (reboot(2); QEMU runs with -no-reboot and exits; with /audit/restart
 * it restarts the machine instead, which QEMU's -no-reboot ends too).  It runs no setup
 * steps: the runner refuses a row that names one for such a guest.
 *
 * What it reads from the initramfs (the runner writes them):
 *   /audit/probe-timeout  seconds for each probe binary
 *   /audit/probe-args     the probe's arguments, one a line (-s, GLOB=STEP,
 *                         the target globs)
 *   /audit/probe/NAME     the probe binaries, run in name order
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#define MARKER "ENOTTY-AUDIT:"
#define MAX_ARGS 256

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	va_list ap;

	printf(MARKER " ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void mount_one(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) && errno != EBUSY)
		printf("guest-init: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* The first line of a small file, without its newline; "" if unreadable. */
static void read_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

/* DEVNAME= of a sysfs device's uevent; 0 when it has none. */
static int devname(const char *dir, char *out, size_t len)
{
	char path[PATH_MAX], line[256];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "%s/uevent", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(out, len, "%s", line + 8);
		found = 1;
	}
	fclose(f);
	return found;
}

/* One `/dev/NAME DRIVER` line for a sysfs device folder with a dev file. */
static void node_line(const char *dir)
{
	char path[PATH_MAX], link[PATH_MAX], name[256];
	const char *driver = "-";
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/dev", dir);
	if (stat(path, &st) || !devname(dir, name, sizeof(name)))
		return;
	snprintf(path, sizeof(path), "%s/device/driver", dir);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		driver = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	}
	printf("/dev/%s %s\n", name, driver);
}

static void each_entry(const char *dir, void (*fn)(const char *))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		fn(path);
	}
	closedir(d);
}

static void class_nodes(const char *class_dir)
{
	each_entry(class_dir, node_line);
}

/* Like guest-init.sh: every /sys/class/X/Y and /sys/block/Y with a dev file. */
static void list_nodes(void)
{
	say("BEGIN nodes all");
	each_entry("/sys/class", class_nodes);
	each_entry("/sys/block", node_line);
	fflush(stdout);
	say("END nodes all rc=0");
}

/*
 * Run argv framed as `probe NAME`, killed after secs seconds (rc 124, as
 * timeout(1) answers); output goes to the console like the frame's.
 */
static void frame_run(const char *kind, const char *name, unsigned int secs, char **argv)
{
	time_t start = time(NULL);
	pid_t pid;
	int status = 0, rc;

	say("BEGIN %s %s", kind, name);
	pid = fork();
	if (pid == 0) {
		dup2(1, 2);
		execv(argv[0], argv);
		printf("guest-init: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	rc = 127;
	if (pid > 0) {
		for (;;) {
			pid_t got = waitpid(pid, &status, WNOHANG);

			if (got == pid) {
				rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
				break;
			}
			if (got < 0) {
				rc = 127;
				break;
			}
			if ((unsigned int)(time(NULL) - start) >= secs) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				rc = 124;
				break;
			}
			usleep(100000);
		}
	}
	say("END %s %s rc=%d secs=%ld", kind, name, rc, (long)(time(NULL) - start));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_probes(void)
{
	static char args[MAX_ARGS][PATH_MAX];
	char *argv[MAX_ARGS + 2], *names[64], line[PATH_MAX], path[PATH_MAX];
	unsigned int secs;
	int nargs = 0, nnames = 0, i;
	struct dirent *e;
	FILE *f;
	DIR *d;

	read_line("/audit/probe-timeout", line, sizeof(line));
	secs = (unsigned int)strtoul(line, NULL, 10);
	if (!secs)
		secs = 240;
	f = fopen("/audit/probe-args", "r");
	while (f && nargs < MAX_ARGS && fgets(args[nargs], PATH_MAX, f)) {
		args[nargs][strcspn(args[nargs], "\n")] = '\0';
		if (args[nargs][0])
			nargs++;
	}
	if (f)
		fclose(f);
	d = opendir("/audit/probe");
	while (d && (e = readdir(d)) && nnames < 64)
		if (e->d_name[0] != '.')
			names[nnames++] = strdup(e->d_name);
	if (d)
		closedir(d);
	qsort(names, (size_t)nnames, sizeof(names[0]), by_name);
	for (i = 0; i < nnames; i++) {
		int j;

		snprintf(path, sizeof(path), "/audit/probe/%s", names[i]);
		argv[0] = path;
		for (j = 0; j < nargs; j++)
			argv[j + 1] = args[j];
		argv[nargs + 1] = NULL;
		frame_run("probe", names[i], secs, argv);
	}
}

/* The kernel log, as busybox dmesg prints it (without the <N> levels). */
static void print_kernel_log(void)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *p, *nl;

	say("BEGIN dmesg kernel");
	if (len > 0 && (buf = malloc((size_t)len + 1))) {
		len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
		buf[len > 0 ? len : 0] = '\0';
		for (p = buf; *p; p = *nl ? nl + 1 : nl) {
			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p);
			if (*p == '<' && strchr(p, '>') && strchr(p, '>') < nl)
				p = strchr(p, '>') + 1;
			printf("%.*s\n", (int)(nl - p), p);
		}
		free(buf);
	}
	fflush(stdout);
	say("END dmesg kernel rc=0");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	mount_one("proc", "/proc");
	mount_one("sysfs", "/sys");
	/* CONFIG_DEVTMPFS_MOUNT does not apply to an initramfs. */
	mount_one("devtmpfs", "/dev");
	mount_one("devpts", "/dev/pts");
	mount_one("debugfs", "/sys/kernel/debug");
	mount_one("configfs", "/sys/kernel/config");
	mkdir("/tmp", 01777);
	setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
	say("BEGIN setup all");
	say("END setup all rc=0");
	list_nodes();
	run_probes();
	print_kernel_log();
	say("DONE");
	sync();
	/* a machine without a power-off Linux reaches (ASPEED) restarts */
	reboot(access("/audit/restart", F_OK) == 0 ? RB_AUTOBOOT : RB_POWER_OFF);
	/* reboot(2) returns only on failure; PID 1 must not exit. */
	printf("guest-init: reboot: %s\n", strerror(errno));
	for (;;)
		pause();
}
