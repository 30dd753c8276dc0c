/**
 * The app test:edge runs inside workerd and Vercel's edge-runtime: the quick start (create, list,
 * reports, PDF) and a webhook receiver, on the package's edge entry (resolved through the
 * `workerd` / `edge-light` export conditions) against the mock served from Node. The driver
 * (test/edge/run.ts) calls its routes and plays the applicants on the mock in between. No Node
 * API is used here: these runtimes have none.
 */
import {
  isIncomeReport,
  RequestValidationError,
  signWebhook,
  VerificationClient,
  type WebhookEvent,
  webhookHandler,
} from 'applicant-verification';
import { engineHouseBody } from '../support/bodies.js';

/** What the host passes the app: the mock's URL and the client credentials it issued. */
export interface EdgeEnv {
  MOCK_URL: string;
  CLIENT_ID: string;
  SECRET_KEY: string;
}

const received: WebhookEvent[] = [];
let client: VerificationClient | undefined;
let receive: ((request: Request) => Promise<Response>) | undefined;

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

/** The webhook tests' household (test/support/bodies.ts), under `correlationId`. */
function household(webhookUrl: string, correlationId: string) {
  return { ...engineHouseBody(webhookUrl), correlation_id: correlationId };
}

async function route(request: Request, env: EdgeEnv, api: VerificationClient): Promise<Response> {
  const url = new URL(request.url);
  switch (`${request.method} ${url.pathname}`) {
    case 'GET /runtime':
      return json({
        userAgent: (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent ?? null,
        edgeRuntime: (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime ?? null,
        nodeBuiltins:
          typeof (globalThis as { process?: { getBuiltinModule?: unknown } }).process?.getBuiltinModule ===
          'function',
        baseURL: api.baseURL,
      });
    case 'POST /create': {
      const correlationId = url.searchParams.get('correlation_id') ?? 'edge';
      const group = await api.applicantGroups.create(household(`${url.origin}/webhooks`, correlationId));
      const found = await api.applicantGroups.findByCorrelationId(correlationId);
      const page = await api.applicantGroups.list();
      return json({
        id: group.id,
        status: group.status,
        applicants: group.applicants.map((applicant) => applicant.id),
        foundByCorrelationId: found?.id === group.id,
        listed: page.items.some((item) => item.id === group.id),
      });
    }
    case 'POST /invalid': {
      const invalid = { ...household(`${url.origin}/webhooks`, 'invalid'), monthly_rent: -5 };
      const error = await api.applicantGroups.create(invalid).catch((caught: unknown) => caught);
      return json({
        validationError: error instanceof RequestValidationError,
        message: error instanceof Error ? error.message : String(error),
      });
    }
    case 'POST /reports': {
      const group = await api.applicantGroups.waitForCompletion(url.searchParams.get('group') ?? '');
      const reports = await api.applicantGroups.listReports(group.id);
      const household = reports.household_reports[0];
      if (!household) return json({ status: group.status, error: 'no household report' }, 500);
      const detail = await api.reports.retrieve(household.id);
      const pdf = await api.reports.downloadPdf(detail);
      return json({
        status: group.status,
        individualReports: reports.individual_reports.length,
        householdIncome: isIncomeReport(detail)
          ? (detail.data.recurring?.three_month_avg_monthly ?? null)
          : null,
        pdfHeader: new TextDecoder().decode(pdf.slice(0, 5)),
        pdfBytes: pdf.byteLength,
      });
    }
    case 'GET /sync-webhooks': {
      // The synchronous functions need node:crypto: here they say so, and name the async ones.
      const error = (() => {
        try {
          signWebhook('{}', env.SECRET_KEY);
          return undefined;
        } catch (caught) {
          return caught;
        }
      })();
      return json({ message: error instanceof Error ? `${error.name}: ${error.message}` : null });
    }
    case 'POST /webhooks':
      receive ??= webhookHandler({ secret: env.SECRET_KEY, onEvent: (event) => void received.push(event) });
      return receive(request);
    case 'GET /events':
      return json(received);
    default:
      return json({ error: 'not found' }, 404);
  }
}

/** Handles one request; any error becomes a 500 naming it, for the driver to print. */
export async function handle(request: Request, env: EdgeEnv): Promise<Response> {
  try {
    client ??= new VerificationClient({
      baseURL: env.MOCK_URL,
      clientId: env.CLIENT_ID,
      secretKey: env.SECRET_KEY,
      logLevel: 'off',
    });
    return await route(request, env, client);
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    return json({ error: `${name}: ${error instanceof Error ? error.message : String(error)}` }, 500);
  }
}
