'use strict';
// dash.js's own ABR rules with dash.js's default settings: the baseline the lab's algorithms
// are compared with. An ordinary registry entry whose decide is null: no lab rule is added and
// dash.js keeps its buffer target, fast switching and abandonment (player/dash/dash-settings.js).

module.exports = {
  name: 'dashjs',
  label: 'dash.js default (baseline)',
  defaults: Object.freeze({}),
  spec: {},
  decide: null,
};
