'use strict';
// A run whose playbacks played different builds of its content mixes two contents (builds from
// before builds were reproducible, another ffmpeg or x264: origin/content/content-build-digest.js). Said above the tables, with the
// cells that hold playbacks of more than one build.

/**
 * @param {object[]} records  playback records (contentDigest: string, or null/absent before it was recorded)
 * @param {{label: string, ids: string[]}[]} groups  the report's cells (aggregate.js)
 * @param {string} content  the scenario's content name
 * @returns {string[]} sentences; none when every playback records the same build, or none records one
 */
function contentBuildNotes(records, groups, content) {
  const digestOf = new Map(records.map((r) => [r.id, r.contentDigest || null]));
  const counts = new Map();
  for (const d of digestOf.values()) counts.set(d, (counts.get(d) || 0) + 1);
  const known = [...counts.keys()].filter(Boolean);
  if (!known.length || counts.size === 1) return [];
  const plural = (n) => `${n} playback${n === 1 ? '' : 's'}`;
  const builds = known.map((d) => `${d} (${plural(counts.get(d))})`).join(', ');
  const lines = [];
  if (known.length > 1) lines.push(`These playbacks come from ${known.length} builds of ${content} whose segment sizes differ: ${builds}. A cell that mixes builds compares slightly different contents.`);
  const unknown = counts.get(null) || 0;
  if (unknown) lines.push(`${plural(unknown)} record no content build (made before the lab recorded one), the others ${builds}: whether they played the same build cannot be told from the records.`);
  const mixed = groups.filter((g) => new Set(g.ids.filter((id) => digestOf.has(id)).map((id) => digestOf.get(id))).size > 1).map((g) => g.label);
  if (mixed.length) lines.push(`Cells holding playbacks of more than one build, or of a build not recorded: ${mixed.join(', ')}.`);
  return lines;
}

module.exports = { contentBuildNotes };
