/** The test:edge app as a Cloudflare Worker (ES module syntax), for workerd. */
import { type EdgeEnv, handle } from './worker-app.js';

export default {
  fetch: (request: Request, env: EdgeEnv): Promise<Response> => handle(request, env),
};
