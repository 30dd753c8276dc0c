/**
 * The OpenAPI 3.1 document of the API, generated from the operation descriptors' wire schemas
 * (`npm run generate` writes `openapi.json`; `npm test` fails while the committed file is stale).
 *
 * Directions: a request body is described by its schema's output (what is sent), a response by
 * its schema's input (what arrives), a query by its schema's input with the wire's types (the
 * schema's output is only the strings it sends). What JSON Schema cannot say is overridden
 * explicitly, and anything else it cannot say fails the generation:
 * - open enums (`openEnum`, a custom check) become the known values or any other string;
 * - a query timestamp given as a `Date` is sent as integer Unix seconds;
 * - the report detail (a transform that dispatches on `report_type`) is its two shapes, a `oneOf`
 *   discriminated on `report_type`;
 * - a refinement's rule is stated by the keywords its schema carries (`withWireRule`,
 *   src/schemas/wire-rule.ts), merged here;
 * - dates on the wire are ISO 8601 strings already (`dateTimeSchema`), so they need nothing.
 *
 * Every operation lists the error answers the mock gives on its route (src/testing/server/routes.ts) and
 * the SDK handles (src/core/errors.ts), each with the `Error` body: the contract is what the SDK
 * and the mock observe and handle, not a promise of the vendor's.
 */
import { z } from 'zod';
import type { AnyOperation } from '../src/core/call/operation.js';
import { pathParamsOf } from '../src/core/call/operation.js';
import { applicantGroupSchema, applicantSchema } from '../src/schemas/applicant-groups.js';
import {
  bankConnectionSchema,
  criteriaRuleResultSchema,
  incomeReportDataSchema,
  incomeStreamSchema,
  incomeSummarySchema,
  payrollConnectionSchema,
  uploadedDocumentSchema,
  verificationReportSchema,
} from '../src/schemas/income-report.js';
import {
  incomeReportDetailSchema,
  KNOWN_REPORT_TYPES,
  otherReportDetailSchema,
  reportDetailSchema,
  reportSummarySchema,
  TYPED_REPORT_TYPES,
} from '../src/schemas/reports.js';
import { screeningGroupSchema, screeningSchema } from '../src/schemas/screening-groups.js';
import { wireRuleOf } from '../src/schemas/wire-rule.js';
import { VERSION } from '../src/version.js';

/** A JSON Schema or OpenAPI object, as plain JSON. */
type Json = { [key: string]: unknown };

/** Schemas whose JSON Schema is written by hand from others': transforms that only pick between shapes. */
const SUBSTITUTES = new Map<z.ZodType, (writer: SchemaWriter, io: 'input' | 'output') => Json>([
  [
    reportDetailSchema,
    (writer, io) => {
      // The detail is picked by `report_type` (src/schemas/reports.ts): a known one must carry
      // its type's data, and the open shape excludes the known values, so exactly one matches.
      const refTo = (schema: z.ZodType): string => {
        writer.write(schema, io);
        return `#/components/schemas/${NAMED_ID.get(schema)}`;
      };
      const typed = refTo(incomeReportDetailSchema);
      const open = refTo(otherReportDetailSchema);
      const typedTypes: ReadonlySet<string> = new Set(TYPED_REPORT_TYPES);
      const mapping: Record<string, string> = {};
      for (const type of KNOWN_REPORT_TYPES) {
        mapping[type] = typedTypes.has(type)
          ? typed
          : `#/components/schemas/${writeUntypedReportBranch(writer, type)}`;
      }
      return {
        // The open shape behind an `allOf`: a bare reference in a discriminated `oneOf` would be
        // named by its schema name (OpenAPI's implicit mapping, which generators apply), as if
        // `report_type` were "OtherReportDetail"; any value outside `mapping` selects it.
        oneOf: [
          ...[...new Set(Object.values(mapping))].map(($ref): Json => ({ $ref })),
          { allOf: [{ $ref: open }] },
        ],
        discriminator: { propertyName: 'report_type', mapping },
      };
    },
  ],
]);

