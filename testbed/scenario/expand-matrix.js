'use strict';
// A scenario's cross product as a list of playbacks, each with a stable id (its file name in
// the run directory, and what resume matches on) and the seconds it is expected to take.
const { mergeProfile } = require('./network-profile');
const { transportOptions } = require('../../player/transports');

/**
 * Media seconds actually watched: playing from 0 until the stop time, jumping at each seek
 * (paper 002 Table 3: 340 s of a 600 s content).
 */
function viewedSeconds(durationSeconds, seeks) {
  let position = 0;
  let viewed = 0;
  for (const s of seeks) {
    if (s.at >= durationSeconds) break;
    viewed += Math.max(0, s.at - position);
    position = s.to;
  }
  return viewed + Math.max(0, durationSeconds - position);
}

// Page load, startup and the browser's start and stop, per playback, on top of viewing.
const OVERHEAD_SECONDS = 10;

/** A transport as the matrix lists it: {name, label, ...options} (plain names are their own label). */
function transportEntry(t) {
  return typeof t === 'string' ? { name: t, label: t } : t;
}

/**
 * The transport options a playback runs with: `transportOptions` holds those its entry sets
 * (what the page's URL gets); each registered option is also a field of its own, null when not
 * set, as results.csv has a column per option (bp).
 */
function optionFields(t) {
  const keys = [...transportOptions().keys()];
  const given = Object.fromEntries(keys.filter((k) => t[k] !== undefined).map((k) => [k, t[k]]));
  return { ...Object.fromEntries(keys.map((k) => [k, t[k] ?? null])), transportOptions: given };
}

function playbackId(parts) {
  return parts.filter((p) => p !== null).join('.');
}

/** @returns {object[]} playbacks in run order (repetition outermost: a partial run is balanced) */
function expandMatrix(scenario) {
  const out = [];
  const seekNames = Object.keys(scenario.seekSchedules);
  const switchNames = Object.keys(scenario.switchSchedules);
  for (let repetition = 1; repetition <= scenario.repetitions; repetition += 1) {
    for (const network of scenario.networks) {
      for (const switchName of switchNames) {
        for (const seekName of seekNames) {
          for (const abr of scenario.abrs) {
            if (abr.networks && !abr.networks.includes(network)) continue;
            for (const entry of scenario.transports) {
              const t = transportEntry(entry);
              const seeks = scenario.seekSchedules[seekName];
              const viewed = viewedSeconds(scenario.durationSeconds, seeks);
              out.push({
                ...optionFields(t),
                id: playbackId([t.label, abr.label, network,
                  seekNames.length > 1 || seekName !== 'none' ? seekName : null,
                  switchNames.length > 1 || switchName !== 'none' ? switchName : null,
                  `r${repetition}`]),
                transport: t.label,
                transportName: t.name,
                abr,
                network,
                profile: mergeProfile(scenario.profiles[network], abr.link),
                seekSchedule: seekName,
                seeks,
                switchSchedule: switchName,
                switches: scenario.switchSchedules[switchName],
                repetition,
                durationSeconds: scenario.durationSeconds,
                // A throughput run also waits ~6 s for the page's connections to close (run-throughput.js).
                expectedSeconds: viewed + OVERHEAD_SECONDS + (scenario.throughput ? 6 : 0),
                // A throughput run stops at its time whatever the network does: no need for 3x.
                timeoutSeconds: scenario.timeoutSeconds ?? Math.round(scenario.throughput ? viewed + 120 : 3 * viewed + 120),
                ...(scenario.throughput ? { kind: 'throughput' } : {}),
              });
            }
          }
        }
      }
    }
  }
  return out;
}

module.exports = { expandMatrix, viewedSeconds, transportEntry, OVERHEAD_SECONDS };
