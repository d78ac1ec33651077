'use strict';
// What the page's form offers, from the registries: the transports with their options and the
// ABRs with their default parameters. Plain data, so it can be checked in Node; main.js draws it.
const { transports } = require('../transports');
const { abrs } = require('../abr');

/**
 * @returns {{transports: {value, label, options: {key, title, help, default, control}[]}[],
 *   abrs: {value, label, defaults}[]}} in registration order
 */
function formChoices() {
  return {
    transports: transports.list().map((t) => ({
      value: t.name,
      label: t.label,
      options: Object.values(t.options).map((o) => ({ key: o.key, title: o.title, help: o.help, default: o.default, control: o.control })),
    })),
    abrs: abrs.list().map((a) => ({ value: a.name, label: a.label, defaults: a.defaults })),
  };
}

module.exports = { formChoices };
