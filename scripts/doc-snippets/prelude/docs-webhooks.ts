/**
 * docs/webhooks.md's fragments: the frameworks' own names, as much of their types as the page's
 * lines use (a Hono app, Bun's and Deno's `serve`), and the options the page passes.
 */
import type { WebhookHandlerOptions } from 'applicant-verification';

/** A Hono application: `app.post(path, (c) => Response)`, `c.req.raw` the web Request. */
export declare const app: {
  post(path: string, handler: (c: { req: { raw: Request } }) => Response | Promise<Response>): void;
};
/** The secret and the event handler the page's adapters take. */
export declare const secret: string;
export declare const onEvent: WebhookHandlerOptions<Request>['onEvent'];
/** Bun's server. */
export declare const Bun: {
  serve(options: { fetch(request: Request): Response | Promise<Response> }): unknown;
};
/** Deno's server. */
export declare const Deno: { serve(handler: (request: Request) => Response | Promise<Response>): unknown };
