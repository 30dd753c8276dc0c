/**
 * The API's routes: every endpoint of docs/wire-contract.md plus the auth endpoint and the PDF
 * links, as plain functions from a request to a response. The core (core.ts) matches and runs
 * them; no HTTP framework is involved, so every adapter serves the very same routes.
 */
import type * as z from 'zod';
import type { TokenAuthority, TokenProblem } from '../accounts/auth.js';
import { renderReportPdf } from '../reports/pdf.js';
import { checkPdfLink, mintPdfUrl, PDF_PATH_PREFIX } from '../reports/reports.js';
import {
  checkScreeningReportLink,
  mintScreeningReportUrl,
  screeningGroupIdOfFile,
  screeningReportData,
  screeningReportLines,
} from '../reports/screening-report.js';
import type { MockContext } from '../state/context.js';
import { createApplicantGroup, createScreeningGroup } from '../state/create.js';
import { queryApplicantGroups, queryScreeningGroups } from '../state/queries.js';
import {
  serializeApplicantGroup,
  serializeReportDetail,
  serializeReportSummary,
  serializeScreeningGroup,
} from '../state/serialize.js';
import type { ScreeningGroupRecord } from '../state/store.js';
import type { Route, RouteHandler, RouteRequest } from './pipeline.js';
import { errorResponse, jsonResponse } from './responses.js';
import { contractBody } from './strict.js';
import {
  applicantGroupCreateSchema,
  applicantGroupRentProblem,
  nonexistentEmails,
  screeningGroupCreateSchema,
  validate,
} from './validation.js';

const TOKEN_MESSAGES: Record<TokenProblem, string> = {
  missing: 'Missing Authorization header: send Authorization: Bearer <token> from /api/v1/tenants/auth',
  malformed: 'Malformed Authorization header: expected "Bearer <token>"',
  invalid: 'Invalid access token',
  expired: 'Access token expired: tokens last 30 minutes, request a new one',
};

type JsonBody = { ok: true; value: unknown } | { ok: false; response: Response };

/** Parses a JSON request body, or the 400 answer for an empty or malformed one. */
export function readJson(text: string): JsonBody {
  if (text.trim() === '')
    return { ok: false, response: errorResponse(400, 'The request body must be a JSON object') };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return {
      ok: false,
      response: errorResponse(400, 'The request body is not valid JSON', { code: 'invalid_json' }),
    };
  }
}

// The record if it belongs to `account`: another account's record is answered for exactly as an
// unknown id is, so an id never tells one account what another holds. A request without an
// account (none of the routes behind a token) sees nothing.
const ownedBy = <T extends { account: string }>(record: T | undefined, account = ''): T | undefined =>
  record !== undefined && record.account === account ? record : undefined;

function param(params: RouteRequest['params'], name: string): string {
  return params[name] ?? '';
}

