/* Registers the TCP congestion control(s) in one BPF object file for as long as this program runs.
 *
 *   load-congestion-control FILE.bpf.o
 *
 * Prints "registered NAME" per congestion control once the kernel lists it in
 * tcp_available_congestion_control, then waits. It unregisters them and exits when its standard
 * input closes (its parent died or closed the pipe) or on SIGTERM/SIGINT/SIGHUP, so a lab run
 * never leaves a congestion control behind unless this process itself is killed with SIGKILL
 * (then `npm run cleanup` removes it by name). A registration is global to the kernel: every
 * namespace sees it. Needs root (CAP_BPF and CAP_NET_ADMIN). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	/* The verifier's log comes at WARN level; keep it, drop libbpf's chatter. */
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, args);
}

int main(int argc, char **argv)
{
	struct bpf_link *links[8];
	int nlinks = 0, i, err;
	struct bpf_object *obj;
	struct bpf_map *map;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE.bpf.o\n", argv[0]);
		return 2;
	}
	libbpf_set_print(quiet_print);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);

	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "cannot open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "the kernel refused to load %s: %s\n", argv[1], strerror(-err));
		bpf_object__close(obj);
		return 1;
	}
	bpf_object__for_each_map(map, obj) {
		if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS || nlinks == 8)
			continue;
		links[nlinks] = bpf_map__attach_struct_ops(map);
		if (!links[nlinks]) {
			err = errno;
			fprintf(stderr, "cannot register %s: %s%s\n", bpf_map__name(map), strerror(err),
				err == EEXIST ? " (already registered: run npm run cleanup)" : "");
			for (i = 0; i < nlinks; i++)
				bpf_link__destroy(links[i]);
			bpf_object__close(obj);
			return 1;
		}
		printf("registered %s\n", bpf_map__name(map));
		nlinks++;
	}
	fflush(stdout);
	if (nlinks == 0) {
		fprintf(stderr, "%s has no struct_ops map\n", argv[1]);
		bpf_object__close(obj);
		return 1;
	}

	/* Wait for stdin to close or a signal. */
	while (!stop) {
		struct pollfd p = { .fd = 0, .events = POLLIN };
		char buf[64];
		int n = poll(&p, 1, 1000);
		if (n > 0) {
			ssize_t r = read(0, buf, sizeof(buf));
			if (r <= 0)
				break;
		} else if (n < 0 && errno != EINTR) {
			break;
		}
	}
	for (i = 0; i < nlinks; i++)
		bpf_link__destroy(links[i]);
	bpf_object__close(obj);
	return 0;
}
