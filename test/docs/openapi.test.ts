/**
 * openapi.json: the committed document is what the descriptors' wire schemas give today (the CI
 * check: `npm run generate` when it fails), a schema changed in memory makes it stale, an
 * independent parser (@apidevtools/swagger-parser) accepts it as OpenAPI 3.1, every schema in it
 * compiles under ajv's strict JSON Schema 2020-12, and the mock serves it. What it promises: the
 * error answers of every operation, the token of the exchange, reports discriminated on
 * `report_type`, and request rules that refuse what the SDK refuses. (Independent linters and a
 * generated client check it further in `npm run test:contract`.)
 */
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiDocument, openApiText } from '../../scripts/openapi.js';
import { OPERATIONS } from '../../src/resources/operations.js';
import { applicantGroupReportsSchema } from '../../src/schemas/reports.js';
import { createMockServer } from '../../src/testing/index.js';
import { closeAfterEach } from '../support/http-server.js';
import { addedOperation } from '../support/operations.js';

const committed = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
const track = closeAfterEach();

/** The CI check: whether the committed text is the one `operations` give. */
const isCurrent = (operations: typeof OPERATIONS) => openApiText(operations) === committed;

describe('openapi.json', () => {
  it('is current: the descriptors give exactly the committed file (run npm run generate when this fails)', () => {
    expect(openApiText(OPERATIONS)).toBe(committed);
  });

  it('is reported stale when a schema changes, and when an operation is added', () => {
    // The same operations, one response schema gaining a field.
    const changed = OPERATIONS.map((operation) =>
      operation.name === 'applicantGroups.listReports'
        ? { ...operation, response: applicantGroupReportsSchema.extend({ archived: z.boolean() }) }
        : operation,
    );
    expect(isCurrent(OPERATIONS)).toBe(true);
    expect(isCurrent(changed)).toBe(false);
    expect(JSON.stringify(openApiDocument(changed))).toContain('"archived":{"type":"boolean"}');

    expect(isCurrent([...OPERATIONS, addedOperation])).toBe(false);
  });

  it('describes every operation: its path, method, parameters, body and create policy', () => {
    const document = JSON.parse(committed);
    for (const operation of OPERATIONS) {
      const described = document.paths[operation.path]?.[operation.method.toLowerCase()];
      expect(described?.operationId).toBe(operation.name);
      expect(described?.summary).toBe(operation.doc);
      expect(described?.requestBody !== undefined).toBe(operation.body !== undefined);
      expect(described?.['x-create-policy']).toBe(operation.create);
    }
    const list = document.paths['/api/v1/applicant_groups'].get;
    expect(list.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'search',
      'statuses',
      'correlation_id',
      'created_after',
      'created_before',
      'page',
    ]);
    expect(document.paths['/api/v1/reports/{reportId}'].get.parameters).toEqual([
      { name: 'reportId', in: 'path', required: true, schema: { type: 'string' } },
    ]);
  });

  it('says what JSON Schema cannot by itself: open enums, the report detail, query timestamps', () => {
    const document = JSON.parse(committed);
    const group = document.components.schemas.ApplicantGroup;
    expect(group.properties.status.anyOf).toEqual([
      { type: 'string', enum: ['not_started', 'in_progress', 'completed'] },
      { type: 'string' },
    ]);
    expect(
      document.paths['/api/v1/reports/{reportId}'].get.responses['200'].content['application/json'].schema,
    ).toEqual({
      oneOf: [
        { $ref: '#/components/schemas/IncomeReportDetail' },
        { $ref: '#/components/schemas/IdentityReportDetail' },
        { $ref: '#/components/schemas/AssetReportDetail' },
        { allOf: [{ $ref: '#/components/schemas/OtherReportDetail' }] },
      ],
      discriminator: {
        propertyName: 'report_type',
        mapping: {
          income: '#/components/schemas/IncomeReportDetail',
          identity: '#/components/schemas/IdentityReportDetail',
          asset: '#/components/schemas/AssetReportDetail',
        },
      },
    });
    // Every known type has its branch: the open one excludes them all.
    expect(document.components.schemas.OtherReportDetail.properties.report_type).toEqual({
      type: 'string',
      not: { enum: ['income', 'identity', 'asset'] },
    });
    const identity = document.components.schemas.IdentityReportDetail.properties;
    expect(identity.report_type).toEqual({ type: 'string', enum: ['identity'] });
    expect(identity.data.type).toBe('object');
    const createdAfter = document.paths['/api/v1/applicant_groups'].get.parameters[3];
    expect(JSON.stringify(createdAfter.schema)).toContain('Unix seconds');
    // Nothing fell back to "anything": zod's unrepresentable cases all have an override.
    expect(committed).not.toMatch(/"(schema|items)": \{\}/);
  });

  it('documents the error answers of every operation with the Error body, 401 and 429 with their headers', () => {
    const document = JSON.parse(committed);
    const responses = document.components.responses;
    const statusesOf = (path: string, method: string) =>
      Object.keys(document.paths[path][method].responses).filter(
        (status) => status !== '200' && status !== '204',
      );
    for (const operation of OPERATIONS) {
      const statuses = statusesOf(operation.path, operation.method.toLowerCase());
      expect(statuses).toEqual(expect.arrayContaining(['401', '405', '429', '431', '5XX']));
      expect(statuses.includes('400')).toBe(operation.query !== undefined || operation.body !== undefined);
      expect(statuses.includes('413') && statuses.includes('415')).toBe(operation.body !== undefined);
      expect(statuses.includes('404')).toBe(operation.path.includes('{'));
      expect(statuses).not.toContain('default');
    }
    expect(statusesOf('/api/v1/reports/{reportId}', 'get')).toContain('410');
    expect(statusesOf('/api/v1/screening_groups/{id}/report/data', 'get')).toContain('410');
    expect(statusesOf('/api/v1/applicant_groups', 'get')).not.toContain('410');
    for (const answer of Object.values<{ content: unknown }>(responses)) {
      expect(answer.content).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/Error' } },
      });
    }
    expect(Object.keys(responses.TooManyRequests.headers)).toEqual(['Retry-After', 'retry-after-ms']);
    expect(Object.keys(responses.MethodNotAllowed.headers)).toEqual(['Allow']);
    expect(document.info.description).toContain('not a promise of the vendor');
  });

  it('documents the token exchange: every 2xx answer carries a Bearer token, in the header or the JSON body', () => {
    const exchange = JSON.parse(committed).paths['/api/v1/tenants/auth'].post;
    const header = exchange.responses['204'].headers.Authorization;
    expect(header.required).toBe(true);
    const bearer = new RegExp(header.schema.pattern);
    expect(bearer.test('Bearer eyJ.a.b')).toBe(true);
    expect(bearer.test('eyJ.a.b')).toBe(false);
    expect(bearer.test('Basic abc')).toBe(false);

    const ajv = new Ajv2020({ strict: true });
    const tokenBody = ajv.compile(JSON.parse(committed).components.schemas.TokenBody);
    expect(tokenBody({ token: 'eyJ.a.b' })).toBe(true);
    expect(tokenBody({ access_token: 'opaque' })).toBe(true);
    expect(tokenBody({})).toBe(false);
    expect(tokenBody({ token: '' })).toBe(false);
    expect(exchange.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TokenBody',
    });
  });

  it('states the request rules the SDK checks: a body the SDK refuses, the document refuses too', async () => {
    const document = JSON.parse(committed);
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);
    const bodyOf = (path: string) =>
      ajv.compile(document.paths[path].post.requestBody.content['application/json'].schema);
    const applicantGroup = bodyOf('/api/v1/applicant_groups');
    const screeningGroup = bodyOf('/api/v1/screening_groups');
    const sdkApplicantGroup = OPERATIONS.find((o) => o.name === 'applicantGroups.create')?.body;
    const sdkScreeningGroup = OPERATIONS.find((o) => o.name === 'screeningGroups.create')?.body;
    const property = { name: 'Elm', street_address: '1 Elm St', city: 'Austin', zip_code: '73301' };
    const group = {
      applicants: [{ first_name: 'Ada', last_name: 'L', email: 'ada@example.com' }],
      property: { ...property, state: 'texas' },
      decision_maker_display_name: 'Acme',
      monthly_rent: 1850,
    };
    const screening = {
      applicants: [
        { applicant_first_name: 'Ada', applicant_last_name: 'L', applicant_email: 'ada@example.com' },
      ],
      property: { ...property, state: 'Texas' },
      is_decision_maker_paying: false,
      decision_maker_display_name: 'Acme',
      monthly_rent: 1850,
    };
    const cases: Array<[typeof applicantGroup, z.ZodType | undefined, Record<string, unknown>, boolean]> = [
      [applicantGroup, sdkApplicantGroup, group, true],
      [applicantGroup, sdkApplicantGroup, { ...group, property: { ...property, state: 'TX' } }, true],
      [applicantGroup, sdkApplicantGroup, { ...group, property: { ...property, state: 'Texass' } }, false],
      [applicantGroup, sdkApplicantGroup, { ...group, monthly_rent: 1850.5 }, false],
      [applicantGroup, sdkApplicantGroup, { ...group, monthly_rent: 100_001 }, false],
      [applicantGroup, sdkApplicantGroup, { ...group, monthly_rent: 0 }, false],
      [applicantGroup, sdkApplicantGroup, { ...group, decision_maker_display_name: '  ' }, false],
      [applicantGroup, sdkApplicantGroup, { ...group, webhook_url: 'ftp://example.com/hook' }, false],
      [applicantGroup, sdkApplicantGroup, { ...group, correlationId: 'typo' }, false],
      [screeningGroup, sdkScreeningGroup, screening, true],
      [screeningGroup, sdkScreeningGroup, { ...screening, property: { ...property, state: 'T.X.' } }, false],
      [screeningGroup, sdkScreeningGroup, { ...screening, monthly_rent: -5 }, false],
      [screeningGroup, sdkScreeningGroup, { ...screening, monthly_rent: 100_000.5 }, false],
      [screeningGroup, sdkScreeningGroup, { ...screening, is_decision_maker_paying: null }, false],
    ];
    for (const [documented, sdk, body, valid] of cases) {
      expect({ body, document: documented(body) }).toEqual({ body, document: valid });
      expect({ body, sdk: sdk?.safeParse(body).success }).toEqual({ body, sdk: valid });
    }
  });

  it('passes an independent OpenAPI 3.1 validator, which does fail a broken document', async () => {
    await expect(SwaggerParser.validate(JSON.parse(committed))).resolves.toMatchObject({ openapi: '3.1.0' });
    const broken = JSON.parse(committed);
    broken.paths['/api/v1/reports/{reportId}'].get.parameters = [{ name: 'reportId', in: 'path' }];
    await expect(SwaggerParser.validate(broken)).rejects.toThrow(/reportId|schema|content/);
  });

  it('compiles every schema under ajv strict mode (JSON Schema 2020-12)', () => {
    const document = JSON.parse(committed);
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);
    // The document's components, reachable by the same `#/components/schemas/...` refs.
    ajv.addKeyword('components');
    ajv.addSchema({ $id: 'openapi.json', components: document.components });
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => ajv.getSchema(`openapi.json#/components/schemas/${name}`)).not.toThrow();
    }
  });

  it('is served by the mock at GET /__mock/openapi.json', async () => {
    const mock = track(await createMockServer({ seed: 3 }));
    const response = await fetch(`${mock.controlUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(JSON.parse(committed));
  });
});
