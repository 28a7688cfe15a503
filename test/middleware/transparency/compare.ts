/**
 * Byte-for-byte comparison of two exchanges, with only what legitimately differs taken out:
 * the Date header's value (it changes each second), and for the copying middleware the one
 * header line it adds to each final response. A difference is reported as the first differing
 * line with a few lines around it, both sides escaped, so a failure reads without a debugger.
 */
import type { Exchange } from './raw-client';
import { ADDED_HEADER_LINE } from './fixtures';

/** The exchange as text, Date values masked. latin1 keeps one character per byte. */
export function normalise(exchange: Exchange): string {
  return exchange.bytes.toString('latin1').replace(/\r\nDate: [^\r\n]*/g, '\r\nDate: <date>');
}

/** Final (non-interim) status lines: responses the middleware saw and could add a header to. */
export function finalResponses(text: string): number {
  // A body may end without a line break, right before the next response on the connection.
  return (text.match(/HTTP\/1\.[01] (?!10[023] )\d{3} /g) ?? []).length;
}

/** Removes the copy's added header line from each response; returns the text and how many it removed. */
export function withoutAddedHeader(text: string): { text: string; removed: number } {
  let removed = 0;
  const line = `\r\n${ADDED_HEADER_LINE}\r\n`;
  let out = text;
  for (let at = out.indexOf(line); at !== -1; at = out.indexOf(line)) {
    out = out.slice(0, at) + out.slice(at + line.length - 2);
    removed++;
  }
  return { text: out, removed };
}

/** `undefined` when equal; otherwise a readable account of where they part. */
export function explainDifference(
  label: string,
  expected: { text: string; ending: string },
  actual: { text: string; ending: string },
): string | undefined {
  if (expected.text === actual.text && expected.ending === actual.ending) return undefined;
  const a = expected.text.split('\r\n');
  const b = actual.text.split('\r\n');
  let first = 0;
  while (first < a.length && first < b.length && a[first] === b[first]) first++;
  const from = Math.max(0, first - 3);
  const to = Math.min(Math.max(a.length, b.length), first + 4);
  const show = (lines: string[]) =>
    lines
      .slice(from, to)
      .map((line, i) => `${from + i === first ? '>' : ' '} ${from + i}: ${escape(line)}`)
      .join('\n');
  return [
    `${label} differs from the app without the bridge at line ${first}:`,
    `  without the bridge (${expected.text.length} bytes, ${expected.ending}):`,
    indent(show(a)),
    `  with ${label} (${actual.text.length} bytes, ${actual.ending}):`,
    indent(show(b)),
  ].join('\n');
}

function escape(line: string): string {
  const shown = JSON.stringify(line.length > 160 ? `${line.slice(0, 160)}…(${line.length})` : line);
  return shown.slice(1, -1);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
