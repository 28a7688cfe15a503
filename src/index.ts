/** express-file-endpoints: file-based, Web-standard endpoint handlers for Express, Connect and node:http. */
// First: the bundle evaluates modules in this order, and this one checks for the Fetch API's globals as it is
// evaluated, before any module below needs a Web global at load (see fetch-globals.ts). Its name is used
// below, so a bundler keeps the import where it is although the package is marked free of side effects.
import { assertFetchGlobals } from './fetch-globals';
export { mountEndpoints } from './mount';
export { DEFAULT_BODY_LIMIT, BodyLimitError, type NodeMiddleware } from './bridge';
export { bridgeMiddleware, type BridgeOptions } from './bridge-middleware';
export { expressMiddleware, type ExpressHandler, type ExpressHandlers } from './express-middleware';
export type { EndpointsMiddleware, AppLike } from './mount';
export type { RouteInfo } from './describe-routes';
export { defineMiddleware, getContext, ShutdownError } from './dispatch';
export { eventStream } from './event-stream';
export type { EventMessage, EventStream, EventStreamOptions } from './event-stream';
export type { HttpMethod, HandlerExportName } from './http-methods';
export type { CloseOptions, LocalsOf, MiddlewareContext, MiddlewareWithLocals } from './dispatch';
export { defineHandler, EventContractError, ResponseContractError } from './define-handler';
export type {
  EndpointContract,
  ContractContext,
  ContractEventStream,
  ContractHandler,
  ContractOf,
  ContractTypes,
  StandardSchemaV1,
  StandardJSONSchemaV1,
  OperationDescription,
} from './contract';
export { EndpointValidationError } from './validate';
export { EndpointLoadError } from './load';
export type { Problem } from './validate';
export type {
  Params,
  ParamsOf,
  NodeContext,
  Locals,
  EndpointContext,
  EndpointContextInit,
  EndpointHandler,
  WebMiddleware,
  MountOptions,
  EndpointsManifest,
  ContractIssue,
  ContractSummary,
  ContractLocation,
  InvalidInputHandler,
  EndpointErrorInfo,
  ErrorReporter,
  DevOptions,
  DevLogger,
  DevProblem,
  DevReload,
} from './types';
export { url } from './typed-routes';
export type {
  RouteRegistry,
  RoutePattern,
  RouteParams,
  RouteContext,
  RouteLocals,
  WebSocketRouteRegistry,
  WebSocketRoute,
  TopicsOf,
} from './typed-routes';
export type { EndpointMethods, HandlerTypes } from './typed-routes';
export type { TestRequestOptions } from './testing';
export type { MiddlewareTraceContext, RequestTraceContext } from './observe';
export { mergeOpenAPI, type MergeOpenAPIOptions } from './openapi';
export { jsonBody, type JsonBodyOptions } from './body';
export { sendFile, serveStatic, FileError } from './files';
export { csrf, CrossSiteRequestError, type CsrfOptions } from './csrf';
export { memoryCache, type MemoryCacheOptions } from './cache';
export { multipart, saveFile, MultipartError, DEFAULT_LIMITS as MULTIPART_LIMITS } from './multipart';
export type { MultipartOptions, MultipartLimits, Part, SaveFileOptions, SavedFile } from './multipart';
export type { FileOptions, SendFileOptions, ServeStaticOptions, StaticContext, StaticHandler } from './files';
export type { OpenAPIDocument } from './openapi';
export type {
  OpenAPIInfo,
  OpenAPIOptions,
  OpenAPIServer,
  OpenAPIVersion,
  ServeOpenAPIOptions,
} from './types';
export type { WebSocketHandler, WebSocketContext, EndpointWebSocket, WebSocketCloseDetails } from './types';
export type { CacheEntry, CacheOptions, CacheSettings, CacheStore } from './types';
export {
  broadcastChannelBackplane,
  clusterBackplane,
  setupClusterPrimary,
  SlowSubscriberError,
  type BroadcastChannelBackplaneOptions,
  type ClusterBackplaneOptions,
} from './topics';
export type {
  Backplane,
  BackplaneLink,
  BackplaneMessage,
  PublishTopic,
  SubscribeTopics,
  Topic,
  TopicDataOf,
  TopicMessage,
  TopicNameOf,
  TopicRegistry,
  TopicStats,
  TopicSubscribeOptions,
  TopicSubscription,
  TopicsOptions,
} from './types';
export {
  redisBackplane,
  redisCache,
  type RedisBackplaneOptions,
  type RedisCacheOptions,
  type RedisCacheStore,
  type RedisClientLike,
} from './redis-backplane';
export type { DeliverTraceContext, DropMessage, PublishTraceContext } from './observe';
export type { AttachOptions } from './websocket';

// Checked already, as fetch-globals.ts was evaluated; this use is what keeps that import first.
assertFetchGlobals();
