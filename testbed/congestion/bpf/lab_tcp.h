/* What every lab congestion control needs from the kernel: the socket casts and the kernel's own
 * Reno pieces (kfuncs a BPF congestion control may call). Built against vmlinux.h, which setup
 * generates from the running kernel's BTF (bpftool btf dump), so field offsets always match. */
#ifndef LAB_TCP_H
#define LAB_TCP_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#define TCP_INFINITE_SSTHRESH 0x7fffffff

static inline struct tcp_sock *tcp_sk(const struct sock *sk) { return (struct tcp_sock *)sk; }
static inline struct inet_connection_sock *inet_csk(const struct sock *sk) { return (struct inet_connection_sock *)sk; }
static inline void *inet_csk_ca(const struct sock *sk) { return (void *)inet_csk(sk)->icsk_ca_priv; }

static inline int before(__u32 seq1, __u32 seq2) { return (__s32)(seq1 - seq2) < 0; }
#define after(seq2, seq1) before(seq1, seq2)

static inline int tcp_in_slow_start(const struct tcp_sock *tp) { return tp->snd_cwnd < tp->snd_ssthresh; }

/* The kernel's Reno, exported to BPF congestion controls. */
extern void tcp_reno_cong_avoid(struct sock *sk, __u32 ack, __u32 acked) __ksym;
extern __u32 tcp_reno_ssthresh(struct sock *sk) __ksym;
extern __u32 tcp_reno_undo_cwnd(struct sock *sk) __ksym;
extern __u32 tcp_slow_start(struct tcp_sock *tp, __u32 acked) __ksym;
extern void tcp_cong_avoid_ai(struct tcp_sock *tp, __u32 w, __u32 acked) __ksym;

#endif
