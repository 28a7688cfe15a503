/**
 * topics: publish and subscribe across a mount's sockets and streams, and across processes through
 * a backplane. The hub (who subscribes to what, the fan-out), a stream's subscription, and the
 * backplanes that need no broker: a node:cluster's IPC and a BroadcastChannel. The Redis backplane,
 * which loads its client package, is a floor up (src/redis-backplane).
 */
export { TopicHub, DEFAULT_BACKPRESSURE_LIMIT, type Subscriber, type TopicErrorReporter } from './topic-hub';
export { TopicStream, SlowSubscriberError } from './topic-stream';
export { Publication, checkTopic } from './publication';
export { clusterBackplane, setupClusterPrimary, type ClusterBackplaneOptions } from './cluster-backplane';
export {
  broadcastChannelBackplane,
  type BroadcastChannelBackplaneOptions,
} from './broadcast-channel-backplane';
