/**
 * A real OpenAPI validator for the documents the tests generate: @seriousme/openapi-schema-validator.
 * It validates against the JSON Schemas the OpenAPI Initiative publishes for each version, 3.1 and 3.2
 * included, is actively maintained, works offline and is small (Ajv and its formats).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import type { OpenAPIDocument } from '../../src';

export async function validate(document: OpenAPIDocument): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(
    structuredClone(document) as unknown as Parameters<Validator['validate']>[0],
  );
  expect(result.valid, JSON.stringify(result.errors, null, 2)).to.equal(true);
}
