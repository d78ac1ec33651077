// SPDX-License-Identifier: GPL-2.0
/* TCP Vegas (Brakmo & Peterson 1995) as a BPF congestion control: the lab's delay-based variant,
 * standing in for paper 004's CCP (whose gain Kp and virtual buffer B the paper does not give).
 * Once per RTT it compares the window with what the path carries at its base RTT:
 *   diff = cwnd * (minRTT - baseRTT) / baseRTT   (segments queued in the network)
 * and adds a segment when diff < alpha, removes one when diff > beta. Losses fall back to Reno's
 * halving. Follows the kernel's net/ipv4/tcp_vegas.c step by step (its ssthresh rules included),
 * which this kernel does not build. */
#include "lab_tcp.h"

char _license[] SEC("license") = "GPL";

static const __u32 alpha = 2, beta = 4, gamma = 1;

struct vegas {
	__u32 beg_snd_nxt; /* right edge during the last RTT */
	__u32 cnt_rtt;     /* RTT samples in this RTT */
	__u32 min_rtt;     /* smallest RTT sample in this RTT (us) */
	__u32 base_rtt;    /* smallest RTT sample ever (us): the propagation delay */
	__u32 doing_vegas_now;
};

static void vegas_enable(struct sock *sk)
{
	struct vegas *v = inet_csk_ca(sk);
	v->doing_vegas_now = 1;
	v->beg_snd_nxt = tcp_sk(sk)->snd_nxt;
	v->cnt_rtt = 0;
	v->min_rtt = 0x7fffffff;
}

SEC("struct_ops")
void BPF_PROG(vegas_init, struct sock *sk)
{
	struct vegas *v = inet_csk_ca(sk);
	v->base_rtt = 0x7fffffff;
	vegas_enable(sk);
}

SEC("struct_ops")
void BPF_PROG(vegas_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct vegas *v = inet_csk_ca(sk);
	__u32 vrtt;

	if (sample->rtt_us < 0)
		return;
	vrtt = sample->rtt_us + 1; /* never zero */
	if (vrtt < v->base_rtt)
		v->base_rtt = vrtt;
	if (vrtt < v->min_rtt)
		v->min_rtt = vrtt;
	v->cnt_rtt++;
}

SEC("struct_ops")
void BPF_PROG(vegas_set_state, struct sock *sk, __u8 ca_state)
{
	struct vegas *v = inet_csk_ca(sk);
	if (ca_state == TCP_CA_Open)
		vegas_enable(sk);
	else
		v->doing_vegas_now = 0;
}

SEC("struct_ops")
void BPF_PROG(vegas_cwnd_event, struct sock *sk, enum tcp_ca_event event)
{
	if (event == CA_EVENT_CWND_RESTART || event == CA_EVENT_TX_START) {
		struct vegas *v = inet_csk_ca(sk);
		v->base_rtt = 0x7fffffff;
		vegas_enable(sk);
	}
}

static __u32 vegas_ssthresh(struct tcp_sock *tp)
{
	return tp->snd_cwnd < tp->snd_ssthresh ? tp->snd_cwnd : tp->snd_ssthresh;
}

/* The kernel's tcp_current_ssthresh() outside CWR/Recovery (Vegas adjusts only in Open):
 * remember at least 3/4 of the window as ssthresh. */
static __u32 current_ssthresh(struct tcp_sock *tp)
{
	__u32 three_quarters = (tp->snd_cwnd >> 1) + (tp->snd_cwnd >> 2);
	return tp->snd_ssthresh > three_quarters ? tp->snd_ssthresh : three_quarters;
}

SEC("struct_ops")
void BPF_PROG(vegas_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct vegas *v = inet_csk_ca(sk);

	if (!v->doing_vegas_now) {
		tcp_reno_cong_avoid(sk, ack, acked);
		return;
	}
	if (after(ack, v->beg_snd_nxt)) {
		/* One RTT has passed since the last decision. */
		v->beg_snd_nxt = tp->snd_nxt;
		if (v->cnt_rtt <= 2) {
			/* Too few samples to tell queueing from noise (delayed ACKs): act as Reno. */
			tcp_reno_cong_avoid(sk, ack, acked);
		} else {
			__u64 rtt = v->min_rtt, base = v->base_rtt;
			__u64 target = (__u64)tp->snd_cwnd * base / rtt;
			__u64 diff = (__u64)tp->snd_cwnd * (rtt - base) / base;
			__u32 cwnd = tp->snd_cwnd;

			if (diff > gamma && tcp_in_slow_start(tp)) {
				/* Queue building in slow start: back to the target and leave slow start. */
				cwnd = cwnd < target + 1 ? cwnd : target + 1;
				tp->snd_cwnd = cwnd;
				tp->snd_ssthresh = vegas_ssthresh(tp);
			} else if (tcp_in_slow_start(tp)) {
				tcp_slow_start(tp, acked);
			} else if (diff > beta) {
				tp->snd_cwnd = cwnd - 1;
				tp->snd_ssthresh = vegas_ssthresh(tp);
			} else if (diff < alpha) {
				tp->snd_cwnd = cwnd + 1;
			}
			if (tp->snd_cwnd < 2)
				tp->snd_cwnd = 2;
			else if (tp->snd_cwnd > tp->snd_cwnd_clamp)
				tp->snd_cwnd = tp->snd_cwnd_clamp;
			tp->snd_ssthresh = current_ssthresh(tp);
		}
		v->cnt_rtt = 0;
		v->min_rtt = 0x7fffffff;
	} else if (tcp_in_slow_start(tp)) {
		tcp_slow_start(tp, acked);
	}
}

SEC("struct_ops")
__u32 BPF_PROG(vegas_ssthresh_on_loss, struct sock *sk)
{
	return tcp_reno_ssthresh(sk);
}

SEC("struct_ops")
__u32 BPF_PROG(vegas_undo_cwnd, struct sock *sk)
{
	return tcp_reno_undo_cwnd(sk);
}

SEC(".struct_ops")
struct tcp_congestion_ops lab_vegas = {
	.init = (void *)vegas_init,
	.ssthresh = (void *)vegas_ssthresh_on_loss,
	.cong_avoid = (void *)vegas_cong_avoid,
	.set_state = (void *)vegas_set_state,
	.cwnd_event = (void *)vegas_cwnd_event,
	.pkts_acked = (void *)vegas_pkts_acked,
	.undo_cwnd = (void *)vegas_undo_cwnd,
	.name = "lab_vegas",
};
