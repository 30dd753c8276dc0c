/**
 * The client builds a family's schemas on its first call (src/schemas/lazy/); the schemas entry
 * builds them when imported. Both must hand out the very same objects: users compose the exported
 * schemas, the OpenAPI generator reads the descriptors, and zod's registries key by identity.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { RequestValidationError } from '../../src/core/errors.js';
import { applicantGroupOperations } from '../../src/resources/applicant-groups.js';
import { OPERATIONS } from '../../src/resources/operations.js';
import { reportOperations } from '../../src/resources/reports.js';
import { screeningGroupOperations } from '../../src/resources/screening-groups.js';
import * as exported from '../../src/schemas/index.js';
import {
  applicantGroupCreateSchemas,
  applicantGroupSchemas,
} from '../../src/schemas/lazy/applicant-groups.js';
import { commonRequestSchemas, commonSchemas } from '../../src/schemas/lazy/common.js';
import { incomeReportSchemas } from '../../src/schemas/lazy/income-report.js';
import { onFirstUse } from '../../src/schemas/lazy/on-first-use.js';
import { reportSchemas } from '../../src/schemas/lazy/reports.js';
import { screeningGroupSchemas } from '../../src/schemas/lazy/screening-groups.js';
import { screeningReportSchemas } from '../../src/schemas/lazy/screening-reports.js';
import { webhookSchemas } from '../../src/schemas/lazy/webhooks.js';
import * as webhookModule from '../../src/schemas/webhooks.js';
import { serverWithClient } from '../support/http-server.js';

const builders = {
  commonSchemas,
  commonRequestSchemas,
  applicantGroupSchemas,
  applicantGroupCreateSchemas,
  incomeReportSchemas,
  reportSchemas,
  screeningGroupSchemas,
  screeningReportSchemas,
  webhookSchemas,
};

describe('onFirstUse', () => {
  it('builds on the first call only, and returns that value every time', () => {
    let builds = 0;
    const value = onFirstUse(() => {
      builds++;
      return { built: builds };
    });
    expect(builds).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(first).toEqual({ built: 1 });
    expect(builds).toBe(1);
  });
});

describe('the schemas built on first use', () => {
  it.each(Object.entries(builders))('%s returns the same schema objects on every call', (_name, build) => {
    const first = build();
    const again = build();
    expect(Object.keys(first).length).toBeGreaterThan(0);
    for (const [key, schema] of Object.entries(first)) {
      expect(Reflect.get(again, key), key).toBe(schema);
    }
  });

  it('are the very objects applicant-verification/schemas exports', () => {
    const names = Object.values(builders).flatMap((build) =>
      Object.entries(build()).filter(([, schema]) => schema instanceof z.ZodType),
    );
    const shared = names.filter(([key]) => key in exported);
    // Every family is exported through the entry (a builder's private helpers are not).
    expect(shared.length).toBeGreaterThan(40);
    for (const [key, schema] of shared) expect(Reflect.get(exported, key), key).toBe(schema);
    for (const [key, schema] of Object.entries(webhookSchemas())) {
      expect(Reflect.get(webhookModule, key), key).toBe(schema);
    }
  });

  it('are what the descriptors hand the core', () => {
    expect(applicantGroupOperations.list.response).toBe(exported.applicantGroupListResponseSchema);
    expect(applicantGroupOperations.list.query).toBe(exported.applicantGroupListParamsSchema);
    expect(applicantGroupOperations.create.response).toBe(exported.applicantGroupSchema);
    expect(reportOperations.retrieve.response).toBe(exported.reportDetailSchema);
    expect(screeningGroupOperations.create.body).toBe(exported.screeningGroupCreateParamsSchema);
    expect(screeningGroupOperations.reportData.response).toBe(exported.screeningReportDataSchema);
    for (const operation of OPERATIONS) expect(operation.response, operation.name).toBeInstanceOf(z.ZodType);
  });
});

const serve = serverWithClient();

describe('a body checked by a schema built on first use', () => {
  it('is still refused before any request is sent', async () => {
    const { client, server } = await serve({
      'POST /api/v1/screening_groups': () => ({ status: 201, body: {} }),
    });
    const error = await client.screeningGroups
      // @ts-expect-error: no applicants, no property: the body is invalid on purpose.
      .create({ decision_maker_display_name: 'Office' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).message).toMatch(/applicants/);
    // Not even the token exchange: the check ran before any I/O.
    expect(server.requests).toEqual([]);
  });
});