/** Builds the API routes of one mock; `strict` holds request bodies to the OpenAPI document (strict.ts). */
export function createApiRoutes(context: MockContext, tokens: TokenAuthority, strict = false): Route[] {
  const { store, clock } = context;
  const body = (operationId: string, route: RouteHandler, own?: z.ZodType): RouteHandler =>
    strict ? contractBody(operationId, route, own) : route;

  // Wraps a route that needs a valid access token (both families: the vendor's documentation leaves the screening
  // family's auth open, and one scheme for all is what a client can rely on).
  const authed =
    (route: RouteHandler) =>
    async (input: RouteRequest): Promise<Response> => {
      const checked = await tokens.check(input.request.headers.get('authorization'));
      if (!checked.ok)
        return errorResponse(401, TOKEN_MESSAGES[checked.problem], {
          code: checked.problem === 'expired' ? 'token_expired' : 'unauthorized',
        });
      return route({ ...input, account: checked.account });
    };

  const auth = async ({ body: text }: RouteRequest): Promise<Response> => {
    const body = readJson(text);
    if (!body.ok) return body.response;
    const value = body.value;
    const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
    const clientId = 'client_id' in record ? record.client_id : undefined;
    const secretKey = 'secret_key' in record ? record.secret_key : undefined;
    const fields = [];
    if (typeof clientId !== 'string' || clientId === '')
      fields.push({ field: 'client_id', message: 'client_id is required' });
    if (typeof secretKey !== 'string' || secretKey === '')
      fields.push({ field: 'secret_key', message: 'secret_key is required' });
    if (fields.length > 0) return errorResponse(400, 'client_id and secret_key are required', { fields });
    const account = typeof clientId === 'string' ? context.accounts.byId.get(clientId) : undefined;
    if (account === undefined || secretKey !== account.secretKey) {
      return errorResponse(401, 'Unknown client_id or wrong secret_key', { code: 'invalid_client' });
    }
    return new Response(null, {
      status: 204,
      headers: { authorization: `Bearer ${await tokens.issue(account.clientId)}` },
    });
  };

  const listApplicantGroups = ({ url, account = '' }: RouteRequest): Response => {
    const result = queryApplicantGroups(store, url.searchParams, context.pageSize, account);
    if (!result.ok) return errorResponse(400, 'Invalid query parameters', { fields: result.fields });
    const now = clock.now();
    return jsonResponse({
      applicant_groups: result.page.items.map((group) => serializeApplicantGroup(group, now)),
      total_count: result.page.totalCount,
    });
  };

  const lagLists = (fault: RouteRequest['fault'], groupId: string): void => {
    if (!fault || !('listLagMs' in fault)) return;
    store.hideFromLists(
      groupId,
      fault.listLagMs,
      fault.clock === 'mock' ? () => clock.now() : () => performance.now(),
    );
  };

  const createApplicantGroupRoute = ({ body: text, fault, account = '' }: RouteRequest): Response => {
    const body = readJson(text);
    if (!body.ok) return body.response;
    const parsed = validate(applicantGroupCreateSchema, body.value);
    if (!parsed.ok) return errorResponse(400, 'The applicant group is invalid', { fields: parsed.fields });
    const rentProblem = applicantGroupRentProblem(parsed.value.monthly_rent, context.rentUnit);
    if (rentProblem) {
      return errorResponse(400, 'The applicant group is invalid', {
        fields: [{ field: 'monthly_rent', message: rentProblem }],
      });
    }
    const missing = nonexistentEmails(
      parsed.value.applicants.map((a) => a.email),
      'email',
    );
    if (missing.length > 0) {
      return errorResponse(400, 'An applicant email address does not exist', {
        code: 'invalid_email',
        fields: missing,
      });
    }
    const group = createApplicantGroup(context, parsed.value, account);
    lagLists(fault, group.id);
    return jsonResponse(serializeApplicantGroup(group, clock.now()));
  };

  const listReports = ({ params, account }: RouteRequest): Response => {
    const id = param(params, 'id');
    if (!ownedBy(store.applicantGroup(id), account))
      return errorResponse(404, `Applicant group ${id} not found`);
    const reports = store.reportsOf(id);
    return jsonResponse({
      household_reports: reports.filter((r) => r.kind === 'household').map(serializeReportSummary),
      individual_reports: reports.filter((r) => r.kind === 'individual').map(serializeReportSummary),
    });
  };

  const getReport = ({ params, account }: RouteRequest): Response => {
    const id = param(params, 'id');
    const report = ownedBy(store.report(id), account);
    if (!report) return errorResponse(404, `Report ${id} not found`);
    if (report.expired) {
      return errorResponse(410, 'The report data has expired and is no longer available', {
        code: 'report_expired',
      });
    }
    return jsonResponse(serializeReportDetail(report, mintPdfUrl(context, report.id, report.account)));
  };

  const listScreeningGroups = ({ url, account = '' }: RouteRequest): Response => {
    const result = queryScreeningGroups(store, url.searchParams, account);
    if (!result.ok) return errorResponse(400, 'Invalid query parameters', { fields: result.fields });
    const now = clock.now();
    return jsonResponse({
      screening_groups: result.page.items.map((g) => serializeScreeningGroup(g, now, { answer: 'list' })),
      total_count: result.page.totalCount,
    });
  };

  const createScreeningGroupRoute = ({ body: text, fault, account = '' }: RouteRequest): Response => {
    const body = readJson(text);
    if (!body.ok) return body.response;
    const parsed = validate(screeningGroupCreateSchema, body.value);
    if (!parsed.ok) return errorResponse(400, 'The screening group is invalid', { fields: parsed.fields });
    const missing = nonexistentEmails(
      parsed.value.applicants.map((a) => a.applicant_email),
      'applicant_email',
    );
    if (missing.length > 0) {
      return errorResponse(400, 'An applicant email address does not exist', {
        code: 'invalid_email',
        fields: missing,
      });
    }
    const group = createScreeningGroup(context, parsed.value, account);
    lagLists(fault, group.id);
    return jsonResponse(serializeScreeningGroup(group, clock.now(), { answer: 'create' }));
  };

  // The earlier family's report: 404 until a screening completes, 410 once it expired.
  const screeningReport =
    (answer: (group: ScreeningGroupRecord) => Response) =>
    ({ params, account }: RouteRequest): Response => {
      const id = param(params, 'id');
      const group = ownedBy(store.screeningGroup(id), account);
      if (!group) return errorResponse(404, `Screening group ${id} not found`);
      if (!group.hasReport) {
        return errorResponse(404, `Screening group ${id} has no report yet: it is in progress`, {
          code: 'report_not_ready',
        });
      }
      if (group.reportExpired) {
        return errorResponse(410, 'The report has expired and is no longer available', {
          code: 'report_expired',
        });
      }
      return answer(group);
    };

  const retrieveScreeningGroup = ({ params, account }: RouteRequest): Response => {
    const id = param(params, 'id');
    const group = ownedBy(store.screeningGroup(id), account);
    if (!group) return errorResponse(404, `Screening group ${id} not found`);
    return jsonResponse(serializeScreeningGroup(group, clock.now(), { answer: 'list' }));
  };

  const screeningReportPdf = (groupId: string, url: URL): Response => {
    const group = store.screeningGroup(groupId);
    if (!group) return errorResponse(404, `Screening group ${groupId} not found`);
    const problem = checkScreeningReportLink(context, group, url.searchParams);
    if (problem === 'bad_signature') return errorResponse(403, 'Invalid PDF link signature');
    if (problem === 'expired')
      return errorResponse(403, 'The PDF link has expired: ask for the report URL again');
    if (group.reportExpired) return errorResponse(410, 'The report has expired', { code: 'report_expired' });
    const pdf = renderReportPdf(`Screening report: ${group.propertyName}`, screeningReportLines(group));
    return new Response(new Uint8Array(pdf), { status: 200, headers: { 'content-type': 'application/pdf' } });
  };

  // Pre-signed links: the signature is the credential, so an Authorization header is refused
  // (as object stores refuse a second authentication mechanism).
  const downloadPdf = ({ request, url, params }: RouteRequest): Response => {
    if (request.headers.has('authorization')) {
      return errorResponse(403, 'PDF links are pre-signed: send them without an Authorization header');
    }
    const file = param(params, 'file');
    const id = file.endsWith('.pdf') ? file.slice(0, -4) : file;
    const screeningGroupId = screeningGroupIdOfFile(id);
    if (screeningGroupId !== undefined) return screeningReportPdf(screeningGroupId, url);
    const report = store.report(id);
    if (!report) return errorResponse(404, `Report ${id} not found`);
    const problem = checkPdfLink(context, id, report.account, url.searchParams);
    if (problem === 'bad_signature') return errorResponse(403, 'Invalid PDF link signature');
    if (problem === 'expired')
      return errorResponse(403, 'The PDF link has expired: retrieve the report again');
    if (report.expired) return errorResponse(410, 'The report data has expired', { code: 'report_expired' });
    const pdf = renderReportPdf(report.pdfTitle, report.pdfLines);
    return new Response(new Uint8Array(pdf), {
      status: 200,
      headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${id}.pdf"` },
    });
  };

  const notFound = ({ request, url }: RouteRequest): Response =>
    errorResponse(404, `No route for ${request.method} ${url.pathname}`);

  return [
    { method: 'POST', pattern: '/api/v1/tenants/auth', target: body('auth.exchange', auth) },
    { method: 'GET', pattern: '/api/v1/applicant_groups', target: authed(listApplicantGroups) },
    {
      method: 'POST',
      pattern: '/api/v1/applicant_groups',
      target: authed(body('applicantGroups.create', createApplicantGroupRoute, applicantGroupCreateSchema)),
    },
    { method: 'GET', pattern: '/api/v1/applicant_groups/:id/reports', target: authed(listReports) },
    { method: 'GET', pattern: '/api/v1/reports/:id', target: authed(getReport) },
    { method: 'GET', pattern: '/api/v1/screening_groups', target: authed(listScreeningGroups) },
    {
      method: 'POST',
      pattern: '/api/v1/screening_groups',
      target: authed(body('screeningGroups.create', createScreeningGroupRoute, screeningGroupCreateSchema)),
    },
    { method: 'GET', pattern: '/api/v1/screening_groups/:id', target: authed(retrieveScreeningGroup) },
    {
      method: 'GET',
      pattern: '/api/v1/screening_groups/:id/report',
      target: authed(
        screeningReport((group) => jsonResponse({ url: mintScreeningReportUrl(context, group) })),
      ),
    },
    {
      method: 'GET',
      pattern: '/api/v1/screening_groups/:id/report/data',
      target: authed(screeningReport((group) => jsonResponse(screeningReportData(group, clock.now())))),
    },
    { method: 'GET', pattern: `${PDF_PATH_PREFIX}:file`, target: downloadPdf },
    // Last: anything else gets a JSON 404.
    { method: '*', pattern: '/*', target: notFound },
  ];
}
