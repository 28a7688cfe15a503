/** How messages count and list things, one way everywhere: `1 problem`, `3 problems`; `a, b and c`. */

/** `1 problem`, `0 problems`, `3 problems`: the count with its noun, plural unless it is 1. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `a`, `a and b`, `a, b and c`. */
export function listWords(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
