/**
 * The console's routes under `/__mock/`: the page and its two assets (served only when the console
 * is on), and the two reads the page needs that the control API did not have: the snapshot and
 * a redirect to a fresh PDF link. Actions go through the control API's own routes.
 */
import type { MockControls } from '../controls/mock-controls.js';
import type { Route } from '../server/pipeline.js';
import { errorResponse, jsonResponse } from '../server/responses.js';
import { CONSOLE_CSS } from './page-css.js';
import { CONSOLE_HTML } from './page-html.js';
import { CONSOLE_JS } from './page-script.js';
import { takeSnapshot } from './snapshot.js';

/** Path of the console page. */
export const CONSOLE_PATH = '/__mock/console';

/**
 * What the page may load: its own script and stylesheet, its own origin's API, nothing from
 * elsewhere; no inline script, so a value that slipped into markup could not run either.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const asset = (body: string, type: string): Response =>
  new Response(body, {
    headers: {
      'content-type': `${type}; charset=utf-8`,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
  });

/** What the console's routes read: the controls, and the minting of a report's PDF link. */
export interface ConsoleSource {
  /** The mock's controls. */
  controls: MockControls;
  /** A fresh signed PDF link of a report, or `undefined` for an unknown id. */
  pdfUrl(reportId: string): string | undefined;
  /** Whether the page itself is served (`console: true`). */
  serve: boolean;
}

/** The console's routes; put them before the control API's catch-all. */
export function consoleRoutes(source: ConsoleSource): Route[] {
  const page = (body: string, type: string) => () =>
    source.serve
      ? asset(body, type)
      : errorResponse(
          404,
          'The console is off: pass console: true to createMockServer, or start the bin on a loopback host or with --console',
        );
  return [
    { method: 'GET', pattern: CONSOLE_PATH, target: page(CONSOLE_HTML, 'text/html') },
    { method: 'GET', pattern: `${CONSOLE_PATH}/console.js`, target: page(CONSOLE_JS, 'text/javascript') },
    { method: 'GET', pattern: `${CONSOLE_PATH}/console.css`, target: page(CONSOLE_CSS, 'text/css') },
    { method: 'GET', pattern: '/__mock/snapshot', target: () => jsonResponse(takeSnapshot(source.controls)) },
    {
      method: 'GET',
      pattern: '/__mock/reports/:id/pdf',
      target: ({ params }) => {
        const id = params.id ?? '';
        const url = source.pdfUrl(id);
        if (url === undefined) return errorResponse(404, `No report with id ${id}`);
        return new Response(null, { status: 302, headers: { location: url, 'cache-control': 'no-store' } });
      },
    },
  ];
}
