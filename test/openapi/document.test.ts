/**
 * The OpenAPI document of a tree that uses every convention — `[id]`, `[[...slug]]`,
 * `[...path]`, a group, `ANY`, `default`, `QUERY`, SSE, Zod, Valibot and ArkType contracts, and
 * endpoints without one — checked by a real OpenAPI validator, for 3.1 and for 3.2.
 * The validator, and why it is that one: test/support/openapi-validator.ts.
 */
import { expect } from 'chai';
import { z } from 'zod';
import path from 'node:path';
import { mountEndpoints } from '../../src';
import type { OpenAPIDocument, OpenAPIVersion } from '../../src';
import { validate } from '../support/openapi-validator';

const DIR = path.join(__dirname, '../fixtures/openapi-app/app');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is read field by field
type Json = { [key: string]: any };

async function documentOf(version: OpenAPIVersion, warnings: string[] = []): Promise<Json> {
  const endpoints = mountEndpoints({ dir: DIR });
  return (await endpoints.openapi({
    version,
    info: { title: 'Every convention', version: '1.2.3' },
    onWarning: (message) => warnings.push(message),
  })) as Json;
}

describe('OpenAPI document of a tree with every convention', () => {
  for (const version of ['3.1', '3.2'] as const) {
    it(`is a valid OpenAPI ${version} document`, async () => {
      const document = await documentOf(version);
      expect(document.openapi).to.match(new RegExp(`^${version.replace('.', '\\.')}\\.\\d+$`));
      await validate(document as OpenAPIDocument);
    });
  }

  it('lists every endpoint in OpenAPI path syntax, groups collapsed, an optional catch-all on two paths', async () => {
    const document = await documentOf('3.1');
    expect(Object.keys(document.paths).sort()).to.deep.equal(
      [
        '/anything',
        '/api/users',
        '/api/users/{id}',
        '/contact',
        '/docs',
        '/docs/{slug}',
        '/events',
        '/files/{path}',
        '/legacy',
        '/plain',
        '/search',
        '/stats',
        '/uploads',
        '/avatars',
      ].sort(),
    );
  });

  it('documents an upload as a multipart/form-data body, its files as binary strings of their media types', async () => {
    const { paths, components } = await documentOf('3.1');
    const upload = paths['/uploads'].post.requestBody;
    expect(Object.keys(upload.content)).to.deep.equal(['multipart/form-data']);
    const schema = upload.content['multipart/form-data'].schema as Json;
    const resolved = schema.$ref ? components.schemas[String(schema.$ref).split('/').pop()!] : schema;
    expect(resolved.properties.title).to.deep.equal({ type: 'string' });
    expect(resolved.properties.photos.items).to.include({ type: 'string', format: 'binary' });
    expect(JSON.stringify(resolved.properties.photos.items)).to.include('"contentMediaType":"image/png"');
    // A body schema with a file in it is a form even where the contract does not say `multipart`.
    expect(Object.keys(paths['/avatars'].put.requestBody.content)).to.deep.equal(['multipart/form-data']);
    // JSON bodies stay JSON.
    expect(Object.keys(paths['/api/users'].post.requestBody.content)).to.deep.equal(['application/json']);
  });

  it('documents path params: from the contract, and a catch-all as one string spanning segments', async () => {
    const { paths } = await documentOf('3.1');
    expect(paths['/api/users/{id}'].get.parameters).to.deep.equal([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^\\d+$' } },
    ]);
    const [slug] = paths['/docs/{slug}'].get.parameters;
    expect(slug).to.include({ name: 'slug', in: 'path', required: true });
    expect(slug.schema).to.deep.equal({ type: 'string' });
    expect(paths['/docs'].get.parameters).to.equal(undefined);
  });

  it('documents query and header parameters from their schemas (accept/content-type/authorization left out)', async () => {
    const { paths } = await documentOf('3.1');
    const list = paths['/api/users'].get;
    expect(list.parameters.map((p: Json) => [p.name, p.in, p.required])).to.deep.equal([
      ['limit', 'query', false],
      ['tag', 'query', false],
    ]);
    expect(list.parameters[1].schema).to.deep.equal({ type: 'array', items: { type: 'string' } });
    expect(paths['/api/users'].post.parameters.map((p: Json) => [p.name, p.in])).to.deep.equal([
      ['x-request-id', 'header'],
    ]);
  });

  it('uses input schemas for request bodies, output schemas for responses, a shared schema as a component', async () => {
    const { paths, components } = await documentOf('3.1');
    const create = paths['/api/users'].post;
    expect(create.requestBody.required).to.equal(true);
    expect(create.requestBody.content['application/json'].schema.required).to.deep.equal(['name', 'email']);
    expect(create.responses['201'].content['application/json'].schema).to.deep.equal({
      $ref: '#/components/schemas/User',
    });
    expect(paths['/api/users/{id}'].get.responses['200'].content['application/json'].schema).to.deep.equal({
      $ref: '#/components/schemas/User',
    });
    const list = paths['/api/users'].get.responses['200'].content['application/json'].schema;
    expect(list.properties.users.items).to.deep.equal({ $ref: '#/components/schemas/User' });
    expect(components.schemas.User.required).to.deep.equal(['id', 'name', 'email']);
    expect(JSON.stringify({ paths, components })).to.not.include('$defs');
    expect(JSON.stringify({ paths, components })).to.not.include('$schema');
  });

  it('documents the problem details a contract answers an invalid request with', async () => {
    const { paths, components } = await documentOf('3.1');
    const create = paths['/api/users'].post;
    expect(create.responses['400'].content['application/problem+json'].schema).to.deep.equal({
      $ref: '#/components/schemas/ProblemDetails',
    });
    expect(create.responses).to.have.property('415');
    expect(components.schemas.ProblemDetails.properties.issues.type).to.equal('array');
    expect(paths['/api/users/{id}'].delete.responses['204']).to.deep.equal({ description: 'No Content' });
  });

  it('carries the contract’s summary, description, tags, deprecated and operationId', async () => {
    const { paths } = await documentOf('3.1');
    expect(paths['/api/users'].get).to.include({ summary: 'List users', operationId: 'listUsers' });
    expect(paths['/api/users'].get.tags).to.deep.equal(['users']);
    expect(paths['/api/users/{id}'].get.description).to.equal('One user, by id.');
    expect(paths['/api/users/{id}'].patch).to.include({ deprecated: true, operationId: 'updateUser' });
  });

  it('lists ANY and default for each method a client calls, operationIds kept unique', async () => {
    const { paths } = await documentOf('3.1');
    expect(Object.keys(paths['/anything'])).to.deep.equal(['get', 'post', 'put', 'patch', 'delete']);
    expect(paths['/anything'].post.operationId).to.equal('anything_post');
    expect(
      paths['/anything'].get.responses['200'].content['application/json'].schema.properties.method,
    ).to.deep.equal({
      type: 'string',
    });
    expect(Object.keys(paths['/files/{path}'])).to.deep.equal(['get', 'post', 'put', 'patch', 'delete']);
    expect(paths['/files/{path}'].get.responses).to.deep.equal({
      default: { description: 'The endpoint’s response' },
    });
  });

  it('documents an endpoint without a contract with its methods, leaving out the GET a page serves', async () => {
    const { paths } = await documentOf('3.1');
    expect(Object.keys(paths['/plain'])).to.deep.equal(['get', 'put']);
    expect(Object.keys(paths['/contact'])).to.deep.equal(['post']);
  });

  it('QUERY is 3.2’s query operation, and an x-query extension in 3.1', async () => {
    const v31 = await documentOf('3.1');
    const v32 = await documentOf('3.2');
    expect(v32.paths['/search'].query.summary).to.equal('Search users');
    expect(v32.paths['/search'].query.requestBody.content['application/json'].schema.required).to.deep.equal([
      'text',
    ]);
    expect(v31.paths['/search']).to.not.have.property('query');
    expect(v31.paths['/search']['x-query']).to.deep.equal(v32.paths['/search'].query);
  });

  it('documents a text/event-stream with 3.2’s itemSchema', async () => {
    const v32 = await documentOf('3.2');
    const stream = v32.paths['/events'].get.responses['200'].content['text/event-stream'];
    expect(stream.itemSchema.properties.data.contentSchema).to.deep.equal({
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
      additionalProperties: false,
    });
    const v31 = await documentOf('3.1');
    expect(v31.paths['/events'].get.responses['200'].content['text/event-stream'].schema).to.deep.equal({
      type: 'string',
    });
  });

  it('gives an open schema and a warning naming the file for a validator without JSON Schema', async () => {
    const warnings: string[] = [];
    const { paths } = await documentOf('3.1', warnings);
    expect(paths['/legacy'].post.requestBody.content['application/json'].schema).to.deep.equal({});
    expect(paths['/legacy'].put.responses['200'].content['application/json'].schema).to.deep.equal({});
    expect(warnings).to.have.length(2);
    expect(warnings[0]).to.match(
      /^test\/fixtures\/openapi-app\/app\/legacy\/endpoint\.ts: POST body is documented as an open schema: its validator \(valibot\) does not implement Standard JSON Schema/,
    );
    expect(warnings[1]).to.match(
      /^test\/fixtures\/openapi-app\/app\/legacy\/endpoint\.ts: PUT responses\[200\] is documented as an open schema: zod cannot describe it as JSON Schema: /,
    );
  });

  it('rejects a version it cannot write, with a clear message', async () => {
    const endpoints = mountEndpoints({ dir: DIR });
    let error: unknown;
    await endpoints.openapi({ version: '3.0' as never }).catch((caught: unknown) => (error = caught));
    expect(error).to.be.instanceOf(TypeError);
    expect((error as Error).message).to.equal('OpenAPI version must be "3.1" or "3.2", not "3.0"');
  });

  it('takes info and servers from options', async () => {
    const endpoints = mountEndpoints({ dir: DIR });
    const document = await endpoints.openapi({
      info: { title: 'T', version: '9' },
      servers: [{ url: 'https://api.example.com/v1' }],
      onWarning: () => {},
    });
    expect(document.info).to.deep.equal({ title: 'T', version: '9' });
    expect(document.servers).to.deep.equal([{ url: 'https://api.example.com/v1' }]);
    await validate(document);
  });
});

