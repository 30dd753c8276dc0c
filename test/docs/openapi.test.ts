/**
 * openapi.json: the committed document is what the descriptors' wire schemas give today (the CI
 * check: `npm run generate` when it fails), a schema changed in memory makes it stale, an
 * independent parser (@apidevtools/swagger-parser) accepts it as OpenAPI 3.1, every schema in it
 * compiles under ajv's strict JSON Schema 2020-12, and the mock serves it.
 */
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
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
      anyOf: [
        { $ref: '#/components/schemas/IncomeReportDetail' },
        { $ref: '#/components/schemas/OtherReportDetail' },
      ],
    });
    const createdAfter = document.paths['/api/v1/applicant_groups'].get.parameters[3];
    expect(JSON.stringify(createdAfter.schema)).toContain('Unix seconds');
    // Nothing fell back to "anything": zod's unrepresentable cases all have an override.
    expect(committed).not.toMatch(/"(schema|items)": \{\}/);
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
