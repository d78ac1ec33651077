'use strict';
// Wraps one of the lab's pure ABR decision functions (player/abr/) as a dash.js 5 custom
// quality-switch rule, and its optional shouldAbandon hook as an abandon-fragment rule.
// dash.js's own rules are switched off when a lab ABR runs, so this rule alone decides;
// everything the decision needs comes from the lab's own records (downloads
// as the transport loader saw them, segment sizes from the segment index), so the same inputs
// reach the algorithm whatever transport is in use.

/** dash.js settings that turn every built-in ABR rule off. */
function builtInRulesOff() {
  const names = ['throughputRule', 'bolaRule', 'insufficientBufferRule', 'switchHistoryRule', 'droppedFramesRule', 'abandonRequestsRule', 'l2ARule', 'loLPRule'];
  const rules = {};
  for (const n of names) rules[n] = { active: false };
  return { streaming: { abr: { rules } } };
}

/** The lab's ladder from dash.js's video representations: ascending bitrate, index = position. */
function ladderOf(rulesContext) {
  const representations = rulesContext.getAbrController()
    .getPossibleVoRepresentationsFilteredBySettings(rulesContext.getMediaInfo(), true)
    .slice()
    .sort((a, b) => a.bandwidth - b.bandwidth);
  return { representations, ladder: representations.map((r, index) => ({ index, bandwidth: r.bandwidth, id: r.id })) };
}

/**
 * @param {object} opts
 * @param {object} opts.dashjs         the dash.js namespace (FactoryMaker)
 * @param {object} opts.session        the ABR's run (player/abr/abr-session.js)
 * @param {(ladder: object[]) => object} opts.inputs  the lab's view right now
 *   (player/abr-input/build-decision-input.js)
 * @param {(d: object) => void} [opts.onDecision]  every decision, for the QoE log
 * @param {(message: string) => void} [opts.onError]  a decision that threw (bad input)
 * @returns {Function} rule class for player.addABRCustomRule('qualitySwitchRules', ...)
 */
function createCustomAbrRule({ dashjs, session, inputs, onDecision, onError }) {
  const { name } = session.abr;
  function LabAbrRule() {
    const context = this.context;
    const SwitchRequest = dashjs.FactoryMaker.getClassFactoryByName('SwitchRequest');

    function getSwitchRequest(rulesContext) {
      const switchRequest = SwitchRequest(context).create();
      const mediaType = rulesContext.getMediaType();
      if (mediaType !== 'video') return switchRequest;
      const { representations, ladder } = ladderOf(rulesContext);
      if (!representations.length) return switchRequest;
      const current = rulesContext.getRepresentation();
      const currentIndex = Math.max(0, representations.findIndex((r) => current && r.id === current.id));
      const view = inputs(ladder);
      // view may override currentIndex (null before the first media segment).
      const input = { ladder, currentIndex, ...view };
      let decision;
      try {
        decision = session.decide(input);
      } catch (err) {
        // dash.js would swallow it and keep the current quality; say so instead.
        if (onError) onError(`${name}: ${err.message}`);
        return switchRequest;
      }
      const chosen = representations[decision.representationIndex];
      switchRequest.representation = chosen;
      switchRequest.priority = SwitchRequest.PRIORITY.STRONG;
      switchRequest.reason = { rule: name, message: decision.reason };
      // The algorithm's "wait before the next request" (BASIC/SARA above their buffer
      // thresholds) is dash.js's schedule delay.
      rulesContext.getScheduleController().setTimeToLoadDelay(decision.delayMs || 0);
      if (onDecision) {
        onDecision({ representationId: chosen.id, bandwidth: chosen.bandwidth, delayMs: decision.delayMs || 0, reason: decision.reason, bufferLevelSeconds: input.bufferLevelSeconds, segmentNumber: input.nextSegmentNumber ?? null });
      }
      return switchRequest;
    }

    return { getSwitchRequest, reset() { session.reset(); } };
  }
  LabAbrRule.__dashjs_factory_name = `LabAbrRule_${name}`;
  return dashjs.FactoryMaker.getClassFactory(LabAbrRule);
}

/**
 * A media download in progress as the ABR contract's shouldAbandon sees it, from dash.js's
 * FragmentRequest (type, bytesLoaded, bytesTotal, startDate, representation).
 * @returns {object|null} null when the request is not a media segment of the ladder
 */
function downloadFromRequest(request, ladder, { bufferLevelSeconds, segmentDurationSeconds, now = Date.now() }) {
  if (!request || request.type !== 'MediaSegment' || !request.representation) return null;
  const representationIndex = ladder.findIndex((r) => r.id === request.representation.id);
  if (representationIndex < 0 || !(request.bytesTotal > 0)) return null;
  const started = request.startDate ? request.startDate.getTime() : now;
  return {
    ladder,
    representationIndex,
    bytesLoaded: request.bytesLoaded || 0,
    bytesTotal: request.bytesTotal,
    elapsedSeconds: Math.max(0, (now - started) / 1000),
    segmentDurationSeconds,
    bufferLevelSeconds,
  };
}

/**
 * dash.js's abandon-fragment rule for an ABR with a shouldAbandon hook (added only for such an
 * ABR: the built-in algorithms never abandon, as the papers' players did not).
 * @param {object} opts
 * @param {object} opts.dashjs, opts.session
 * @param {() => {bufferLevelSeconds: number, segmentDurationSeconds: number}} opts.view
 * @param {(a: object) => void} [opts.onAbandon]  every abandonment, for the QoE log
 * @param {(message: string) => void} [opts.onError]
 */
function createAbandonRule({ dashjs, session, view, onAbandon, onError }) {
  const { name } = session.abr;
  function LabAbandonRule() {
    const context = this.context;
    const SwitchRequest = dashjs.FactoryMaker.getClassFactoryByName('SwitchRequest');
    // One answer per download: dash.js asks on every progress event.
    const abandoned = new Set();

    function shouldAbandon(rulesContext) {
      const switchRequest = SwitchRequest(context).create();
      if (rulesContext.getMediaType() !== 'video') return switchRequest;
      const request = rulesContext.getCurrentRequest();
      if (!request || abandoned.has(request.index)) return switchRequest;
      const { representations, ladder } = ladderOf(rulesContext);
      const download = downloadFromRequest(request, ladder, view());
      if (!download) return switchRequest;
      let answer;
      try {
        answer = session.shouldAbandon(download);
      } catch (err) {
        if (onError) onError(`${name}: ${err.message}`);
        return switchRequest;
      }
      if (!answer) return switchRequest;
      abandoned.add(request.index);
      const chosen = representations[answer.representationIndex];
      switchRequest.representation = chosen;
      switchRequest.priority = SwitchRequest.PRIORITY.STRONG;
      switchRequest.reason = { rule: name, message: answer.reason };
      if (onAbandon) onAbandon({ segmentIndex: request.index, from: ladder[download.representationIndex].id, to: chosen.id, bytesLoaded: download.bytesLoaded, bytesTotal: download.bytesTotal, reason: answer.reason });
      return switchRequest;
    }

    return { shouldAbandon, reset() { abandoned.clear(); } };
  }
  LabAbandonRule.__dashjs_factory_name = `LabAbandonRule_${name}`;
  return dashjs.FactoryMaker.getClassFactory(LabAbandonRule);
}

module.exports = { createCustomAbrRule, createAbandonRule, downloadFromRequest, builtInRulesOff };
