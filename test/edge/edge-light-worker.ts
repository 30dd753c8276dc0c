/**
 * The test:edge app for Vercel's edge-runtime, which runs a script answering `fetch` events; the
 * host puts the mock's URL and credentials on the global scope (edge-runtime's `extend`).
 */
import { type EdgeEnv, handle } from './worker-app.js';

interface FetchEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}

// The script's globals, as edge-runtime provides them.
declare const addEventListener: (type: 'fetch', listener: (event: FetchEvent) => void) => void;
declare const EDGE_ENV: EdgeEnv;

addEventListener('fetch', (event) => event.respondWith(handle(event.request, EDGE_ENV)));