/**
 * The branch of a known report type whose data is not shown (identity, asset): the open shape
 * with `report_type` that one value and `data` an object. Returns its component name.
 */
function writeUntypedReportBranch(writer: SchemaWriter, type: string): string {
  const name = `${type[0]?.toUpperCase()}${type.slice(1)}ReportDetail`;
  const open = writer.components.OtherReportDetail;
  if (!open) throw new Error('openapi: OtherReportDetail must be written before the known report branches');
  const branch = structuredClone(open);
  const properties = branch.properties as Record<string, Json>;
  properties.report_type = { type: 'string', enum: [type] };
  properties.data = {
    type: 'object',
    additionalProperties: {},
    description: `The ${type} report's data: its fields are not shown in the vendor's documentation, so any object.`,
  };
  branch.description = `A report detail whose \`report_type\` is \`${type}\`.`;
  writer.components[name] = branch;
  return name;
}

/** Wire objects named in `components.schemas`: referenced, not repeated, wherever they appear. */
const NAMED: ReadonlyArray<[z.ZodType, string]> = [
  [applicantGroupSchema, 'ApplicantGroup'],
  [applicantSchema, 'Applicant'],
  [screeningGroupSchema, 'ScreeningGroup'],
  [screeningSchema, 'Screening'],
  [reportSummarySchema, 'ReportSummary'],
  [incomeReportDetailSchema, 'IncomeReportDetail'],
  [otherReportDetailSchema, 'OtherReportDetail'],
  [incomeReportDataSchema, 'IncomeReportData'],
  [verificationReportSchema, 'VerificationReport'],
  [incomeSummarySchema, 'IncomeSummary'],
  [incomeStreamSchema, 'IncomeStream'],
  [bankConnectionSchema, 'BankConnection'],
  [payrollConnectionSchema, 'PayrollConnection'],
  [uploadedDocumentSchema, 'UploadedDocument'],
  [criteriaRuleResultSchema, 'CriteriaRuleResult'],
];
const NAMED_ID = new Map(NAMED);

/** The unannotated checks the open enums were built from (zod visits them after their annotated selves). */
const openEnumParents = new WeakSet<object>();

function kindOf(schema: unknown): string | undefined {
  const def = (schema as { _zod?: { def?: { type?: unknown } } })._zod?.def;
  return typeof def?.type === 'string' ? def.type : undefined;
}

/** Replaces every `#/$defs/X` reference with `#/components/schemas/X`, in place. */
function pointRefsAtComponents(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) pointRefsAtComponents(item);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const record = value as Json;
  if (typeof record.$ref === 'string') record.$ref = record.$ref.replace('#/$defs/', '#/components/schemas/');
  for (const item of Object.values(record)) pointRefsAtComponents(item);
}

/** Turns wire schemas into JSON Schema, collecting the named ones into `components`. */
class SchemaWriter {
  /** `components.schemas` so far. */
  readonly components: Record<string, Json> = {};
  readonly #metadata = z.registry<{ id?: string; description?: string }>();

  constructor() {
    for (const [schema, id] of NAMED) this.#metadata.add(schema, { id });
  }

  /** JSON Schema of `schema` as seen from `io` (request bodies: output; responses and queries: input). */
  write(schema: z.ZodType, io: 'input' | 'output'): Json {
    const substitute = SUBSTITUTES.get(schema);
    if (substitute) return substitute(this, io);
    const generated = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      metadata: this.#metadata,
      unrepresentable: (ctx) => openEnumOrDate(ctx.zodSchema, io, ctx.path),
      override: (ctx) => {
        const visited = ctx.zodSchema as unknown as z.ZodType;
        const json = ctx.jsonSchema as Json;
        const rule = wireRuleOf(visited);
        if (rule) Object.assign(json, rule);
        const sub = SUBSTITUTES.get(visited);
        if (!sub || ctx.path.length === 0) return;
        for (const key of Object.keys(json)) delete json[key];
        Object.assign(json, sub(this, io));
      },
    }) as Json;
    delete generated.$schema;
    const defs = (generated.$defs ?? {}) as Record<string, Json>;
    delete generated.$defs;
    for (const [id, def] of Object.entries(defs)) {
      pointRefsAtComponents(def);
      const seen = this.components[id];
      if (seen && JSON.stringify(seen) !== JSON.stringify(def)) {
        throw new Error(`openapi: ${id} differs between two operations (request and response sides?)`);
      }
      this.components[id] = def;
    }
    pointRefsAtComponents(generated);
    return generated;
  }
}

