/**
 * migrate: an Express app's routes, found statically from its entry, planned as endpoint files (handlers
 * rewritten as Responses where the command can, moved as they are through expressMiddleware where it cannot),
 * and written, with the moved routes deleted from their routers.
 */
export { planDiff, planMigration, writePlan, type MigrateOptions, type MovedRoute, type Plan } from './plan';
export { parseExpressPath, folderPath, type PathSegment } from './express-path';
export { findRoutes, type FoundRoute, type LeftRoute } from './find-routes';
export { rewriteHandler, sendValueFunction, type RewriteOptions, type Rewritten } from './rewrite-handler';
