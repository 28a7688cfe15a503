/**
 * The request target read once (src/bridge/mount-path.ts): each answer belongs to the request asked
 * about, however requests are interleaved and whatever the app rewrote; and the mount paths a tree's
 * middleware notes for its sockets.
 */
import type { IncomingMessage } from 'node:http';
import { expect } from 'chai';
import { MountPaths, mountPathOf, pathBelowMount, splitAtMountPath } from '../../src/bridge';
import { hasRewrittenPath } from '../../src/bridge/request-url';

type Target = { url?: string; originalUrl?: string; baseUrl?: string };
/** A request through an Express app that routes case-sensitively. */
const caseSensitiveApp = (target: Target) =>
  ({
    ...target,
    app: Object.assign(() => undefined, { enabled: (name: string) => name === 'case sensitive routing' }),
  }) as unknown as IncomingMessage;
const request = (target: Target) => target as unknown as IncomingMessage;

describe('the request target', () => {
  it('answers for the request asked about, interleaved with others and after a rewrite', () => {
    const express = request({ url: '/users?x=1', originalUrl: '/v1/users?x=1', baseUrl: '/v1' });
    const connect = request({ url: '/users', originalUrl: '/api/users' });
    const bare = request({ url: '/files/%2e%2e/secret' });
    for (let round = 0; round < 2; round++) {
      expect([pathBelowMount(express), mountPathOf(express)]).to.deep.equal(['/users', '/v1']);
      expect([pathBelowMount(connect), mountPathOf(connect)]).to.deep.equal(['/users', '/api']);
      expect([pathBelowMount(bare), mountPathOf(bare), hasRewrittenPath(bare)]).to.deep.equal([
        '/files/%2e%2e/secret',
        '',
        true,
      ]);
      expect(hasRewrittenPath(express)).to.equal(false);
    }
    const rewritten = request({ url: '/users', originalUrl: '/api/users' });
    expect(mountPathOf(rewritten)).to.equal('/api');
    (rewritten as Target).url = '/people';
    expect([pathBelowMount(rewritten), mountPathOf(rewritten)]).to.deep.equal(['/people', '']);
  });

  it('leaves a path stripped of a slash more than the mount path to the app', () => {
    expect(pathBelowMount(request({ url: '/ops', originalUrl: '/v1//ops', baseUrl: '/v1' }))).to.equal(
      undefined,
    );
    expect(pathBelowMount(request({ url: '/ops', originalUrl: '/v1/ops', baseUrl: '/v1' }))).to.equal('/ops');
  });
});

describe('the mount paths a tree notes for its sockets', () => {
  const spellings = (paths: MountPaths) => paths.known.map((noted) => noted.path);

  it('keeps each once, the longest first, and a few at most', () => {
    const paths = new MountPaths();
    expect(paths.known).to.deep.equal([]);
    paths.note(request({ url: '/x', originalUrl: '/x', baseUrl: '' }));
    paths.note(request({ url: '/x', originalUrl: '/api/v1/x', baseUrl: '/api/v1' }));
    paths.note(request({ url: '/y', originalUrl: '/api/v1/y', baseUrl: '/api/v1' }));
    expect(spellings(paths)).to.deep.equal(['/api/v1', '']);
    for (let id = 0; id < 20; id++) {
      paths.note(request({ url: '/x', originalUrl: `/t/${id}/x`, baseUrl: `/t/${id}` }));
    }
    expect(paths.known).to.have.length(8);
  });

  it('notes nothing where Connect stripped no prefix it can tell: the app rewrote req.url', () => {
    const paths = new MountPaths();
    paths.note(request({ url: '/elsewhere', originalUrl: '/v1/users' }));
    expect(paths.known).to.deep.equal([]);
    paths.note(request({ url: '/users', originalUrl: '/v1/users' }));
    expect(spellings(paths)).to.deep.equal(['/v1']);
  });

  it('notes a mount path once however a case-insensitive app’s clients spell it, so they cannot fill the list', () => {
    const paths = new MountPaths();
    for (const spelled of ['/V1', '/v1', '/Api', '/aPI', '/API', '/api', '/V1', '/aPi', '/v1', '/api']) {
      paths.note(request({ url: '/x', originalUrl: `${spelled}/x`, baseUrl: spelled }));
    }
    expect(spellings(paths)).to.deep.equal(['/Api', '/V1']);
    expect(splitAtMountPath('/v1/chat', paths.known)).to.deep.equal({ mountPath: '/v1', below: '/chat' });
    expect(splitAtMountPath('/API', paths.known)).to.deep.equal({ mountPath: '/API', below: '/' });
    expect(splitAtMountPath('/v1chat', paths.known)).to.equal(undefined);
  });

  it('keeps each spelling apart, and matches it exactly, where the app routes case-sensitively', () => {
    const paths = new MountPaths();
    paths.note(caseSensitiveApp({ url: '/x', originalUrl: '/v1/x', baseUrl: '/v1' }));
    expect(paths.known).to.deep.equal([{ path: '/v1', caseSensitive: true }]);
    expect(splitAtMountPath('/V1/chat', paths.known)).to.equal(undefined);
    expect(splitAtMountPath('/v1/chat', paths.known)).to.deep.equal({ mountPath: '/v1', below: '/chat' });
    paths.note(caseSensitiveApp({ url: '/x', originalUrl: '/V1/x', baseUrl: '/V1' }));
    expect(spellings(paths)).to.deep.equal(['/v1', '/V1']);
  });
});
