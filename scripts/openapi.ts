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
 * - the report detail (a transform that dispatches on `report_type`) is its two shapes;
 * - dates on the wire are ISO 8601 strings already (`dateTimeSchema`), so they need nothing.
 */
import { z } from 'zod';
import type { AnyOperation } from '../src/core/operation.js';
import { pathParamsOf } from '../src/core/operation.js';
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
  otherReportDetailSchema,
  reportDetailSchema,
  reportSummarySchema,
} from '../src/schemas/reports.js';
import { screeningGroupSchema, screeningSchema } from '../src/schemas/screening-groups.js';
import { VERSION } from '../src/version.js';

/** A JSON Schema or OpenAPI object, as plain JSON. */
type Json = { [key: string]: unknown };

/** Schemas whose JSON Schema is another schema's: transforms that only pick between shapes. */
const SUBSTITUTES = new Map<z.ZodType, z.ZodType>([
  [reportDetailSchema, z.union([incomeReportDetailSchema, otherReportDetailSchema])],
]);

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
    if (substitute) return this.write(substitute, io);
    const generated = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      metadata: this.#metadata,
      unrepresentable: (ctx) => openEnumOrDate(ctx.zodSchema, io, ctx.path),
      override: (ctx) => {
        const sub = SUBSTITUTES.get(ctx.zodSchema as unknown as z.ZodType);
        if (!sub || ctx.path.length === 0) return;
        const json = ctx.jsonSchema as Json;
        for (const key of Object.keys(json)) delete json[key];
        Object.assign(json, this.write(sub, io));
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
      default: {
        description: 'An error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
    ...(operation.create ? { 'x-create-policy': operation.create } : {}),
  };
}

/** The token exchange: the core's own endpoint, not a descriptor. */
const TOKEN_EXCHANGE: Json = {
  post: {
    operationId: 'auth.exchange',
    summary: 'Exchanges the client id and secret key for a 30-minute access token.',
    tags: ['auth'],
    security: [],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { client_id: { type: 'string' }, secret_key: { type: 'string' } },
            required: ['client_id', 'secret_key'],
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'The token, in the Authorization header (the body may be empty).',
        headers: { Authorization: { schema: { type: 'string' }, description: '`Bearer <jwt>`' } },
      },
      '204': {
        description: 'The token, in the Authorization header.',
        headers: { Authorization: { schema: { type: 'string' }, description: '`Bearer <jwt>`' } },
      },
      default: {
        description: 'An error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  },
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
        'Generated from the applicant-verification SDK\'s operation descriptors (npm run generate). Responses carry fields beyond those listed; enums marked "or a value added later" are open.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'https://api.example.com', description: 'Your base URL (without /api/v1)' }],
    security: [{ bearer: [] }],
    tags: [...new Set(operations.map((operation) => operation.name.split('.')[0]))]
      .concat('auth')
      .map((name) => ({ name })),
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
      schemas: { ...sortedKeys(writer.components), Error: ERROR_BODY },
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
