import { describe, expect, it } from 'vitest';
import { applicantGroupSchema, reportDetailSchema, screeningGroupSchema } from '../../src/schemas/index.js';
import { createMockServer, DEFAULT_START_TIME } from '../../src/testing/index.js';
import { applicantGroupBody, expectOk, screeningGroupBody, session } from './helpers.js';

/** Runs one fixed scenario and returns everything the mock generated. */
async function scenario(seed: number, extraLogins = 0) {
  const mock = await createMockServer({ seed, now: DEFAULT_START_TIME });
  try {
    const api = session(mock);
    for (let i = 0; i < extraLogins; i++) await api('GET', '/api/v1/screening_groups');
    const group = expectOk(
      await api('POST', '/api/v1/applicant_groups', { body: applicantGroupBody() }),
      applicantGroupSchema,
    );
    const screening = expectOk(
      await api('POST', '/api/v1/screening_groups', { body: screeningGroupBody() }),
      screeningGroupSchema,
    );
    for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
    const reports = mock.reports.forGroup(group.id);
    const detail = expectOk(await api('GET', `/api/v1/reports/${reports[2]?.id}`), reportDetailSchema);
    return { group, screening, reportIds: reports.map((r) => r.id), detail };
  } finally {
    await mock.close();
  }
}

describe('mock determinism', () => {
  it('same seed and calls give the same ids, timestamps, report data and links', async () => {
    const a = await scenario(42);
    const b = await scenario(42);
    // The PDF link embeds the server's port, which differs between runs.
    const strip = (url: string) => url.replace(/^http:\/\/[^/]+/, '');
    expect({ ...a, detail: { ...a.detail, pdf_url: strip(a.detail.pdf_url) } }).toEqual({
      ...b,
      detail: { ...b.detail, pdf_url: strip(b.detail.pdf_url) },
    });
  });

  it('another seed gives other ids; extra requests (auth, lists) do not shift entity ids', async () => {
    const a = await scenario(42);
    const other = await scenario(43);
    expect(other.group.id).not.toBe(a.group.id);
    expect(other.reportIds).not.toEqual(a.reportIds);
    const busier = await scenario(42, 3);
    expect(busier.group.id).toBe(a.group.id);
    expect(busier.reportIds).toEqual(a.reportIds);
  });
});
