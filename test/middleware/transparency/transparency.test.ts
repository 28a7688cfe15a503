/**
 * The differential transparency suite: every case is sent to the same real Express app three
 * times — without the bridge, behind a passthrough bridged middleware (`(req, next) => next()`),
 * and behind one that copies the Response and adds a header — and what the client receives is
 * compared byte for byte: status line with its text, header lines in order with their spelling
 * and repeats, framing (Content-Length or chunked, chunk sizes, trailers), body. Only the Date
 * value and the copy's added header line are taken out. On Express 5 and Express 4.
 */
import http from 'node:http';
import { expect } from 'chai';
import express5 from 'express';
import { listen, type Listening } from '../../support/net';
import { CASES } from './cases';
import type { AppName } from './case-helpers';
import { explainDifference, finalResponses, normalise, withoutAddedHeader } from './compare';
import { coreApp, type CoreState } from './corpus-core';
import {
  compressedApp,
  filesApp,
  securityApp,
  sessionApp,
  vhostApp,
  type ExpressModule,
} from './corpus-packages';
import { makeFixture, VARIANTS, type Fixture, type Variant } from './fixtures';
import { exchange } from './raw-client';

const express4 = require('express4') as ExpressModule;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const EXPRESS: [string, ExpressModule][] = [
  ['Express 5', express5],
  ['Express 4', express4],
];

function build(name: AppName, express: ExpressModule, variant: Variant, fixture: Fixture, log: string[]) {
  const state: CoreState = { endCallbacks: 0, closedPolls: 0 };
  switch (name) {
    case 'core':
      return coreApp(express, variant, state);
    case 'session':
      return sessionApp(express, variant);
    case 'files':
      return filesApp(express, variant, fixture, log);
    case 'security':
      return securityApp(express, variant);
    case 'vhost':
      return vhostApp(express, variant);
    case 'compressed':
      return compressedApp(express, variant, fixture);
  }
}

const APPS: AppName[] = ['core', 'session', 'files', 'security', 'vhost', 'compressed'];

for (const [version, express] of EXPRESS) {
  describe(`bridgeMiddleware is invisible to the app behind it (${version})`, function () {
    let fixture: Fixture;
    const servers = new Map<string, Listening>();
    const logs = new Map<Variant, string[]>(VARIANTS.map((variant) => [variant, []]));

    before(async () => {
      fixture = makeFixture();
      for (const app of APPS) {
        for (const variant of VARIANTS) {
          const built = build(app, express, variant, fixture, logs.get(variant)!);
          servers.set(`${app}/${variant}`, await listen(http.createServer(built)));
        }
      }
    });
    after(async () => {
      await Promise.all([...servers.values()].map((server) => server.close()));
      fixture?.remove();
    });

    for (const testCase of CASES) {
      it(`${testCase.app}: ${testCase.name}`, async () => {
        const received = new Map<Variant, { text: string; ending: string }>();
        for (const variant of VARIANTS) {
          if (testCase.delayBefore) await delay(testCase.delayBefore);
          const server = servers.get(`${testCase.app}/${variant}`)!;
          const result = await exchange(server.port, testCase.requests, testCase);
          received.set(variant, { text: normalise(result), ending: result.ending });
        }
        const plain = received.get('plain')!;
        expect(plain.text.length, 'the app without the bridge answered nothing').to.be.greaterThan(
          testCase.leaveAfterMs ? -1 : 0,
        );
        const problems: string[] = [];
        const passthrough = explainDifference('the passthrough', plain, received.get('passthrough')!);
        if (passthrough) problems.push(passthrough);

        const copy = received.get('copy')!;
        const { text, removed } = withoutAddedHeader(copy.text);
        const copyDifference = explainDifference('the copy', plain, { text, ending: copy.ending });
        if (copyDifference) problems.push(copyDifference);
        else if (removed !== finalResponses(plain.text))
          problems.push(
            `the copy's added header appeared ${removed} times, in ${finalResponses(plain.text)} responses`,
          );
        if (problems.length > 0) expect.fail(problems.join('\n\n'));
      });
    }

    it('morgan behind the bridge logged the same requests, statuses and headers', () => {
      const plain = logs.get('plain')!;
      expect(plain.length).to.be.greaterThan(40);
      expect(logs.get('passthrough')).to.deep.equal(plain);
      expect(logs.get('copy')).to.deep.equal(plain);
    });
  });
}
