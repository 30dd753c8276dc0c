/** Every request and response schema of the API with its inferred type (webhook schemas live in `webhooks.ts`). */
export * from './applicant-groups.js';
export * from './common.js';
export * from './income-report.js';
export * from './rent.js';
export * from './reports.js';
export * from './screening-groups.js';
export * from './screening-reports.js';
