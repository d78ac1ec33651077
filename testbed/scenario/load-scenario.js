'use strict';
// Finds, reads and parses a scenario file (JSON or YAML), then validates it. A name may be
// given without its extension and relative to the working directory or to testbed/, so
// `npm run qoe -- scenarios/smoke` works from the repository root.
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const { getPreset } = require('../../origin/content/presets');
const { validateScenario, ScenarioError } = require('./validate-scenario');

const TESTBED = path.resolve(__dirname, '..');
const EXTENSIONS = ['', '.yaml', '.yml', '.json'];

function resolveScenarioPath(arg) {
  const bases = path.isAbsolute(arg) ? [''] : [process.cwd(), TESTBED];
  for (const base of bases) {
    for (const ext of EXTENSIONS) {
      const candidate = path.resolve(base, arg + ext);
      if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
    }
  }
  const shipped = fs.readdirSync(path.join(TESTBED, 'scenarios')).filter((f) => /\.(ya?ml|json)$/.test(f)).map((f) => f.replace(/\.(ya?ml|json)$/, ''));
  throw new ScenarioError(arg, [`no scenario file "${arg}" (tried ${EXTENSIONS.map((e) => e || 'as given').join(', ')}, from ${bases.join(' and ') || '/'}); shipped scenarios: ${shipped.map((s) => `scenarios/${s}`).join(', ')}`]);
}

function parseScenarioText(text, file) {
  try {
    if (file.endsWith('.json')) return JSON.parse(text);
    const doc = YAML.parseDocument(text, { prettyErrors: true });
    if (doc.errors.length) throw new Error(doc.errors.map((e) => e.message).join('; '));
    return doc.toJS();
  } catch (err) {
    throw new ScenarioError(file, [`not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${err.message}`]);
  }
}

/** @returns {{file: string, scenario: object}} */
function loadScenario(arg) {
  const file = resolveScenarioPath(arg);
  const raw = parseScenarioText(fs.readFileSync(file, 'utf8'), file);
  const dir = path.dirname(file);
  const scenario = validateScenario(raw, {
    source: path.relative(process.cwd(), file) || file,
    defaultName: path.basename(file).replace(/\.(ya?ml|json)$/, ''),
    getPreset,
    readText: (rel) => fs.readFileSync(path.resolve(dir, rel), 'utf8'),
  });
  return { file, scenario };
}

module.exports = { loadScenario, resolveScenarioPath, parseScenarioText };