/** The explicit JSON Schema of what zod cannot describe; anything else stops the generation. */
function openEnumOrDate(schema: unknown, io: 'input' | 'output', path: (string | number)[]): Json {
  const kind = kindOf(schema);
  const meta = z.globalRegistry.get(schema as z.ZodType);
  const known = meta?.knownValues;
  if (kind === 'custom' && Array.isArray(known)) {
    const parent = (schema as { _zod: { parent?: unknown } })._zod.parent;
    if (parent) openEnumParents.add(parent);
    return {
      anyOf: [{ type: 'string', enum: known }, { type: 'string' }],
      description: meta?.description ?? 'A known value, or a value added later.',
    };
  }
  if (kind === 'custom' && typeof schema === 'object' && schema !== null && openEnumParents.has(schema)) {
    return {};
  }
  if (kind === 'date' && io === 'input') {
    return { type: 'integer', minimum: 0, description: 'Unix seconds (the SDK also takes a Date).' };
  }
  throw new Error(`openapi: no JSON Schema for a ${kind ?? 'schema'} at ${path.join('.') || '(root)'}`);
}

/** The parameters of a query schema's input object, each sent as a string (arrays comma-separated). */
function queryParameters(schema: z.ZodType, writer: SchemaWriter): Json[] {
  const json = writer.write(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
    ...(property.type === 'array' ? { style: 'form', explode: false } : {}),
  }));
}

const ERROR_BODY: Json = {
  type: 'object',
  description:
    'The body of a 4xx or 5xx answer. Its shape is not documented by the service (docs/wire-contract.md §7): the SDK keeps any JSON body and reads `message`, `error` or `detail`, and `fields` when present.',
  properties: {
    error: { type: 'string', description: 'Machine-readable code: invalid_request, not_found, ...' },
    message: { type: 'string' },
    detail: { type: 'string' },
    fields: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, message: { type: 'string' } },
        required: ['field', 'message'],
      },
    },
  },
};

const errorBody = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** The error answers, by status: `components.responses`, each with the `Error` body. */
const ERROR_ANSWERS = {
  '400': {
    name: 'BadRequest',
    description:
      'The body or query breaks a rule of this document, or the service refused a value (an applicant email that does not exist); `fields` names each field. The SDK throws BadRequestError; it checks the same rules before sending.',
  },
  '401': {
    name: 'Unauthorized',
    description:
      'The access token is missing, malformed, invalid or expired (on the token exchange: an unknown client_id or a wrong secret_key). The SDK exchanges a new token once and replays the call, then throws AuthenticationError.',
  },
  '404': {
    name: 'NotFound',
    description:
      'The group or report does not exist, or a screening group has no report yet. The SDK throws NotFoundError.',
  },
  '405': {
    name: 'MethodNotAllowed',
    description: 'The path does not take this method (the strict mock); `Allow` lists the methods it takes.',
    headers: {
      Allow: { description: 'The methods the path takes, e.g. `GET, POST`.', schema: { type: 'string' } },
    },
  },
  '410': {
    name: 'Gone',
    description: 'The report data has expired and is no longer available. The SDK throws ReportExpiredError.',
  },
  '413': {
    name: 'PayloadTooLarge',
    description: 'The request body is larger than the server reads (the mock reads 1 MiB).',
  },
  '415': {
    name: 'UnsupportedMediaType',
    description: 'The request body is not sent as `application/json` (the strict mock).',
  },
  '429': {
    name: 'TooManyRequests',
    description:
      'Too many requests. The SDK waits as long as `Retry-After` (or `retry-after-ms`) asks and retries a read; it throws RateLimitError when its retries run out.',
    headers: {
      'Retry-After': {
        description: 'How long to wait: seconds, or an HTTP date.',
        schema: { type: 'string', examples: ['2'] },
      },
      'retry-after-ms': {
        description: 'How long to wait in milliseconds; read before `Retry-After` when both are sent.',
        schema: { type: 'string', pattern: '^\\d+(\\.\\d+)?$' },
      },
    },
  },
  '431': { name: 'HeadersTooLarge', description: 'The request headers are too large.' },
  '5XX': {
    name: 'ServerError',
    description:
      'The server failed. The SDK retries a read; a create that may have reached the server is never resent blindly (GroupMayHaveBeenCreatedError).',
  },
} as const satisfies Record<string, { name: string; description: string; headers?: Json }>;

