/**
 * The app of scenario (e)'s first-answer measures: Express, the endpoints (or, for the baseline, one native
 * route serving the same URL), a server on a free port, one request to the last of the 1,000 routes, and the
 * wall clock of its answer on stdout. Shared by bench/first-answer.ts and the single-file bundle's entry.
 */
import type { Express } from 'express';
import { LAST_ROUTE, routeName } from './payloads';

export const FIRST_ANSWER_PATH = `/api/${routeName(LAST_ROUTE)}/1`;

export async function answerOnce(
  express: () => Express,
  mount: (app: Express) => Promise<unknown> | undefined,
): Promise<void> {
  const app = express();
  const mounted = mount(app);
  if (mounted) await mounted;
  else app.get(FIRST_ANSWER_PATH, (_req, res) => void res.json({ route: LAST_ROUTE, id: '1' }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}${FIRST_ANSWER_PATH}`);
  const body = await res.text();
  const answered = Date.now();
  if (res.status !== 200) throw new Error(`first answer: ${res.status} ${body}`);
  process.stdout.write(`${JSON.stringify({ answered })}\n`);
  server.close();
  server.closeAllConnections();
}
