// SPDX-License-Identifier: GPL-2.0
/* LIA, the Linked Increases Algorithm of Multipath TCP (RFC 6356; paper 004 eq. 5), as a BPF
 * congestion control. Each subflow halves its window on loss as Reno does, but grows it in
 * congestion avoidance by
 *     min(alpha * acked / cwnd_total, acked / cwnd_i)   segments per ACK,
 *     alpha = cwnd_total * max_i(cwnd_i / rtt_i^2) / (sum_i cwnd_i / rtt_i)^2,
 * so that all subflows together take no more than one Reno flow would on the best path.
 *
 * The coupling needs every subflow's window and RTT. A subflow's socket reaches its Multipath TCP
 * connection through its ULP context (mptcp_subflow_context.conn); the subflows of one connection
 * publish their window and smoothed RTT in one entry of a hash map keyed by that connection. A
 * plain TCP socket (no MPTCP) is a connection of one subflow, where LIA is Reno. */
#include "lab_tcp.h"

char _license[] SEC("license") = "GPL";

#include "lab_lia_coupling.h"

struct {
	/* LRU: an entry a race left behind (two subflows released at once) ages out. */
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 256); /* connections at once; the least recently used is evicted */
	__type(key, __u64); /* the MPTCP connection's socket address (or the TCP socket's own) */
	__type(value, struct coupled);
} lab_lia_connections SEC(".maps");

static __u64 connection_of(struct sock *sk)
{
	struct mptcp_subflow_context *subflow;
	struct sock *conn = NULL;
	void *ulp = NULL;

	if (!tcp_sk(sk)->is_mptcp)
		return (__u64)sk;
	bpf_probe_read_kernel(&ulp, sizeof(ulp), &inet_csk(sk)->icsk_ulp_data);
	if (!ulp)
		return (__u64)sk;
	subflow = ulp;
	conn = BPF_CORE_READ(subflow, conn);
	return conn ? (__u64)conn : (__u64)sk;
}

/* The kernel's tcp_is_cwnd_limited(): an application-limited sender (a paused video player)
 * must not grow its window. */
static int cwnd_limited(const struct tcp_sock *tp)
{
	if (tp->is_cwnd_limited)
		return 1;
	if (tcp_in_slow_start(tp))
		return tp->snd_cwnd < 2 * tp->max_packets_out;
	return 0;
}

/* Writes this subflow's window, RTT and time into the connection's entry: its own slot, else a
 * free or stale one claimed with compare-and-swap (subflows ACK on different CPUs). */
static void publish(struct sock *sk, struct coupled *c, __u64 now)
{
	struct tcp_sock *tp = tcp_sk(sk);
	__u64 me = (__u64)sk;
	int i, slot = -1;

	for (i = 0; i < MAX_SUBFLOWS; i++) {
		if (c->subflow[i] == me) {
			slot = i;
			break;
		}
	}
	for (i = 0; slot < 0 && i < MAX_SUBFLOWS; i++) {
		__u64 seen = c->subflow[i];
		if (seen && slot_live(c, i, now))
			continue;
		if (__sync_val_compare_and_swap(&c->subflow[i], seen, me) == seen)
			slot = i;
	}
	if (slot < 0 || slot >= MAX_SUBFLOWS)
		return; /* more than MAX_SUBFLOWS live subflows: this one is not counted */
	c->cwnd[slot] = tp->snd_cwnd;
	c->srtt_us[slot] = tp->srtt_us >> 3;
	c->stamp_ns[slot] = now;
}

SEC("struct_ops")
void BPF_PROG(lia_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct coupled fresh = {}, *c;
	__u64 key = connection_of(sk), now = bpf_ktime_get_ns();

	c = bpf_map_lookup_elem(&lab_lia_connections, &key);
	if (!c) {
		bpf_map_update_elem(&lab_lia_connections, &key, &fresh, BPF_NOEXIST);
		c = bpf_map_lookup_elem(&lab_lia_connections, &key);
	}
	/* Every ACK publishes, also while slow start runs or the sender is application-limited:
	 * the other subflows' increase depends on this window as it is now. */
	if (c)
		publish(sk, c, now);
	if (!cwnd_limited(tp))
		return;
	if (tcp_in_slow_start(tp)) {
		acked = tcp_slow_start(tp, acked);
		if (!acked)
			return;
	}
	tcp_cong_avoid_ai(tp, c ? coupled_window(c, tp->snd_cwnd, now) : tp->snd_cwnd, acked);
}

SEC("struct_ops")
void BPF_PROG(lia_release, struct sock *sk)
{
	__u64 key = connection_of(sk), now = bpf_ktime_get_ns();
	struct coupled *c = bpf_map_lookup_elem(&lab_lia_connections, &key);
	int i, left = 0;

	if (!c)
		return;
	for (i = 0; i < MAX_SUBFLOWS; i++) {
		if (c->subflow[i] == (__u64)sk)
			__sync_val_compare_and_swap(&c->subflow[i], (__u64)sk, 0);
		else if (slot_live(c, i, now))
			left++;
	}
	if (!left)
		bpf_map_delete_elem(&lab_lia_connections, &key);
}

SEC("struct_ops")
void BPF_PROG(lia_init, struct sock *sk)
{
}

SEC("struct_ops")
__u32 BPF_PROG(lia_ssthresh, struct sock *sk)
{
	return tcp_reno_ssthresh(sk);
}

SEC("struct_ops")
__u32 BPF_PROG(lia_undo_cwnd, struct sock *sk)
{
	return tcp_reno_undo_cwnd(sk);
}

SEC(".struct_ops")
struct tcp_congestion_ops lab_lia = {
	.init = (void *)lia_init,
	.release = (void *)lia_release,
	.ssthresh = (void *)lia_ssthresh,
	.cong_avoid = (void *)lia_cong_avoid,
	.undo_cwnd = (void *)lia_undo_cwnd,
	.name = "lab_lia",
};
