'use strict';
// An algorithm's parameters: its defaults with the caller's overrides on top, checked against
// a small spec so a typo ("alphaSegmets") or a NaN from a form field fails loudly instead of
// silently running the default.

/**
 * @param {string} algorithm        for error messages
 * @param {object} defaults
 * @param {object} spec             key -> {min?, exclusiveMin?, max?, integer?, nullable?, oneOf?}
 * @param {object} [overrides]
 * @returns {object} a new, complete parameter object
 */
function resolveParams(algorithm, defaults, spec, overrides) {
  if (overrides !== undefined && overrides !== null && (typeof overrides !== 'object' || Array.isArray(overrides))) {
    throw new TypeError(`${algorithm} params must be an object, got ${Array.isArray(overrides) ? 'an array' : String(overrides)}`);
  }
  const params = { ...defaults, ...(overrides || {}) };
  for (const key of Object.keys(params)) {
    const rule = spec[key];
    if (!rule && !Object.keys(spec).length) throw new RangeError(`${algorithm} takes no parameters, got "${key}"`);
    if (!rule) throw new RangeError(`${algorithm} has no parameter "${key}" (known: ${Object.keys(spec).join(', ')})`);
    const v = params[key];
    if (v === null && rule.nullable) continue;
    if (rule.oneOf) {
      if (!rule.oneOf.includes(v)) throw new RangeError(`${algorithm} parameter ${key} must be one of ${rule.oneOf.map((o) => JSON.stringify(o)).join(', ')}, got ${JSON.stringify(v)}`);
      continue;
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`${algorithm} parameter ${key} must be a finite number${rule.nullable ? ' or null' : ''}, got ${JSON.stringify(v)}`);
    if (rule.integer && !Number.isInteger(v)) throw new RangeError(`${algorithm} parameter ${key} must be an integer, got ${v}`);
    const min = rule.min ?? -Infinity;
    if (rule.exclusiveMin ? v <= min : v < min) throw new RangeError(`${algorithm} parameter ${key} must be ${rule.exclusiveMin ? '>' : '>='} ${min}, got ${v}`);
    if (rule.max !== undefined && v > rule.max) throw new RangeError(`${algorithm} parameter ${key} must be <= ${rule.max}, got ${v}`);
  }
  return params;
}

module.exports = { resolveParams };
