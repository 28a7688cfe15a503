/**
 * express-middleware: `expressMiddleware(...handlers)`, the app's Express/Connect middleware in a
 * folder's `middleware.ts`, run with the route's Node `req` and `res`; and how the mount tells it apart,
 * to refuse it where there are none (`.fetch`, Bun, Deno).
 */
export {
  expressMiddleware,
  expressMiddlewareAroundSocket,
  expressMiddlewareRefused,
  isExpressMiddleware,
  type ExpressHandler,
  type ExpressHandlers,
} from './express-middleware';
