/**
 * Public types, by feature, under one face: what users write (handlers, middleware, hooks) and the
 * options they pass. Handlers only need the global `Request`/`Response`; these types are for those who
 * want them. This folder is the bottom floor of the library: it imports nothing of it, so every folder
 * can use its words.
 */
export type {
  Params,
  ParamsOf,
  NodeContext,
  Locals,
  EndpointContext,
  EndpointContextInit,
  EndpointHandler,
  WebMiddleware,
} from './handlers';
export type { EndpointErrorInfo, ErrorReporter } from './errors';
export type { ContractLocation, ContractSummary, ContractIssue, InvalidInputHandler } from './contracts';
export type { EndpointsManifest, MountOptions } from './mount';
export type {
  MultipartContract,
  MultipartLimits,
  MultipartLimitsInput,
  MultipartFormOptions,
} from './multipart';
export type { DevOptions, DevLogger, DevProblem, DevReload } from './dev';
export type {
  WebSocketHandler,
  WebSocketContext,
  EndpointWebSocket,
  WebSocketCloseDetails,
} from './websockets';
export type {
  OpenAPIVersion,
  OpenAPIInfo,
  OpenAPIServer,
  OpenAPIOptions,
  ServeOpenAPIOptions,
} from './openapi';
export type {
  TopicRegistry,
  TopicNameOf,
  Topic,
  TopicDataOf,
  PublishTopic,
  SubscribeTopics,
  TopicSubscribeOptions,
  TopicMessage,
  TopicSubscription,
  TopicEventStreamOptions,
  TopicsOptions,
  BackplaneMessage,
  BackplaneLink,
  Backplane,
  TopicStats,
} from './topics';
export type { CacheEntry, CacheOptions, CacheSettings, CacheStore } from './cache';
