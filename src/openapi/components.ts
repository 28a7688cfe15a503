/**
 * The document's `components.schemas`: where schemas that several operations share live once, and
 * referenced with `$ref` (OpenAPI 3.1/3.2, section 4.8.7). A validator names a shared schema in its
 * JSON Schema's `$defs` (Zod's `.meta({ id: 'User' })`); those are moved here and their `$ref`s
 * rewritten, since a `$ref` to `#/$defs/User` inside the document would resolve against the
 * document's root, not the schema's. Two different schemas never share a name: the second gets
 * `UserInput` (a request's form of it) or a number.
 */
import type { Direction } from '../contract';
import type { JsonSchema } from './types';

/** Component names: `^[a-zA-Z0-9.\-_]+$` (section 4.8.7.1). */
function componentName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_') || 'Schema';
}

export class SchemaComponents {
  readonly schemas: { [name: string]: JsonSchema } = {};
  readonly #texts = new Map<string, string>();

  /**
   * `schema` ready to go inside the document: `$schema` dropped (the document's dialect applies),
   * `$defs` moved into the components and references to them rewritten.
   */
  place(schema: JsonSchema, direction: Direction): JsonSchema {
    const { $defs, $schema: _dialect, ...rest } = schema;
    const renamed = new Map<string, string>();
    const defs = isObject($defs) ? Object.entries($defs) : [];
    // Names first, so definitions that refer to each other are rewritten consistently.
    for (const [name, definition] of defs) {
      renamed.set(name, this.#claim(name, JSON.stringify(definition), direction));
    }
    for (const [name, definition] of defs) {
      this.schemas[renamed.get(name)!] = rewriteRefs(definition, renamed) as JsonSchema;
    }
    // A recursive schema refers to itself as `#`, which inside the document is the document: the schema
    // becomes a component, and `#` a reference to it.
    if (!JSON.stringify(rest).includes('"$ref":"#"')) return rewriteRefs(rest, renamed) as JsonSchema;
    const wanted = typeof rest.title === 'string' ? rest.title : 'Recursive';
    const self = this.#claim(wanted, JSON.stringify(rest), direction);
    this.schemas[self] = rewriteRefs(rest, renamed, self) as JsonSchema;
    return { $ref: `#/components/schemas/${self}` };
  }

  /** `schema` as a component named after `name`, and the reference to it. */
  share(name: string, schema: JsonSchema): JsonSchema {
    const claimed = this.#claim(name, JSON.stringify(schema), 'output');
    this.schemas[claimed] = schema;
    return { $ref: `#/components/schemas/${claimed}` };
  }

  /** A free name for a schema with this text; the same name for the same schema. */
  #claim(wanted: string, text: string, direction: Direction): string {
    const base = componentName(wanted);
    const candidates = [base, ...(direction === 'input' ? [`${base}Input`] : [])];
    for (let n = 2; ; n++) {
      for (const name of candidates) {
        const taken = this.#texts.get(name);
        if (taken === undefined || taken === text) {
          this.#texts.set(name, text);
          return name;
        }
      }
      candidates.splice(0, candidates.length, `${base}${n}`);
    }
  }
}

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rewriteRefs(value: unknown, renamed: ReadonlyMap<string, string>, self?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, renamed, self));
  if (!isObject(value)) return value;
  const out: { [key: string]: unknown } = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')) {
      const name = decodedPointer(item.slice('#/$defs/'.length));
      out.$ref = `#/components/schemas/${renamed.get(name) ?? componentName(name)}`;
    } else if (key === '$ref' && item === '#' && self !== undefined) {
      out.$ref = `#/components/schemas/${self}`;
    } else {
      out[key] = rewriteRefs(item, renamed, self);
    }
  }
  return out;
}

/** A JSON Pointer token of a `$ref` (RFC 6901); one whose percent-encoding is malformed is taken as written. */
function decodedPointer(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // Not percent-encoded after all (`%` alone): the name as the schema gave it.
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}
