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
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256); /* connections at once; a full map falls back to Reno */
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

static void publish(struct sock *sk, struct coupled *c)
{
	struct tcp_sock *tp = tcp_sk(sk);
	int i, free_slot = -1;

	for (i = 0; i < MAX_SUBFLOWS; i++) {
		if (c->subflow[i] == (__u64)sk) {
			c->cwnd[i] = tp->snd_cwnd;
			c->srtt_us[i] = tp->srtt_us >> 3;
			return;
		}
		if (!c->subflow[i] && free_slot < 0)
			free_slot = i;
	}
	if (free_slot >= 0 && free_slot < MAX_SUBFLOWS) {
		c->subflow[free_slot] = (__u64)sk;
		c->cwnd[free_slot] = tp->snd_cwnd;
		c->srtt_us[free_slot] = tp->srtt_us >> 3;
	}
}

SEC("struct_ops")
void BPF_PROG(lia_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct coupled fresh = {}, *c;
	__u64 key;

	if (!cwnd_limited(tp))
		return;
	if (tcp_in_slow_start(tp)) {
		acked = tcp_slow_start(tp, acked);
		if (!acked)
			return;
	}
	key = connection_of(sk);
	c = bpf_map_lookup_elem(&lab_lia_connections, &key);
	if (!c) {
		bpf_map_update_elem(&lab_lia_connections, &key, &fresh, BPF_NOEXIST);
		c = bpf_map_lookup_elem(&lab_lia_connections, &key);
		if (!c) { /* map full: behave as Reno */
			tcp_cong_avoid_ai(tp, tp->snd_cwnd, acked);
			return;
		}
	}
	publish(sk, c);
	tcp_cong_avoid_ai(tp, coupled_window(c, tp->snd_cwnd), acked);
}

SEC("struct_ops")
void BPF_PROG(lia_release, struct sock *sk)
{
	__u64 key = connection_of(sk);
	struct coupled *c = bpf_map_lookup_elem(&lab_lia_connections, &key);
	int i, left = 0;

	if (!c)
		return;
	for (i = 0; i < MAX_SUBFLOWS; i++) {
		if (c->subflow[i] == (__u64)sk)
			c->subflow[i] = 0;
		else if (c->subflow[i])
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
