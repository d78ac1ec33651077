'use strict';
// The parallel transport's options (paper 001's parameters), written once: the page URL
// (?streams=10&chunkBytes=20480&gapMs=350), a scenario's transport entry ({name: parallel,
// gapMs: 0}) and the page's form all parse them here (the registry entry, entries/parallel.js,
// lists them). Defaults are the paper's: n_c = 10, l_d = 20480 bytes, t_gap = 350 ms, and the
// timeout bounds of its §IV-A, 1000-3000 ms; losingCopy defaults to abort, the rule this lab's
// issue asked for (parallel/rerequest-rule.js says what finish changes).
const { numberFrom, show, oneOf } = require('../option-values');
const { LOSING_COPY } = require('./parallel/rerequest-rule');

function wholeNumber({ min, max, unit }) {
  return (raw, where, problems) => {
    const n = numberFrom(raw);
    if (!(Number.isInteger(n) && n >= min && n <= max)) {
      problems.push(`${where.whole} must be a whole number${unit ? ` of ${unit}` : ''} from ${min} to ${max}, got ${show(raw)}`);
      return undefined;
    }
    return n;
  };
}

const streams = {
  title: 'parallel streams (n_c)',
  noun: 'a number of parallel streams',
  help: 'n_c: persistent HTTP/1.1 connections fetching chunks at once, 1-60 (default 10; one per origin pool port while there are enough, else up to 6 share a port)',
  default: 10,
  parse: wholeNumber({ min: 1, max: 60 }),
};

const chunkBytes = {
  title: 'chunk size (l_d)',
  noun: 'a chunk size',
  help: 'l_d: bytes per range request, 1024-4194304 (default 20480; the last chunk of a segment is shorter)',
  default: 20480,
  parse: wholeNumber({ min: 1024, max: 4194304, unit: 'bytes' }),
};

const gapMs = {
  title: 'inter-request gap (t_gap)',
  noun: 'an inter-request gap',
  help: 't_gap: ms a stream waits after each response before its next request, 0-10000 (default 350)',
  default: 350,
  parse: wholeNumber({ min: 0, max: 10000, unit: 'ms' }),
};

const timeoutMinMs = {
  title: 'chunk timeout lower bound',
  noun: 'a chunk timeout lower bound',
  help: 'the dynamic chunk timeout never goes below this, 100-60000 ms (default 1000)',
  default: 1000,
  parse: wholeNumber({ min: 100, max: 60000, unit: 'ms' }),
};

const timeoutMaxMs = {
  title: 'chunk timeout upper bound',
  noun: 'a chunk timeout upper bound',
  help: 'the dynamic chunk timeout never goes above this, 100-60000 ms (default 3000; not below the lower bound)',
  default: 3000,
  parse: wholeNumber({ min: 100, max: 60000, unit: 'ms' }),
};

const losingCopy = {
  title: 'losing copy of a re-requested chunk',
  noun: 'what becomes of a losing copy',
  help: 'abort (default): the slower copy of a re-requested chunk is aborted, which closes its HTTP/1.1 connection; finish: it is received and discarded, so connections stay open (paper 001 §IV-B)',
  default: 'abort',
  parse: oneOf(LOSING_COPY),
};

module.exports = { streams, chunkBytes, gapMs, timeoutMinMs, timeoutMaxMs, losingCopy };