/** A status of {@link ERROR_ANSWERS}. */
type ErrorStatus = keyof typeof ERROR_ANSWERS;

/**
 * Operations whose answer can expire: the mock answers 410 on their routes once the report data
 * has expired (src/testing/server/routes.ts).
 */
const EXPIRING: ReadonlySet<string> = new Set([
  'reports.retrieve',
  'screeningGroups.reportUrl',
  'screeningGroups.reportData',
]);

/** The error statuses the mock answers on `operation`'s route, in order. */
function errorsOf(operation: AnyOperation): ErrorStatus[] {
  const statuses: ErrorStatus[] = [];
  if (operation.query || operation.body) statuses.push('400');
  statuses.push('401');
  if (pathParamsOf(operation.path).length > 0) statuses.push('404');
  statuses.push('405');
  if (EXPIRING.has(operation.name)) statuses.push('410');
  if (operation.body) statuses.push('413', '415');
  statuses.push('429', '431', '5XX');
  return statuses;
}

/** The `responses` entries of `statuses`: references to `components.responses`. */
function errorAnswers(statuses: readonly ErrorStatus[]): Json {
  return Object.fromEntries(
    statuses.map((status) => [status, { $ref: `#/components/responses/${ERROR_ANSWERS[status].name}` }]),
  );
}

/** `components.responses`: every error answer, with the `Error` body. */
function errorResponseComponents(): Json {
  return Object.fromEntries(
    Object.values(ERROR_ANSWERS).map(({ name, ...answer }) => [name, { ...answer, content: errorBody }]),
  );
}

const CREATE_POLICY_TEXT = {
  lookup:
    'A create: the SDK never resends it after an ambiguous failure; it looks the group up by `correlation_id` instead.',
  none: 'A create: the SDK never resends it after an ambiguous failure.',
} as const;

function operationObject(operation: AnyOperation, writer: SchemaWriter): Json {
  const parameters = [
    ...pathParamsOf(operation.path).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...(operation.query ? queryParameters(operation.query, writer) : []),
  ];
  return {
    operationId: operation.name,
    summary: operation.doc,
    ...(operation.create ? { description: CREATE_POLICY_TEXT[operation.create] } : {}),
    tags: [operation.name.split('.')[0]],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: writer.write(operation.body, 'output') } },
          },
        }
      : {}),
    responses: {
      '200': {
        description: 'OK',
        content: { 'application/json': { schema: writer.write(operation.response, 'input') } },
      },
      ...errorAnswers(errorsOf(operation)),
    },
    ...(operation.create ? { 'x-create-policy': operation.create } : {}),
  };
}

/** The token in an `Authorization` header, as the SDK reads it (src/core/token/token-exchange.ts). */
const BEARER_HEADER: Json = {
  type: 'string',
  pattern: '^Bearer \\S+$',
  examples: ['Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjbGllbnQiLCJleHAiOjE3MDAwMDE4MDB9.c2lnbmF0dXJl'],
};

