'use strict';
// The load bench's figures from what it recorded: per phase and protocol the requests, errors,
// TTFB percentiles, bytes and stalls; the players' TTFB p99 under abuse against clean; the
// origin's RSS and fds trend per phase and its CPU per delivered Gbit.
const { summarize } = require('./percentiles');
const { trendVerdict } = require('./trend-verdict');

// The abuse phase may raise the players' TTFB p99 to at most this many times its clean value.
const MAX_P99_RATIO = 2;
// Fewer TTFB samples than this in a phase and a protocol's p99 is not judged on its own.
const MIN_SAMPLES_TO_JUDGE = 20;
const RSS_TOLERANCE = { relativeTolerance: 0.1, absoluteTolerance: 20 * 1024 * 1024 };
const FD_TOLERANCE = { relativeTolerance: 0.1, absoluteTolerance: 10 };

/**
 * @param {object[]} requests  {protocol, phase, ttfbMs?, bytes?, error?, lostChunks?}
 * @param {object[]} stalls    {protocol, phase, ms}
 * @param {string[]} phases
 * @param {string[]} protocols
 * @returns {Record<string, Record<string, object>>} phase -> protocol (and "all") -> row
 */
function summarizeRequests(requests, stalls, phases, protocols) {
  const out = {};
  for (const phase of phases) {
    out[phase] = {};
    for (const protocol of [...protocols, 'all']) {
      const mine = (r) => r.phase === phase && (protocol === 'all' || r.protocol === protocol);
      const rs = requests.filter(mine);
      const ok = rs.filter((r) => !r.error);
      const st = stalls.filter(mine);
      const errors = {};
      for (const r of rs) if (r.error) errors[r.error] = (errors[r.error] || 0) + 1;
      out[phase][protocol] = {
        requests: rs.length,
        errors: rs.length - ok.length,
        errorMessages: errors,
        ttfbMs: summarize(ok.map((r) => r.ttfbMs)),
        totalMs: summarize(ok.map((r) => r.totalMs)),
        bytes: ok.reduce((a, r) => a + r.bytes, 0),
        stalls: st.length,
        stallSeconds: st.reduce((a, s) => a + s.ms, 0) / 1000,
        lostChunks: ok.reduce((a, r) => a + (r.lostChunks || 0), 0),
      };
    }
  }
  return out;
}

/**
 * The players' TTFB p99 under abuse against clean, per protocol and all together. PASS when
 * every judged row is at most MAX_P99_RATIO; a protocol with too few samples is shown, not judged.
 */
function compareP99(byPhase, protocols, clean = 'clean', abuse = 'abuse') {
  const rows = [...protocols, 'all'].map((protocol) => {
    const a = byPhase[clean][protocol].ttfbMs;
    const b = byPhase[abuse][protocol].ttfbMs;
    const judged = a.count >= MIN_SAMPLES_TO_JUDGE && b.count >= MIN_SAMPLES_TO_JUDGE && a.p99 > 0;
    const ratio = judged ? b.p99 / a.p99 : null;
    return { protocol, cleanP99Ms: a.p99, abuseP99Ms: b.p99, cleanSamples: a.count, abuseSamples: b.count, ratio, verdict: judged ? (ratio <= MAX_P99_RATIO ? 'PASS' : 'FAIL') : 'not judged (too few samples)' };
  });
  const judged = rows.filter((r) => r.ratio !== null);
  return { rows, maxRatio: MAX_P99_RATIO, pass: judged.length > 0 && judged.every((r) => r.verdict === 'PASS') };
}

/**
 * @param {{t: number, phase: string, rssBytes: number, fds: number}[]} samples
 * @param {string} phase
 * @param {number} settleSeconds  samples this soon after the phase's first are left out
 */
function resourceTrend(samples, phase, settleSeconds = 0) {
  const mine = samples.filter((s) => s.phase === phase);
  const from = mine.length ? mine[0].t + settleSeconds : 0;
  const used = mine.filter((s) => s.t >= from);
  return {
    samples: used.length,
    rss: trendVerdict(used.map((s) => ({ t: s.t, value: s.rssBytes })), RSS_TOLERANCE),
    fds: trendVerdict(used.map((s) => ({ t: s.t, value: s.fds })), FD_TOLERANCE),
  };
}

/**
 * Origin CPU per delivered Gbit between a phase's first and last sample.
 * @param {{phase: string, cpuSeconds: number, deliveredBytes: number, t: number}[]} samples
 */
function cpuPerGbit(samples, phase) {
  const mine = samples.filter((s) => s.phase === phase);
  if (mine.length < 2) return null;
  const first = mine[0];
  const last = mine[mine.length - 1];
  const cpuSeconds = last.cpuSeconds - first.cpuSeconds;
  const gbit = ((last.deliveredBytes - first.deliveredBytes) * 8) / 1e9;
  const seconds = last.t - first.t;
  return { seconds, cpuSeconds, gbit, cpuSecondsPerGbit: gbit > 0 ? cpuSeconds / gbit : null, cpuPercent: seconds > 0 ? (100 * cpuSeconds) / seconds : null, mbitPerSecond: seconds > 0 ? (gbit * 1000) / seconds : null };
}

module.exports = { summarizeRequests, compareP99, resourceTrend, cpuPerGbit, MAX_P99_RATIO, MIN_SAMPLES_TO_JUDGE, RSS_TOLERANCE, FD_TOLERANCE };
