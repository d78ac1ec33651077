'use strict';
// The page's controls for the transports' options (form-choices.js lists them): each shown
// only while its transport is selected. An option gets a text field unless the page has a
// control of its own for it (the DataChannel's BP slider, which also changes the BP of a
// running playback).
const { inUrl, throwIfAny } = require('../run-options');
const { transports } = require('../transports');

/** The BP slider and its "adapt" box (index.html's #bp-label). */
function bpSlider($, config, getRun) {
  const autoBp = typeof config.bp === 'string';
  $('bp-auto').checked = autoBp;
  $('bp').value = String(autoBp ? 50 : config.bp ?? 100);
  const showValue = () => {
    $('bp-value').textContent = `${$('bp').value} %`;
  };
  showValue();
  // BP changes live: the next segment requested uses it (no restart needed). Moving the
  // slider takes over from dynamic BP.
  $('bp').addEventListener('input', () => {
    showValue();
    const run = getRun();
    if (run && run.transport && run.transport.setBp) {
      $('bp-auto').checked = false;
      run.transport.setAutoBp(null);
      run.transport.setBp(Number($('bp').value));
    }
  });
  $('bp-auto').addEventListener('change', () => {
    const run = getRun();
    if (run && run.transport && run.transport.setAutoBp) run.transport.setAutoBp($('bp-auto').checked ? { minBp: 0, maxBp: 100 } : null);
  });
  return {
    show: (visible) => { $('bp-label').hidden = !visible; },
    value: () => ($('bp-auto').checked ? 'auto' : Number($('bp').value)),
  };
}

/** A text field inserted into the form after `anchor` (the transport menu, or the field before). */
function textField(document, option, config, anchor) {
  const label = document.createElement('label');
  label.id = `option-${option.key}-label`;
  label.title = option.help || '';
  label.textContent = `${option.title} `;
  const input = document.createElement('input');
  input.id = `option-${option.key}`;
  input.name = option.key;
  input.placeholder = option.default === undefined ? '' : String(option.default);
  if (config[option.key] !== undefined) input.value = String(config[option.key]);
  label.appendChild(input);
  anchor.after(label);
  return {
    element: label,
    show: (visible) => { label.hidden = !visible; },
    value: () => (input.value.trim() === '' ? undefined : input.value.trim()),
  };
}

/**
 * @param {object} o
 * @param {Document} o.document
 * @param {(id: string) => HTMLElement} o.$
 * @param {object} o.choices    formChoices()
 * @param {object} o.config     the run config the page was opened with
 * @param {() => object|null} o.getRun  the running playback
 * @returns {{show(transport: string): void, values(transport: string): object}}
 */
function mountOptionControls({ document, $, choices, config, getRun }) {
  const controls = new Map();
  // Text fields follow the transport menu in the registry's order.
  let anchor = document.getElementById('transport').closest('label');
  for (const t of choices.transports) {
    for (const option of t.options) {
      if (controls.has(option.key)) continue;
      if (option.control === 'bp-slider') {
        controls.set(option.key, bpSlider($, config, getRun));
        continue;
      }
      const field = textField(document, option, config, anchor);
      anchor = field.element;
      controls.set(option.key, field);
    }
  }
  const keysOf = (name) => (transports.has(name) ? Object.keys(transports.get(name).options) : []);
  return {
    show(name) {
      const keys = keysOf(name);
      for (const [key, control] of controls) control.show(keys.includes(key));
    },
    /** The selected transport's option values, checked by the option's own rules. */
    values(name) {
      const out = {};
      const problems = [];
      for (const key of keysOf(name)) {
        const raw = controls.get(key).value();
        if (raw === undefined) continue;
        const option = transports.get(name).options[key];
        out[key] = option.parse(raw, inUrl(key, { title: option.title }), problems);
      }
      throwIfAny(problems);
      return out;
    },
  };
}

module.exports = { mountOptionControls };
