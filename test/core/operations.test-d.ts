/** The public `TracedOperation` is read from the descriptors: their literal names, plus the core's own two. */
import { describe, expectTypeOf, it } from 'vitest';
import type { TracedOperation } from '../../src/index.js';
import type { applicantGroupOperations } from '../../src/resources/applicant-groups.js';

describe('TracedOperation', () => {
  it('is the union of the declared names, the PDF download, the token exchange and raw requests', () => {
    expectTypeOf<TracedOperation>().toEqualTypeOf<
      | 'applicantGroups.list'
      | 'applicantGroups.create'
      | 'applicantGroups.listReports'
      | 'reports.retrieve'
      | 'reports.downloadPdf'
      | 'screeningGroups.list'
      | 'screeningGroups.create'
      | 'screeningGroups.retrieve'
      | 'screeningGroups.reportUrl'
      | 'screeningGroups.reportData'
      | 'auth.exchange'
      | 'request'
    >();
  });

  it('keeps each descriptor name literal', () => {
    expectTypeOf<
      (typeof applicantGroupOperations)['listReports']['name']
    >().toEqualTypeOf<'applicantGroups.listReports'>();
  });
});
