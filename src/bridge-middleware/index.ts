/**
 * bridge-middleware: `bridgeMiddleware(mw)`, a `(req: Request, next) => Response` middleware in
 * front of an Express or Connect app. It captures what the app's chain writes as next()'s Response
 * (response-capture.ts, with node-head.ts and cork-marks.ts) and, when the middleware returns that
 * Response or a copy of it, replays it as Node would have sent it (replay-response.ts).
 */
export { bridgeMiddleware, type BridgeOptions } from './bridge-middleware';
