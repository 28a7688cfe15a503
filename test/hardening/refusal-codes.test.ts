/**
 * Every refusal the library passes to the app's error handler carries a stable `code`, so an app
 * that translates its error messages (i18next and the like) translates by it rather than by the
 * English message, which may be reworded; body-parser's `type` stays where it has one.
 */
import http from 'node:http';
import express from 'express';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import { listen, type Listening } from '../support/net';
import { FIXTURE_DIR, rawBody, rawExchange } from './helpers';

interface Refusal {
  status: number;
  code?: string;
  type?: string;
  name?: string;
}

const TRANSLATIONS: Record<string, string> = {
  MALFORMED_PATH: 'Chemin mal encodé',
  REWRITTEN_PATH: 'Chemin refusé',
  BAD_ORIGIN: 'Hôte invalide',
  METHOD_NOT_ALLOWED: 'Méthode non permise',
  PAYLOAD_TOO_LARGE: 'Corps trop grand',
};

describe('hardening: refusals carry a stable code', () => {
  let server: Listening;
  before(async () => {
    const app = express();
    await mountEndpoints(app, { dir: FIXTURE_DIR, unservedMethods: '405' });
    // An app that answers in its own language, by code.
    app.use((error: Refusal, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(error.status ?? 500).json({
        ...error,
        name: error.name,
        text: TRANSLATIONS[error.code ?? ''] ?? 'Erreur',
      });
    });
    server = await listen(http.createServer(app));
  });
  after(() => server.close());

  const request = (lines: string) => rawExchange(server.port, `${lines}Connection: close\r\n\r\n`);
  const cases: [string, string, Partial<Refusal> & { text: string }][] = [
    [
      'malformed percent-encoding',
      'GET /params/p1/%ff HTTP/1.1\r\nHost: x\r\n',
      { status: 400, code: 'MALFORMED_PATH', text: 'Chemin mal encodé' },
    ],
    [
      'a dot segment',
      'GET /segments/%2e%2e/x HTTP/1.1\r\nHost: x\r\n',
      { status: 400, code: 'REWRITTEN_PATH', text: 'Chemin refusé' },
    ],
    [
      'a Host that is no host',
      'GET /headers HTTP/1.1\r\nHost: a b\r\n',
      { status: 400, code: 'BAD_ORIGIN', text: 'Hôte invalide' },
    ],
    [
      'a method the file does not serve',
      'DELETE /methods/get-only HTTP/1.1\r\nHost: x\r\n',
      { status: 405, code: 'METHOD_NOT_ALLOWED', text: 'Méthode non permise' },
    ],
    [
      'a body over the limit',
      `POST /limits/small HTTP/1.1\r\nHost: x\r\nContent-Length: ${10 * 1024 * 1024}\r\n`,
      { status: 413, code: 'PAYLOAD_TOO_LARGE', type: 'entity.too.large', text: 'Corps trop grand' },
    ],
  ];
  for (const [what, lines, expected] of cases) {
    it(`${what}: ${expected.status} with code ${expected.code}, translated by it`, async () => {
      const reply = await request(lines);
      expect(reply.status).to.equal(expected.status);
      expect(JSON.parse(Buffer.from(rawBody(reply), 'latin1').toString('utf8'))).to.include(expected);
    });
  }
});
