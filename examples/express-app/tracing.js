/**
 * Tracing for the example, on with TRACING=1: the OpenTelemetry SDK with the HTTP and Express
 * instrumentations, printing each finished span to the console, one line per span:
 *
 *   span 4bf92f35 server    GET /api/users/:id         200   2.1 ms  http.route=/api/users/:id
 *
 * server.js loads this before Express: instrumentations patch modules as they are required. The
 * OpenTelemetry packages are development dependencies of this repository; an app that lacks them
 * runs untraced, with a warning. express-file-endpoints itself needs none of them.
 */
'use strict';

const PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/instrumentation',
  '@opentelemetry/instrumentation-http',
  '@opentelemetry/instrumentation-express',
];

const KINDS = ['internal', 'server', 'client', 'producer', 'consumer'];

/** Prints finished spans, one line each (the SDK's ConsoleSpanExporter prints whole objects). */
const lineExporter = {
  export(spans, done) {
    for (const span of spans) {
      const { attributes } = span;
      const ms = span.duration[0] * 1e3 + span.duration[1] / 1e6;
      const status = attributes['http.response.status_code'] ?? '';
      const route = attributes['http.route'] === undefined ? '' : `  http.route=${attributes['http.route']}`;
      const error = span.status.code === 2 ? `  error: ${span.status.message ?? ''}` : '';
      console.log(
        `span ${span.spanContext().traceId.slice(0, 8)} ${KINDS[span.kind].padEnd(8)} ` +
          `${span.name.padEnd(34)} ${String(status).padEnd(3)} ${ms.toFixed(1).padStart(6)} ms${route}${error}`,
      );
    }
    done({ code: 0 }); // ExportResultCode.SUCCESS
  },
  shutdown: () => Promise.resolve(),
};

/** Starts tracing; `false` (with a warning) when the OpenTelemetry packages are not installed. */
function startTracing() {
  let sdk;
  try {
    sdk = {
      node: require('@opentelemetry/sdk-trace-node'),
      instrumentation: require('@opentelemetry/instrumentation'),
      http: require('@opentelemetry/instrumentation-http'),
      express: require('@opentelemetry/instrumentation-express'),
    };
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND') throw error;
    console.warn(`TRACING=1: the OpenTelemetry packages are not installed; running without tracing.
Install them with: npm install ${PACKAGES.join(' ')}`);
    return false;
  }
  const { NodeTracerProvider, SimpleSpanProcessor } = sdk.node;
  new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(lineExporter)] }).register();
  sdk.instrumentation.registerInstrumentations({
    instrumentations: [new sdk.http.HttpInstrumentation(), new sdk.express.ExpressInstrumentation()],
  });
  return true;
}

module.exports = { startTracing };
