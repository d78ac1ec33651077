'use strict';
// Wraps one of the lab's pure ABR decision functions (player/abr/) as a dash.js 5 custom
// quality-switch rule. dash.js's own rules are switched off when a lab ABR runs, so this rule
// alone decides; everything the decision needs comes from the lab's own records (downloads
// as the transport loader saw them, segment sizes from the segment index), so the same inputs
// reach the algorithm whatever transport is in use.

/** dash.js settings that turn every built-in ABR rule off. */
function builtInRulesOff() {
  const names = ['throughputRule', 'bolaRule', 'insufficientBufferRule', 'switchHistoryRule', 'droppedFramesRule', 'abandonRequestsRule', 'l2ARule', 'loLPRule'];
  const rules = {};
  for (const n of names) rules[n] = { active: false };
  return { streaming: { abr: { rules } } };
}

/**
 * @param {object} opts
 * @param {object} opts.dashjs         the dash.js namespace (FactoryMaker)
 * @param {object} opts.algorithm      { name, decide(input, state, params) }
 * @param {object} opts.params         the algorithm's parameters
 * @param {() => object} opts.inputs   the lab's view right now: { bufferLevelSeconds,
 *   segmentDurationSeconds, recentDownloads, nextSegmentSizes(ladder) , justSeeked, started }
 * @param {(d: object) => void} [opts.onDecision]  every decision, for the QoE log
 * @param {(message: string) => void} [opts.onError]  a decision that threw (bad input)
 * @returns {Function} rule class for player.addABRCustomRule
 */
function createCustomAbrRule({ dashjs, algorithm, params, inputs, onDecision, onError }) {
  let state = null;
  function LabAbrRule() {
    const context = this.context;
    const SwitchRequest = dashjs.FactoryMaker.getClassFactoryByName('SwitchRequest');

    function getSwitchRequest(rulesContext) {
      const switchRequest = SwitchRequest(context).create();
      const mediaType = rulesContext.getMediaType();
      if (mediaType !== 'video') return switchRequest;
      const abrController = rulesContext.getAbrController();
      const representations = abrController
        .getPossibleVoRepresentationsFilteredBySettings(rulesContext.getMediaInfo(), true)
        .slice()
        .sort((a, b) => a.bandwidth - b.bandwidth);
      if (!representations.length) return switchRequest;
      const current = rulesContext.getRepresentation();
      const currentIndex = Math.max(0, representations.findIndex((r) => current && r.id === current.id));
      const ladder = representations.map((r, index) => ({ index, bandwidth: r.bandwidth, id: r.id }));
      const view = inputs(ladder);
      // view may override currentIndex (null before the first media segment).
      const input = { ladder, currentIndex, ...view };
      let decision;
      try {
        decision = algorithm.decide(input, state, params);
      } catch (err) {
        // dash.js would swallow it and keep the current quality; say so instead.
        if (onError) onError(`${algorithm.name}: ${err.message}`);
        return switchRequest;
      }
      state = decision.state;
      const chosen = representations[decision.representationIndex];
      switchRequest.representation = chosen;
      switchRequest.priority = SwitchRequest.PRIORITY.STRONG;
      switchRequest.reason = { rule: algorithm.name, message: decision.reason };
      // The algorithm's "wait before the next request" (BASIC/SARA above their buffer
      // thresholds) is dash.js's schedule delay.
      rulesContext.getScheduleController().setTimeToLoadDelay(decision.delayMs || 0);
      if (onDecision) {
        onDecision({ representationId: chosen.id, bandwidth: chosen.bandwidth, delayMs: decision.delayMs || 0, reason: decision.reason, bufferLevelSeconds: input.bufferLevelSeconds, segmentNumber: input.nextSegmentNumber ?? null });
      }
      return switchRequest;
    }

    return { getSwitchRequest, reset() { state = null; } };
  }
  LabAbrRule.__dashjs_factory_name = `LabAbrRule_${algorithm.name}`;
  return dashjs.FactoryMaker.getClassFactory(LabAbrRule);
}

module.exports = { createCustomAbrRule, builtInRulesOff };
