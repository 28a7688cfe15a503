/**
 * Near-misses of the handler names: `PSOT` beside `GET` is ignored by dispatch, so POST answers 405 and
 * nothing says why. An all-caps export is taken for a misspelt method when it is within two edits of one
 * (a swap of neighbours is one edit: `GTE`, `PSOT`), or one edit of a three-letter name (GET, PUT, ANY):
 * at two edits nearly every short all-caps word (`API`, `KEY`, `TTL`, `ALL`) would be "near" them.
 * Other all-caps exports (`MAX_SIZE`, `API`) stay allowed, as do lower-case helpers.
 */
import { HTTP_METHODS } from '../http-methods';

const METHOD_NAMES: readonly string[] = [...HTTP_METHODS, 'ANY'];
const ALL_CAPS = /^[A-Z][A-Z0-9_]*$/;

/** The method name `name` misspells, if it is an all-caps near-miss of one; undefined otherwise. */
export function misspeltMethod(name: string): string | undefined {
  if (!ALL_CAPS.test(name) || METHOD_NAMES.includes(name)) return undefined;
  let best: { method: string; distance: number } | undefined;
  for (const method of METHOD_NAMES) {
    const distance = editDistance(name, method);
    const allowed = method.length <= 3 ? 1 : 2;
    if (distance <= allowed && (!best || distance < best.distance)) best = { method, distance };
  }
  return best?.method;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and neighbour swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
