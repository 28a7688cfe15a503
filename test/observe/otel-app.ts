/**
 * A child process of opentelemetry.test.ts: registers the OpenTelemetry SDK with the HTTP and
 * Express instrumentations first, as an app's `--require ./tracing.js` would, then starts a host
 * (argv[2]: `{ host, prefix? }`), sends it each request of argv[3] and prints, as one JSON line,
 * the server span each request produced and the `http.route`s of the request-duration metric.
 */
import {
  InstrumentationNodeModuleDefinition,
  registerInstrumentations,
} from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-node';

/**
 * This repository installs Express 4 under the npm alias `express4`, which the Express
 * instrumentation does not know by that name: the same patches, for the alias. An app's Express 4
 * is `express`, patched by the instrumentation as it is.
 */
class Express4AliasInstrumentation extends ExpressInstrumentation {
  override init() {
    return super
      .init()
      .map(
        (definition) =>
          new InstrumentationNodeModuleDefinition(
            'express4',
            definition.supportedVersions,
            definition.patch,
            definition.unpatch,
          ),
      );
  }
}

/** Metrics on demand: `collect()` when the requests are done. */
class OnDemandReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const reader = new OnDemandReader();
new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
registerInstrumentations({
  meterProvider: new MeterProvider({ readers: [reader] }),
  instrumentations: [
    new HttpInstrumentation(),
    new ExpressInstrumentation(),
    new Express4AliasInstrumentation(),
  ],
});

export interface ProbeRequest {
  path: string;
  method?: string;
  headers?: Record<string, string>;
}

export interface Observed {
  spans: ServerSpan[];
  /** `http.route` of each data point of `http.server.request.duration`, in the order first seen. */
  metricRoutes: unknown[];
}

export interface ServerSpan {
  status: number;
  name: string;
  route: unknown;
  /** SpanStatusCode: 0 unset, 1 ok, 2 error. */
  code: number;
  exceptions: unknown[];
  durationMs: number;
}

const SERVER = 1; // SpanKind.SERVER

async function main(): Promise<void> {
  // Required only now, so the instrumentations see express and node:http loaded.
  const { startHost } = require('./hosts') as typeof import('./hosts');
  const options = JSON.parse(process.argv[2]!) as { host: import('./hosts').HostName; prefix?: string };
  const requests = JSON.parse(process.argv[3]!) as ProbeRequest[];
  const host = await startHost(options.host, { prefix: options.prefix });
  const results: ServerSpan[] = [];
  for (const probe of requests) {
    const before = serverSpans().length;
    const response = await fetch(host.url + probe.path, { method: probe.method, headers: probe.headers });
    // A body that fails mid-stream breaks the connection: the status is what counts here.
    await response.arrayBuffer().catch(() => {});
    const span = await nextSpan(before);
    results.push({
      status: response.status,
      name: span.name,
      route: span.attributes['http.route'],
      code: span.status.code,
      exceptions: span.events
        .filter((e) => e.name === 'exception')
        .map((e) => e.attributes?.['exception.message']),
      durationMs: span.duration[0] * 1e3 + span.duration[1] / 1e6,
    });
  }
  await host.close();
  const observed: Observed = { spans: results, metricRoutes: await metricRoutes() };
  console.log(JSON.stringify(observed));
}

async function metricRoutes(): Promise<unknown[]> {
  const { resourceMetrics } = await reader.collect();
  const duration = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((metric) => metric.descriptor.name === 'http.server.request.duration');
  return (duration?.dataPoints ?? []).map((point) => point.attributes['http.route']);
}

function serverSpans(): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.kind === SERVER);
}

async function nextSpan(before: number): Promise<ReadableSpan> {
  for (let i = 0; i < 300; i++) {
    const spans = serverSpans();
    if (spans.length > before) return spans[before]!;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no server span');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
