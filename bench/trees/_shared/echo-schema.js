// (b) with validation: the Zod schema of the 1 KiB echo document (lib/payloads.ts), keys in the
// document's order, so the validated output serialises to the very same bytes.
import { z } from 'zod';

export const EchoDocument = z.object({
  user: z.object({ id: z.number(), name: z.string(), email: z.email(), roles: z.array(z.string()) }),
  items: z.array(z.object({ id: z.number(), sku: z.string(), qty: z.number().int(), price: z.number() })),
  note: z.string(),
});
