/**
 * Folder name -> meaning: `users` (static), `[id]`, `[...rest]`, `[[...rest]]`, `(group)`, `_private`,
 * or malformed. Malformed names are classified rather than thrown so validation can report them all at once.
 */
import type { ParsedFolder, Segment } from './types';

// Param names become `context.params` keys and TypeScript property names (see ParamsOf), so keep them plain.
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function parseFolder(name: string): ParsedFolder {
  if (name.startsWith('_')) return { kind: 'private', name };

  if (name.startsWith('(')) {
    const group = /^\(([^()[\]]+)\)$/.exec(name);
    if (group) return { kind: 'group', name: group[1] as string };
    return {
      kind: 'malformed',
      value: name,
      reason: 'a route group is written (name), with a non-empty name',
    };
  }

  if (!name.includes('[') && !name.includes(']')) {
    // A URL parser reads `\` as `/` and resolves `.`/`..` (`%2e` too): no URL reaches such a folder.
    if (name.includes('\\')) {
      return { kind: 'malformed', value: name, reason: 'a URL reads "\\" as "/", so no URL reaches it' };
    }
    if (/^(?:\.|%2e){1,2}$/i.test(name)) {
      return {
        kind: 'malformed',
        value: name,
        reason: 'a URL resolves dot segments away, so no URL reaches it',
      };
    }
    return { kind: 'static', value: name };
  }

  const optional = /^\[\[\.\.\.(.*)\]\]$/.exec(name);
  if (optional) return named('optionalCatchAll', optional[1] as string, name);
  const catchAll = /^\[\.\.\.(.*)\]$/.exec(name);
  if (catchAll) return named('catchAll', catchAll[1] as string, name);
  if (/^\[\[.*\]\]$/.test(name)) {
    return { kind: 'malformed', value: name, reason: 'an optional catch-all is written [[...name]]' };
  }
  const param = /^\[(.*)\]$/.exec(name);
  if (param) return named('param', param[1] as string, name);
  return {
    kind: 'malformed',
    value: name,
    reason: 'brackets must enclose the whole folder name, as in [id]',
  };
}

function named(
  kind: 'param' | 'catchAll' | 'optionalCatchAll',
  paramName: string,
  folder: string,
): ParsedFolder {
  if (paramName === '') return { kind: 'malformed', value: folder, reason: 'the parameter name is empty' };
  if (!IDENTIFIER.test(paramName)) {
    return {
      kind: 'malformed',
      value: folder,
      reason: `the parameter name "${paramName}" is not an identifier (letters, digits, _ and $)`,
    };
  }
  return { kind, name: paramName };
}

/** How a segment is written in a URL pattern: `users`, `[id]`, `[...rest]`, `[[...rest]]`. */
function formatSegment(segment: Segment): string {
  switch (segment.kind) {
    case 'static':
      return segment.value;
    case 'param':
      return `[${segment.name}]`;
    case 'catchAll':
      return `[...${segment.name}]`;
    case 'optionalCatchAll':
      return `[[...${segment.name}]]`;
  }
}

/** The URL pattern of a list of segments; `/` for none. */
export function formatPattern(segments: readonly Segment[]): string {
  return `/${segments.map(formatSegment).join('/')}`;
}
