// (b) with a contract: express-file-endpoints reads and validates the body, the handler echoes it.
// The library is the bench's own bundle of src/ (bench/.scratch/build/library.mjs, lib/build.ts).
import { defineHandler } from '../../../../.scratch/build/library.mjs';
import { EchoDocument } from '../../../_shared/echo-schema.js';

export const POST = defineHandler({ body: EchoDocument }, (_request, { body }) => Response.json(body));
