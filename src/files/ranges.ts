/**
 * The Range header read as send reads it (range-parser with `combine`), so the same request gets
 * the same bytes: `bytes=0-9`, a suffix `bytes=-5`, an open `bytes=10-`; overlapping and adjacent
 * ranges merged; a last byte past the end cut to the end. Only its results, not an RFC 9110
 * reading of its own: what send did is what clients of a moved route already rely on.
 */

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/** None of the ranges can be satisfied: 416. */
export const UNSATISFIABLE = -1;
/** The header is malformed: it is ignored and the whole file is sent. */
export const MALFORMED = -2;

/** send's test of whether a Range header asks for bytes at all. */
export const BYTES_RANGE = /^ *bytes=/;

/**
 * The ranges of a file of `size` bytes that `header` asks for, in the order asked, overlapping ones
 * merged; or UNSATISFIABLE, or MALFORMED.
 */
export function parseRanges(
  size: number,
  header: string,
): ByteRange[] | typeof UNSATISFIABLE | typeof MALFORMED {
  const equals = header.indexOf('=');
  if (equals === -1) return MALFORMED;
  const ranges: ByteRange[] = [];
  for (const spec of header.slice(equals + 1).split(',')) {
    const dash = spec.indexOf('-');
    if (dash === -1) return MALFORMED;
    const startText = spec.slice(0, dash).trim();
    const endText = spec.slice(dash + 1).trim();
    let start = position(startText);
    let end = position(endText);
    if (startText.length === 0) {
      start = size - end;
      end = size - 1;
    } else if (endText.length === 0) {
      end = size - 1;
    }
    if (end > size - 1) end = size - 1;
    if (Number.isNaN(start) || Number.isNaN(end)) return MALFORMED;
    if (start > end || start < 0) continue;
    ranges.push({ start, end });
  }
  return ranges.length === 0 ? UNSATISFIABLE : combine(ranges);
}

function position(text: string): number {
  return /^\d+$/.test(text) ? Number(text) : NaN;
}

/** Overlapping and adjacent ranges merged, each where the first of its parts was asked for. */
function combine(ranges: ByteRange[]): ByteRange[] {
  const ordered = ranges.map((range, index) => ({ ...range, index })).sort((a, b) => a.start - b.start);
  let last = 0;
  for (let i = 1; i < ordered.length; i++) {
    const range = ordered[i]!;
    const current = ordered[last]!;
    if (range.start > current.end + 1) {
      ordered[++last] = range;
    } else if (range.end > current.end) {
      current.end = range.end;
      current.index = Math.min(current.index, range.index);
    }
  }
  ordered.length = last + 1;
  return ordered.sort((a, b) => a.index - b.index).map(({ start, end }) => ({ start, end }));
}

/** `bytes 0-9/100`, or `bytes *\/100` for a 416. */
export function contentRange(size: number, range?: ByteRange): string {
  return `bytes ${range ? `${range.start}-${range.end}` : '*'}/${size}`;
}
