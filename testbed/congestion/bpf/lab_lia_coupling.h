/* LIA's coupling arithmetic (RFC 6356), apart from the kernel so that it is plain C: the BPF
 * program (lab_lia.bpf.c) includes it after vmlinux.h, and test/unit/lia-coupling.test.js
 * compiles it natively (with test/fixtures/lia-coupling-main.c) and checks it against the RFC's
 * formula on worked cases. Needs __u32/__u64 from the includer. */
#ifndef LAB_LIA_COUPLING_H
#define LAB_LIA_COUPLING_H

#define MAX_SUBFLOWS 8

struct coupled {
	__u64 subflow[MAX_SUBFLOWS];  /* the subflow's socket address; 0 = free slot */
	__u64 stamp_ns[MAX_SUBFLOWS]; /* when the subflow last published (bpf_ktime_get_ns) */
	__u32 cwnd[MAX_SUBFLOWS];     /* segments */
	__u32 srtt_us[MAX_SUBFLOWS];
};

/* A slot counts while its subflow published within max(4 x its RTT, 1 s): a subflow that stopped
 * publishing (its path down, in a long recovery, closed without release) must not hold the
 * others' increase down with a window it no longer has. */
static inline int slot_live(const struct coupled *c, int i, __u64 now_ns)
{
	__u64 horizon = (__u64)c->srtt_us[i] * 4000;
	if (!c->subflow[i])
		return 0;
	if (horizon < 1000000000ULL)
		horizon = 1000000000ULL;
	return now_ns - c->stamp_ns[i] <= horizon;
}

/* The window that the kernel's additive increase (one segment per w segments ACKed) must use for
 * LIA's increase, min(alpha / cwnd_total, 1 / cwnd_i) per segment ACKed:
 *     w = max(cwnd_i, cwnd_total / alpha),
 *     cwnd_total / alpha = (sum_i cwnd_i / rtt_i)^2 / max_i(cwnd_i / rtt_i^2).
 * In integers: rate_i = cwnd_i * 1e6 / rtt_i (segments per second, clamped to [1, 1e7]; RTTs
 * clamped to [1 us, 1 s]) and the argmax compared by cross-multiplication, so nothing overflows
 * 64 bits. Only live slots count (slot_live). One subflow (or own_cwnd the whole total): Reno's
 * own_cwnd. */
static inline __u32 coupled_window(const struct coupled *c, __u32 own_cwnd, __u64 now_ns)
{
	__u64 sum_rate = 0, best_rate = 0, best_rtt = 1, total = 0, w;
	int i;

	for (i = 0; i < MAX_SUBFLOWS; i++) {
		__u64 cwnd, rtt, rate;
		if (!slot_live(c, i, now_ns))
			continue;
		cwnd = c->cwnd[i];
		rtt = c->srtt_us[i];
		if (rtt < 1)
			rtt = 1;
		if (rtt > 1000000)
			rtt = 1000000;
		rate = cwnd * 1000000 / rtt;
		if (rate < 1)
			rate = 1;
		if (rate > 10000000)
			rate = 10000000;
		total += cwnd;
		sum_rate += rate;
		/* argmax of cwnd_i / rtt_i^2 = rate_i / rtt_i: compare rate_i * rtt_k with rate_k * rtt_i. */
		if (rate * best_rtt > best_rate * rtt) {
			best_rate = rate;
			best_rtt = rtt;
		}
	}
	if (!best_rate || total <= own_cwnd)
		return own_cwnd;
	/* (sum_rate)^2 / (1e6 * best_rate / best_rtt), divided in two steps of 1000. */
	w = (sum_rate * best_rtt / 1000) * sum_rate / (1000 * best_rate);
	return w > own_cwnd ? (__u32)w : own_cwnd;
}

#endif
