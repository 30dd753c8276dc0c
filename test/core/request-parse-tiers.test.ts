/**
 * A request schema's first parse skips zod's generated fast path (its code generation costs a cold
 * start more than one parse saves); later parses use it. Both must give the same data and the same
 * errors.
 */
import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../src/core/call/validate.js';
import { RequestValidationError } from '../../src/core/errors.js';
import { applicantGroupListParamsSchema, screeningGroupCreateParamsSchema } from '../../src/schemas/index.js';

describe('parseRequest, first parse and later ones', () => {
  it('gives the same wire query every time', () => {
    const params = {
      statuses: ['completed', 'pending'],
      created_after: new Date(1_700_000_000_500),
      page: 2,
    };
    const first = parseRequest(applicantGroupListParamsSchema, params);
    const second = parseRequest(applicantGroupListParamsSchema, params);
    expect(first).toEqual({ statuses: 'completed,pending', created_after: '1700000000', page: '2' });
    expect(second).toEqual(first);
  });

  it('refuses the same body with the same issues every time', () => {
    const body = { decision_maker_display_name: 'Office', applicants: [], extra: 1 };
    const refusals = [0, 1, 2].map(() => {
      try {
        parseRequest(screeningGroupCreateParamsSchema, body, 'Invalid request body');
      } catch (error) {
        return error;
      }
      return undefined;
    });
    for (const refusal of refusals) expect(refusal).toBeInstanceOf(RequestValidationError);
    const [first, ...later] = refusals.map((refusal) => (refusal as RequestValidationError).issues);
    expect(first?.map((issue) => issue.path)).toContain('extra');
    for (const issues of later) expect(issues).toEqual(first);
  });
});
