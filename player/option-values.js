'use strict';
// Small helpers every option parser shares (player/run-options.js and the option schemas of
// the transports), kept apart so an option schema need not load the registries.

const DECIMAL_RE = /^\s*\d+(?:\.\d+)?\s*$/;

/** A number, or a decimal number written as text (URL parameters are text); NaN otherwise. */
function numberFrom(raw) {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string' && DECIMAL_RE.test(raw)) return Number(raw);
  return NaN;
}

/** A value as a message quotes it: text in quotes, anything else as JSON. */
function show(v) {
  return typeof v === 'string' ? `"${v}"` : JSON.stringify(v);
}

/** An option parser (a schema's parse) that takes one of these names. */
function oneOf(names) {
  return (raw, where, problems) => {
    const v = typeof raw === 'string' ? raw.trim() : raw;
    if (!names.includes(v)) {
      problems.push(`${where.whole} must be ${names.map((n) => `"${n}"`).join(', ')}, got ${show(raw)}`);
      return undefined;
    }
    return v;
  };
}

module.exports = { numberFrom, show, oneOf };
