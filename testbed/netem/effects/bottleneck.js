'use strict';
// The bottleneck: the rate-limited link and the queue in front of it. The one effect that
// holds packets back, so the pipeline's order turns on it: effects listed before it act as a
// packet arrives, effects after it as the packet leaves the queue (./index.js).
//
// Link settings: rate (a rate-schedule spec, ../rate-schedule.js), queueLimitPackets or
// queueLimitBytes (null: unlimited), queueDiscipline (./queue-disciplines) and the
// disciplines' own settings (codelTargetMs, codelIntervalMs).
// Profile keys: rateMbps or rate, uplinkRateMbps; queuePackets | queueBytes | queueMs (the
// downlink queue's size; default 100 ms at the peak rate, like tbf's latency parameter,
// unlimited without a rate); queueDiscipline, uplinkQueueDiscipline (default droptail) and the
// disciplines' keys.
const { MTU, createRateSchedule } = require('../rate-schedule');
const { BottleneckQueue } = require('./bottleneck-queue');
const { listDisciplines, getDiscipline, DEFAULT_DISCIPLINE } = require('./queue-disciplines');
const { rateSpec, peakRate, describeRate } = require('./rate-profile');

const DEFAULT_QUEUE_MS = 100;
const QUEUE_SIZE_KEYS = ['queuePackets', 'queueBytes', 'queueMs'];

function disciplineSettings() {
  return Object.assign({}, ...listDisciplines().map((d) => d.settings));
}

function checkSettings(s) {
  for (const k of ['queueLimitBytes', 'queueLimitPackets']) {
    if (s[k] !== null && !(Number.isInteger(s[k]) && s[k] > 0)) throw new RangeError(`${k} must be a positive whole number or null, got ${s[k]}`);
  }
  if (!getDiscipline(s.queueDiscipline)) throw new RangeError(`queueDiscipline must be one of ${listDisciplines().map((d) => d.name).join(', ')}, got ${JSON.stringify(s.queueDiscipline)}`);
  for (const d of listDisciplines()) d.check(s);
  createRateSchedule(s.rate); // throws on a schedule it cannot make
}

const profile = {
  get keys() {
    return ['rateMbps', 'rate', 'uplinkRateMbps', ...QUEUE_SIZE_KEYS, 'queueDiscipline', 'uplinkQueueDiscipline', ...listDisciplines().flatMap((d) => d.profile.keys)];
  },
  exclusive: [QUEUE_SIZE_KEYS],
  describeRank: 1,
  validate(v) {
    v.number('rateMbps', { exclusiveMin: true });
    v.number('uplinkRateMbps', { exclusiveMin: true });
    v.number('queuePackets', { min: 1, integer: true });
    v.number('queueBytes', { min: MTU, integer: true });
    v.number('queueMs', { exclusiveMin: true });
    const names = listDisciplines().map((d) => d.name);
    v.oneOf('queueDiscipline', names);
    v.oneOf('uplinkQueueDiscipline', names);
    for (const d of listDisciplines()) d.profile.validate(v);
    const { raw, out } = v;
    if (raw.rateMbps !== undefined && raw.rate !== undefined) v.problem('give rateMbps or rate, not both');
    if (QUEUE_SIZE_KEYS.filter((k) => raw[k] !== undefined).length > 1) v.problem(`give one of ${QUEUE_SIZE_KEYS.join(', ')}`);
    if (raw.rate !== undefined) {
      const spec = rateSpec(raw.rate, v);
      if (spec) out.rate = spec;
    } else if (out.rateMbps !== undefined) {
      out.rate = { kind: 'constant', bitsPerSecond: out.rateMbps * 1e6 };
    }
    delete out.rateMbps;
  },
  toSettings(p, direction) {
    const own = {};
    for (const [k, dflt] of Object.entries(disciplineSettings())) own[k] = p[k] ?? dflt;
    if (direction === 'toServer') {
      // Requests and ACKs are small: no rate limit unless asked, and then no queue limit.
      return {
        rate: p.uplinkRateMbps ? { kind: 'constant', bitsPerSecond: p.uplinkRateMbps * 1e6 } : null,
        queueLimitBytes: null,
        queueLimitPackets: null,
        queueDiscipline: p.uplinkQueueDiscipline || DEFAULT_DISCIPLINE,
        ...own,
      };
    }
    const peak = peakRate(p.rate);
    let queueLimitBytes = null;
    let queueLimitPackets = null;
    if (p.queuePackets) queueLimitPackets = p.queuePackets;
    else if (p.queueBytes) queueLimitBytes = p.queueBytes;
    else if (peak) queueLimitBytes = Math.max(2 * MTU, Math.round((peak * (p.queueMs ?? DEFAULT_QUEUE_MS)) / 8000));
    return { rate: p.rate || null, queueLimitBytes, queueLimitPackets, queueDiscipline: p.queueDiscipline || DEFAULT_DISCIPLINE, ...own };
  },
  describe(p) {
    const parts = p.rate ? [describeRate(p.rate)] : [];
    for (const [key, label] of [['queueDiscipline', ''], ['uplinkQueueDiscipline', 'uplink ']]) {
      const name = p[key];
      if (!name || name === DEFAULT_DISCIPLINE) continue;
      const more = getDiscipline(name).profile.describe(p);
      parts.push(`${label}${name} queue${more.length ? ` (${more.join(', ')})` : ''}`);
    }
    return parts;
  },
};

module.exports = {
  name: 'bottleneck',
  queue: true,
  get settings() {
    return { rate: null, queueLimitBytes: null, queueLimitPackets: null, queueDiscipline: DEFAULT_DISCIPLINE, ...disciplineSettings() };
  },
  check: checkSettings,
  get drops() {
    return ['queue', ...listDisciplines().flatMap((d) => d.drops)];
  },
  counters: { queueDelayMsTotal: 0, queueDelayMsMax: 0 },
  create: (link) => new BottleneckQueue(link),
  profile,
  describeCounters: (c) => (c.queueDelayMsMax ? [`queueing delay max ${c.queueDelayMsMax.toFixed(1)} ms`] : []),
  DEFAULT_QUEUE_MS,
  peakRate,
};
