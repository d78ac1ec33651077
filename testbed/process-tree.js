'use strict';
// A process and every process below it, read from /proc: Chromium's network service, which
// holds its sockets, is a child of the browser process the lab launches.
const fs = require('node:fs');

/** The PPID of each process now, as child lists by parent. */
function childrenByParent() {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // Fields after the command name (which may hold spaces and parentheses): state, ppid, ...
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(entry));
  }
  return children;
}

/** rootPid and its descendants. */
function processTree(rootPid) {
  const children = childrenByParent();
  const tree = new Set([rootPid]);
  const queue = [rootPid];
  while (queue.length) {
    for (const c of children.get(queue.shift()) || []) {
      if (!tree.has(c)) {
        tree.add(c);
        queue.push(c);
      }
    }
  }
  return tree;
}

module.exports = { processTree };
