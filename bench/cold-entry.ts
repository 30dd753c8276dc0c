/** The SDK as the cold-start benchmark bundles it: the package entry, plus the pieces timed alone. */

export { fastCheck } from '../src/core/call/compiled.js';
export * from '../src/index.js';
export { applicantGroupListResponseSchema } from '../src/schemas/applicant-groups.js';
export { incomeReportDetailSchema, reportDetailSchema } from '../src/schemas/reports.js';
