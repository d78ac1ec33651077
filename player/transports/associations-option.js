'use strict';
// The DataChannel transport's carrier (issue 16 item 3): 1 (default) puts the reliable and the
// unreliable channel on one peer connection, so one SCTP association and one congestion control
// carry both (loss slows the unreliable part too); 2 puts them on two peer connections, two
// associations with a congestion control each (the origin pairs them, shared/fdsp/pair-token.js).
// With WebTransport's carriers the lab then compares one shared congestion control, two separate
// ones, and paper 000's controlled reliable + uncontrolled unreliable. Parsed here only.
const { numberFrom, show } = require('../option-values');

function parse(raw, where, problems) {
  const n = numberFrom(raw);
  if (n !== 1 && n !== 2) {
    problems.push(`${where.whole} must be 1 (one peer connection) or 2 (the unreliable channel on a second one), got ${show(raw)}`);
    return undefined;
  }
  return n;
}

module.exports = {
  title: 'SCTP associations',
  noun: 'a number of associations',
  help: '1 (default): both channels on one peer connection, one SCTP association and congestion control; 2: the unreliable channel on a second peer connection, two associations with a congestion control each',
  default: 1,
  parse,
  format: (value) => String(value),
};
