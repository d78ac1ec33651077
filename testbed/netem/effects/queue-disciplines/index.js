'use strict';
// The queue disciplines a bottleneck's queue can run, by name: the only list of them. A
// profile picks one per direction (queueDiscipline, uplinkQueueDiscipline); the link setting is
// queueDiscipline. Every discipline's queue has the same size limit (queuePackets, queueBytes
// or queueMs; a packet that finds it full is dropped, cause 'queue'); a discipline decides what
// else is dropped.
//
// A discipline (one file here) is a plain object:
//   name          its name in profiles and link settings
//   settings      {key: default}: its own link settings (both directions share them)
//   check(s)      throws a RangeError naming the setting when one is wrong
//   drops         the drop causes it counts (each becomes a counter under drops)
//   create(link)  -> its per-direction state. With a method dequeue(now, queue, pkt) the
//                 discipline decides as the link takes each packet (RFC 8289's dequeue): it
//                 takes packets with queue.shift(pkt), drops with queue.drop(pkt, cause, now)
//                 and returns true with the packet to send in pkt. An optional idle() is told
//                 when the link found the queue empty. Without dequeue() nothing is decided at
//                 the head, and the link computes when a packet leaves as it arrives.
//   profile       {keys, validate(v), describe(p)}: its settings as profile keys (same names)
const droptail = require('./droptail');
const codel = require('./codel');

const DISCIPLINES = [droptail, codel];
const DEFAULT_DISCIPLINE = 'droptail';

function listDisciplines() {
  return DISCIPLINES.slice();
}

function getDiscipline(name) {
  return DISCIPLINES.find((d) => d.name === name);
}

/** Adds a discipline (tests' throw-away ones); returns a function that removes it again. */
function registerDiscipline(discipline) {
  if (getDiscipline(discipline.name)) throw new Error(`queue discipline "${discipline.name}" is already registered`);
  DISCIPLINES.push(discipline);
  return () => {
    const i = DISCIPLINES.indexOf(discipline);
    if (i >= 0) DISCIPLINES.splice(i, 1);
  };
}

module.exports = { listDisciplines, getDiscipline, registerDiscipline, DEFAULT_DISCIPLINE };
