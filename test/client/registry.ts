/**
 * The registry the client tests are typed from: what `express-file-endpoints typegen` writes for
 * test/fixtures/openapi-app (client.test.ts checks that it is the same), as a plain interface rather than an
 * augmentation of `RouteRegistry`, which test/types/route-registry.d.ts already fills for another tree.
 */
import type { EndpointMethods } from '../../src';

export interface Api {
  '/anything': {
    params: Record<string, never>;
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/anything/endpoint.js')>;
  };
  '/api/users': {
    params: Record<string, never>;
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/api/users/endpoint.js')>;
  };
  '/api/users/[id]': {
    params: { id: string };
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/api/users/[id]/endpoint.js')>;
  };
  '/avatars': {
    params: Record<string, never>;
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/avatars/endpoint.js')>;
  };
  '/contact': {
    params: Record<string, never>;
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/contact/endpoint.js')>;
  };
  '/docs/[[...slug]]': {
    params: { slug?: string[] };
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/docs/[[...slug]]/endpoint.js')>;
  };
  '/events': {
    params: Record<string, never>;
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/events/endpoint.js')>;
  };
  '/files/[...path]': {
    params: { path: string[] };
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/files/[...path]/endpoint.js')>;
  };
  '/legacy': {
    params: Record<string, never>;
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/legacy/endpoint.js')>;
  };
  '/plain': {
    params: Record<string, never>;
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/plain/endpoint.js')>;
  };
  '/search': {
    params: Record<string, never>;
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/search/endpoint.js')>;
  };
  '/stats': {
    params: Record<string, never>;
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/(admin)/stats/endpoint.js')>;
  };
  '/uploads': {
    params: Record<string, never>;
    methods: EndpointMethods<typeof import('../fixtures/openapi-app/app/uploads/endpoint.js')>;
  };
}
