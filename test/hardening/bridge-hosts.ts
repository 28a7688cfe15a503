/**
 * The hosts bridgeMiddleware is tried on here: the middleware suite's Express 5, Express 4 and
 * Connect, and a bare node:http server with the smallest chain such an app might write.
 */
import http from 'node:http';
import {
  hosts as chainHosts,
  type Layer,
  type Next,
  type Req,
  type Res,
  type RunningChain,
} from '../middleware/chain-hosts';
import { listen } from '../support/net';

export interface BridgeHost {
  name: string;
  start(layers: Layer[]): Promise<RunningChain>;
}

const nodeHost: BridgeHost = {
  name: 'node:http',
  start(layers) {
    const server = http.createServer((req: Req, res: Res) => {
      let index = 0;
      const next: Next = (error) => {
        const layer = layers[index++];
        if (!layer) {
          res.statusCode = error === undefined ? 404 : 500;
          res.end();
          return;
        }
        if ('onError' in layer) return error === undefined ? next() : layer.onError(error, req, res, next);
        if (error !== undefined) return next(error);
        if ('route' in layer) {
          const path = (req.url ?? '/').split('?')[0];
          const method = layer.method ?? 'GET';
          if (path !== layer.route || (req.method !== method && !(method === 'GET' && req.method === 'HEAD')))
            return next();
          return void Promise.resolve(layer.handle(req, res, next)).catch(next);
        }
        try {
          void layer.use(req, res, next);
        } catch (thrown) {
          next(thrown);
        }
      };
      next();
    });
    return listen(server);
  },
};

export const bridgeHosts: BridgeHost[] = [...chainHosts, nodeHost];
