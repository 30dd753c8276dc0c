/**
 * The public `TracedOperation` is read from the descriptors: their literal names, plus the core's
 * own. Derived here from the families themselves, so a new endpoint in a family needs no edit of
 * this file (CONTRIBUTING.md, "Recipe: a new endpoint").
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { TracedOperation } from '../../src/index.js';
import type { applicantGroupOperations } from '../../src/resources/applicant-groups.js';
import type { reportOperations } from '../../src/resources/reports.js';
import type { screeningGroupOperations } from '../../src/resources/screening-groups.js';

/** The descriptor names of a family. */
type NamesOf<F> = { [K in keyof F]: F[K] extends { name: infer N } ? N : never }[keyof F];

type Declared =
  | NamesOf<typeof applicantGroupOperations>
  | NamesOf<typeof reportOperations>
  | NamesOf<typeof screeningGroupOperations>;

describe('TracedOperation', () => {
  it("is the union of the families' declared names, the PDF download, the token exchange and raw requests", () => {
    expectTypeOf<TracedOperation>().toEqualTypeOf<
      Declared | 'reports.downloadPdf' | 'auth.exchange' | 'request'
    >();
  });

  it('keeps each descriptor name literal: no plain string slips in', () => {
    expectTypeOf<string>().not.toExtend<TracedOperation>();
    expectTypeOf<
      (typeof applicantGroupOperations)['listReports']['name']
    >().toEqualTypeOf<'applicantGroups.listReports'>();
  });
});
