// The fan-out benchmark's tree: every socket on /feed subscribes to the `feed` topic.
import type { WebSocketHandler } from '../../../../src/index';

export const websocket: WebSocketHandler = {
  open(socket) {
    socket.subscribe('feed');
  },
};