/** A token in a JSON body: the fallback the SDK accepts when no `Authorization` header is sent. */
const TOKEN_BODY: Json = {
  type: 'object',
  description:
    'The token in the body, as `token` or `access_token` (the SDK reads `token` first). A JWT gives its lifetime by `exp - iat`; any other token is taken to last 30 minutes.',
  anyOf: ['token', 'access_token'].map((name) => ({
    properties: { [name]: { type: 'string', pattern: '^\\S+$' } },
    required: [name],
  })),
};

/** The token exchange: the core's own endpoint, not a descriptor. */
const TOKEN_EXCHANGE: Json = {
  post: {
    operationId: 'auth.exchange',
    summary: 'Exchanges the client id and secret key for a 30-minute access token.',
    description:
      'Every 2xx answer carries the token: in the `Authorization: Bearer <token>` header (read first; then the body may be empty), or in the JSON body as `token` or `access_token`.',
    tags: ['auth'],
    security: [],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              client_id: { type: 'string', minLength: 1 },
              secret_key: { type: 'string', minLength: 1 },
            },
            required: ['client_id', 'secret_key'],
          },
        },
      },
    },
    responses: {
      '200': {
        description:
          'The token in the JSON body (`token` or `access_token`); an `Authorization: Bearer` header sent with it is read first.',
        headers: {
          Authorization: {
            description: 'Bearer <token>, when sent: read before the body.',
            schema: BEARER_HEADER,
          },
        },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/TokenBody' } } },
      },
      '204': {
        description: 'The token in the Authorization header, with no body (what the mock answers).',
        headers: {
          Authorization: { description: 'Bearer <token>', required: true, schema: BEARER_HEADER },
        },
      },
      ...errorAnswers(['400', '401', '405', '413', '415', '429', '431', '5XX']),
    },
  },
};

/** What each resource's operations are about (a resource without one is listed bare). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  applicantGroups: 'Income and asset verification of a household: groups, their applicants and reports.',
  reports: 'Report details, with their data and a PDF link.',
  screeningGroups: 'The screening family: groups, their report link and report data.',
  auth: 'The access token, exchanged for the client id and secret key.',
};

/** The OpenAPI 3.1 document of `operations`. */
export function openApiDocument(operations: readonly AnyOperation[]): Json {
  const writer = new SchemaWriter();
  const paths: Record<string, Json> = { '/api/v1/tenants/auth': TOKEN_EXCHANGE };
  for (const operation of operations) {
    const item = paths[operation.path] ?? {};
    item[operation.method.toLowerCase()] = operationObject(operation, writer);
    paths[operation.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Applicant Income and Asset Verification API',
      version: VERSION,
      description:
        "Generated from the applicant-verification SDK's wire schemas (npm run generate). The requests, answers and errors here are the ones the SDK and its mock server (applicant-verification/testing) observe and handle: the rules the SDK checks before sending and the mock enforces, and the answers the SDK reads. It is not a promise of the vendor's: the service's own reference documents no error answers and does not say how it treats unknown fields (docs/spec-gaps.md). Responses carry fields beyond those listed; enums marked \"or a value added later\" are open.",
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'https://api.example.com', description: 'Your base URL (without /api/v1)' }],
    security: [{ bearer: [] }],
    tags: [...new Set(operations.map((operation) => operation.name.split('.')[0] ?? operation.name))]
      .concat('auth')
      .map((name) => {
        const description = TAG_DESCRIPTIONS[name];
        return description === undefined ? { name } : { name, description };
      }),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The token from POST /api/v1/tenants/auth.',
        },
      },
      schemas: { ...sortedKeys(writer.components), Error: ERROR_BODY, TokenBody: TOKEN_BODY },
      responses: errorResponseComponents(),
    },
  };
}

function sortedKeys(record: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** The document as committed: two-space JSON with a final newline. */
export function openApiText(operations: readonly AnyOperation[]): string {
  return `${JSON.stringify(openApiDocument(operations), null, 2)}\n`;
}
