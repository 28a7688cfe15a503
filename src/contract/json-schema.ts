/**
 * A contract's schema as JSON Schema, for the OpenAPI document and for reading forms, through Standard JSON Schema (https://standard-schema.dev):
 * `~standard.jsonSchema.input()` for what a client sends, `.output()` for what it gets back. A
 * validator that does not implement it, or a schema it cannot describe (Zod's `z.date()`), is a
 * warning, never an error: the operation is still documented, with an open schema.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from './standard-schema';

/** A JSON Schema, keyword by keyword. */
export type JsonSchema = { [keyword: string]: unknown };

export type Direction = 'input' | 'output';

/** JSON Schema 2020-12 is the dialect of the Schema Object in OpenAPI 3.1 and 3.2 (section 4.8.24). */
const TARGET = 'draft-2020-12';

export function jsonSchemaOf(
  schema: StandardSchemaV1,
  direction: Direction,
): { schema: JsonSchema } | { problem: string } {
  const props = schema['~standard'] as StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props>;
  const vendor = String(props.vendor);
  const convert = props.jsonSchema?.[direction];
  if (typeof convert !== 'function') {
    const hint =
      vendor === 'valibot' ? ' (wrap it in toStandardJsonSchema() of @valibot/to-json-schema)' : '';
    return { problem: `its validator (${vendor}) does not implement Standard JSON Schema${hint}` };
  }
  try {
    const result = convert({ target: TARGET });
    if (typeof result !== 'object' || result === null) return { problem: `${vendor} gave no JSON Schema` };
    return { schema: result };
  } catch (error) {
    return {
      problem: `${vendor} cannot describe it as JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
