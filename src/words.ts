/**
 * How messages count, list and name things, one way everywhere: `1 problem`, `3 problems`; `a, b and c`;
 * `an object (Map)`.
 */

/** `1 problem`, `0 problems`, `3 problems`: the count with its noun, plural unless it is 1. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `a`, `a and b`, `a, b and c`. */
export function listWords(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** What a value is, for a message about the wrong one: `undefined`, `null`, `an object (Map)`, `a string`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return `a ${typeof value}`;
}