describe('OpenAPI: $ref names a schema library writes', () => {
  it('a name with a bare % is taken as written, not a failed document', async () => {
    const { generateOpenAPI } = await import('../../src/openapi');
    const { defineHandler } = await import('../../src');
    const { describeRouteFile } = await import('../../src/discover');
    const jsonSchema = {
      $defs: { 'rate%': { type: 'number' } },
      type: 'object',
      properties: { rate: { $ref: '#/$defs/rate%' } },
    };
    const schema = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
      },
    };
    const root = path.join(__dirname, 'no-such-tree');
    const file = { ...describeRouteFile(root, 'endpoint.ts', process.cwd()), exports: undefined };
    const POST = defineHandler({ body: schema as never }, () => new Response());
    const { document } = generateOpenAPI({ root, files: [file] }, new Map([[file.file, { POST }]]));
    expect(JSON.stringify(document)).to.include('"$ref":"#/components/schemas/');
    expect(JSON.stringify(document)).to.not.include('$defs');
  });
});

describe('OpenAPI: a recursive schema', () => {
  it('becomes a component that refers to itself, and the document validates', async () => {
    const { generateOpenAPI } = await import('../../src/openapi');
    const { defineHandler } = await import('../../src');
    const { describeRouteFile } = await import('../../src/discover');
    const Category = z.object({
      name: z.string(),
      get children(): z.ZodArray<typeof Category> {
        return z.array(Category);
      },
    });
    const root = path.join(__dirname, 'no-such-tree');
    const file = { ...describeRouteFile(root, 'endpoint.ts', process.cwd()), exports: undefined };
    const POST = defineHandler({ body: Category }, () => new Response());
    const { document } = generateOpenAPI({ root, files: [file] }, new Map([[file.file, { POST }]]));
    const text = JSON.stringify(document);
    expect(text).to.not.include('"$ref":"#"');
    type Post = { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } };
    const body = (document.paths['/'] as Post).post.requestBody;
    const ref = body.content['application/json'].schema.$ref;
    expect(ref).to.match(/^#\/components\/schemas\//);
    const component = document.components!.schemas![ref.split('/').pop()!] as {
      properties: { children: { items: { $ref: string } } };
    };
    expect(component.properties.children.items.$ref).to.equal(ref);
    await validate(document as OpenAPIDocument);
  });
});

describe('OpenAPI: statuses without content', () => {
  it('204, 205 and 304 are documented without content, whatever schema the contract gives', async () => {
    const { generateOpenAPI } = await import('../../src/openapi');
    const { defineHandler } = await import('../../src');
    const { describeRouteFile } = await import('../../src/discover');
    const root = path.join(__dirname, 'no-such-tree');
    const file = { ...describeRouteFile(root, 'endpoint.ts', process.cwd()), exports: undefined };
    const responses = { 204: z.object({}), 205: z.object({}), 304: z.object({}) };
    const POST = defineHandler({ responses }, () => new Response(null, { status: 204 }));
    const { document } = generateOpenAPI({ root, files: [file] }, new Map([[file.file, { POST }]]));
    const documented = (document.paths['/'] as { post: { responses: Record<string, object> } }).post
      .responses;
    for (const status of ['204', '205', '304'])
      expect(documented[status], status).to.not.have.property('content');
  });
});
